"""The outcome search through the persistent store from Python: a board
solved once is answered from the store with 0 nodes, a damaged row is
never believed (searched again, with a warning), the report has the
command line's `--json` fields, and `store_added` counts what was saved."""

import sqlite3
import warnings

import pytest

import partizan

# 3 rows x 4 columns of Clobber, checkerboard: searched in well under a second.
CLOBBER = "xoxo|oxox|xoxo"

# The fields of `partizan outcome --json` (crates/report/src/outcome.rs).
FIELDS = {
    "ruleset", "board", "convention", "outcome", "left_first_wins", "right_first_wins",
    "first_players", "stats", "table", "config", "time_ms", "from_store", "saved_to_store",
    "first",
}


def test_a_second_ask_is_answered_from_the_store(tmp_path):
    b = partizan.Board("clobber", CLOBBER)
    with partizan.Store(tmp_path / "s.sqlite") as store:
        first = b.outcome_report(store=store)
        assert set(first) == FIELDS
        assert first["from_store"] is False and first["saved_to_store"] is True
        assert first["stats"]["nodes"] > 0
        second = b.outcome_report(store)
        assert second["from_store"] is True
        assert second["stats"]["nodes"] == 0
        for k in ["outcome", "left_first_wins", "right_first_wins"]:
            assert second[k] == first[k], k
        for p in ["left", "right"]:
            assert second["first_players"][p]["nodes"] == 0
            assert second["first_players"][p]["wins"] == first["first_players"][p]["wins"]
            assert second["first_players"][p]["move"] == first["first_players"][p]["move"]
        # The class-only method reads the same row and answers alike.
        assert b.outcome(store=store) == first["outcome"]
        assert store.stats()["outcome_entries"] == 1
        # Misère play is another question.
        assert b.outcome_report(store, misere=True)["from_store"] is False
        assert store.stats()["outcome_entries"] == 2
        # Without the store nothing is read.
        assert b.outcome_report()["from_store"] is False


def test_the_report_agrees_with_the_value_and_names_winning_moves():
    # Oracle: the value of 2x3 Domineering is {2|-1/2}, a first-player win.
    b = partizan.Board("domineering", "...|...")
    rep = b.outcome_report()
    assert rep["outcome"] == b.value().outcome == "N" == b.outcome()
    for p in ["left", "right"]:
        fp = rep["first_players"][p]
        assert fp["wins"] is True
        after = fp["move"]["board"]
        assert after in ["|".join(o.rows()) for o in b.options(p)]
        assert len(fp["move"]["cells"]) == 2
    assert rep["table"]["capacity"] > 0


def test_a_misere_win_with_no_move_to_make_is_stored_and_read_back(tmp_path):
    # One cell of Domineering: nobody can move, so in misère play whoever
    # is to move wins without a move (class N); in normal play they lose (P).
    b = partizan.Board("domineering", ".")
    with partizan.Store(tmp_path / "s.sqlite") as store:
        assert b.outcome(store, misere=True) == "N"
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            again = b.outcome_report(store, misere=True)
        assert again["from_store"] is True and again["outcome"] == "N"
        assert again["first_players"]["left"]["move"] is None
        assert b.outcome(store) == "P"


def test_a_damaged_row_is_searched_again_with_a_warning(tmp_path):
    path = tmp_path / "s.sqlite"
    b = partizan.Board("clobber", CLOBBER)
    with partizan.Store(path) as store:
        truth = b.outcome_report(store)
    key = f"outcome/v1/clobber/normal/{CLOBBER}"
    con = sqlite3.connect(path)
    (blob,) = con.execute("SELECT value FROM census WHERE key = ?", (key,)).fetchone()
    blob = bytearray(blob)
    i = blob.index(b"false")
    blob[i:i + 5] = b"true "  # still the right length; the checksum must catch it
    con.execute("UPDATE census SET value = ? WHERE key = ?", (bytes(blob), key))
    con.commit()
    con.close()
    with partizan.Store(path) as store:
        with pytest.warns(RuntimeWarning, match="store"):
            again = b.outcome_report(store)
        assert again["from_store"] is False
        assert again["outcome"] == truth["outcome"]
        assert again["stats"]["nodes"] > 0
        # ... and the row was replaced by the search's answer.
        assert b.outcome_report(store)["from_store"] is True


def test_bad_arguments_are_value_errors():
    b = partizan.Board("clobber", CLOBBER)
    with pytest.raises(ValueError, match="table_mb"):
        b.outcome(table_mb=0)
    with pytest.raises(ValueError, match="table_mb"):
        b.outcome_report(table_mb=100_000)
    with pytest.raises(ValueError, match="max_nodes must be at least 1"):
        b.outcome(max_nodes=0)


def test_store_added_counts_what_was_saved(tmp_path):
    path = tmp_path / "s.sqlite"
    b = partizan.Board("domineering", "....|....|...#")
    with partizan.Store(path) as store:
        before = store.stats()["total_regions"]
        _, stats = b.solve_with_stats(store)
        saved = store.stats()["total_regions"] - before
        assert saved > 0
        assert stats["store_added"] == saved
        _, stats = b.solve_with_stats(store)
        assert stats["store_added"] == 0
    # A store at its size limit saves nothing, and says so by the count.
    full = tmp_path / "full.sqlite"
    partizan.Store(full).close()
    con = sqlite3.connect(full)
    con.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('max_bytes', 1)")
    con.commit()
    con.close()
    with partizan.Store(full) as store:
        _, stats = b.solve_with_stats(store)
        assert stats["store_added"] == 0
        assert store.stats()["total_regions"] == 0


def test_one_first_player_gives_no_class_and_is_not_stored(tmp_path):
    b = partizan.Board("clobber", CLOBBER)
    whole = b.outcome_report()
    with partizan.Store(tmp_path / "s.sqlite") as store:
        for first, other in [("left", "right"), ("right", "left")]:
            rep = b.outcome_report(store, first=first)
            assert rep["outcome"] is None
            assert rep["first"] == first
            assert other not in rep["first_players"]
            assert rep[f"{other}_first_wins"] is None
            assert rep[f"{first}_first_wins"] == whole[f"{first}_first_wins"]
            assert rep["saved_to_store"] is False
            assert rep["stats"]["nodes"] < whole["stats"]["nodes"]
            # The short form: whether that player wins moving first.
            assert b.outcome(first=first) is whole[f"{first}_first_wins"]
        assert store.stats()["outcome_entries"] == 0
        assert b.outcome(store) == whole["outcome"]
        # A stored whole board answers a one-sided question.
        again = b.outcome_report(store, first="left")
        assert again["from_store"] is True and again["outcome"] is None
    with pytest.raises(ValueError, match="first must be"):
        b.outcome(first="up")


def test_cram_nimbers_by_the_outcome_search():
    # Beling's published nimbers of empty Cram rectangles (rows x columns),
    # as in crates/solve/tests/data/cram_nimbers.txt.
    for rows, cols, want in [(4, 5, 2), (4, 7, 3), (5, 5, 0), (5, 6, 2)]:
        b = partizan.Board("cram", "|".join(["." * cols] * rows))
        assert b.nimber() == want, (rows, cols)
        assert b.nimber(threads=2) == want, (rows, cols)
        rep = b.outcome_report(nimber=True)
        assert rep["nimber"] == want
        assert rep["outcome"] == ("P" if want == 0 else "N")
        assert rep["config"]["threads"] == 1
        two = b.outcome_report(nimber=True, threads=2)
        assert (two["nimber"], two["outcome"]) == (want, rep["outcome"])
        assert two["config"]["threads"] == 2
    four = b.outcome_report(nimber=True, threads=4)
    assert (four["nimber"], four["outcome"]) == (want, rep["outcome"])
    with pytest.raises(ValueError, match="threads must be between 1 and 1024, not 0"):
        partizan.Board("cram", "...|...").outcome(threads=0)
    # Without asking there is none; the store keeps outcomes, not nimbers.
    assert "nimber" not in partizan.Board("cram", "....|....").outcome_report()
    # A small board's nimber agrees with its canonical form's.
    b = partizan.Board("cram", "...|.#.|...")
    assert b.nimber() == b.value().nimber


def test_nimbers_of_partizan_or_misere_positions_are_value_errors():
    with pytest.raises(ValueError, match="not impartial"):
        partizan.Board("domineering", "...|...").nimber()
    with pytest.raises(ValueError, match="normal play"):
        partizan.Board("cram", "...|...").outcome_report(misere=True, nimber=True)


def test_a_checkpointed_search_stops_and_resumes(tmp_path):
    # Cram 4 x 7 less a corner (nimber 1, about 37,000 nodes by nimbers)
    # and the 4 x 5 Clobber checkerboard (the general engine, 42,000 nodes).
    for ruleset, text, nimber in [("cram", ".......|.......|.......|......#", True),
                                  ("clobber", "xoxox|oxoxo|xoxox|oxoxo", False)]:
        b = partizan.Board(ruleset, text)
        ck = tmp_path / f"{ruleset}.ckpt"
        whole = b.outcome_report(nimber=nimber)
        with pytest.raises(RuntimeError, match="budget|nodes"):
            b.outcome_report(nimber=nimber, checkpoint=ck, max_nodes=5000)
        assert ck.exists()
        rep = b.outcome_report(nimber=nimber, checkpoint=str(ck))
        assert rep["outcome"] == whole["outcome"]
        if nimber:
            assert rep["nimber"] == whole["nimber"] == 1
        r = rep["resumed"]
        assert r["sessions"] == 1 and r["entries_loaded"] > 0, r
        assert r["nodes_before"] >= 5000, r
        # Damaged: refused, never believed.
        data = bytearray(ck.read_bytes())
        data[len(data) // 2] ^= 1
        ck.write_bytes(bytes(data))
        with pytest.raises(RuntimeError, match="damaged"):
            b.outcome_report(nimber=nimber, checkpoint=ck)


def test_outcome_and_nimber_take_a_checkpoint_too(tmp_path):
    # The short forms keep the same resumable checkpoint as outcome_report:
    # stopped by the budget, then resumed to the answer of a whole run.
    b = partizan.Board("cram", ".......|.......|.......|......#")
    for name, call, want in [("nimber", b.nimber, 1), ("outcome", b.outcome, "N")]:
        ck = tmp_path / f"{name}.ckpt"
        with pytest.raises(RuntimeError, match="budget|nodes"):
            call(checkpoint=ck, max_nodes=1000)
        assert ck.exists()
        assert call(checkpoint=str(ck)) == want


def test_a_certificate_is_written_and_checked(tmp_path):
    # Domineering 5 x 6 (whole positions, the fast path choosing moves)
    # and a Clobber board (split positions, the general engine): written
    # from Python, replayed by the independent checker, the same fields
    # as `partizan check --json`.
    for ruleset, text in [("domineering", "......|......|......|......|......"),
                          ("clobber", CLOBBER)]:
        b = partizan.Board(ruleset, text)
        proof = tmp_path / f"{ruleset}.txt"
        rep = b.outcome_report(certificate=proof)
        assert proof.exists()
        c = partizan.check_certificate(proof)
        assert set(c) == {"valid", "ruleset", "board", "convention", "outcome",
                          "left_first_wins", "right_first_wins", "check", "time_ms"}
        assert c["valid"] is True
        assert c["ruleset"] == ruleset and c["board"] == text
        assert c["outcome"] == rep["outcome"] == b.outcome()
        assert c["check"]["positions"] > 0 and c["check"]["records"] > 0
        text_of = proof.read_text()
        assert text_of.startswith("partizan-certificate 2\n")
        assert ("positions whole" in text_of) == (ruleset == "domineering")
        # A false claim is refused, naming the failure.
        bad = tmp_path / "bad.txt"
        flipped = text_of.replace("claim left wins", "claim left LOSES")
        flipped = flipped.replace("claim left loses", "claim left wins")
        flipped = flipped.replace("claim left LOSES", "claim left loses")
        bad.write_text(flipped)
        with pytest.raises(ValueError, match="proof fails"):
            partizan.check_certificate(bad)
    # The short form writes one too; a missing file is an OSError; a
    # certificate does not combine with a checkpoint.
    proof = tmp_path / "short.txt"
    assert partizan.Board("domineering", "....|....|....").outcome(certificate=str(proof)) == "R"
    assert partizan.check_certificate(str(proof))["outcome"] == "R"
    with pytest.raises(OSError, match="cannot read"):
        partizan.check_certificate(tmp_path / "none.txt")
    # A name ending in .gz is written gzip-compressed and read back as
    # such; cut short it is refused.
    import gzip
    zipped = tmp_path / "short.txt.gz"
    assert partizan.Board("domineering", "....|....|....").outcome(certificate=zipped) == "R"
    assert gzip.decompress(zipped.read_bytes()).decode() == proof.read_text()
    assert partizan.check_certificate(zipped)["outcome"] == "R"
    cut = tmp_path / "cut.gz"
    cut.write_bytes(zipped.read_bytes()[:-6])
    with pytest.raises(ValueError, match="certificate"):
        partizan.check_certificate(cut)
    with pytest.raises(ValueError, match="checkpoint"):
        partizan.Board("domineering", "...|...").outcome_report(
            certificate=tmp_path / "c.txt", checkpoint=tmp_path / "c.ckpt")


def test_every_first_move_is_judged():
    # 4 x 4 Domineering: each of Left's 12 first moves judged, and each
    # judgement agrees with a search of the position after the move.
    b = partizan.Board("domineering", "....|....|....|....")
    rep = b.outcome_report(moves=True, first="left")
    moves = rep["first_moves"]["left"]
    assert "right" not in rep["first_moves"]
    assert len(moves) == 12
    for m in moves:
        after = partizan.Board("domineering", m["board"])
        assert m["wins"] is not after.outcome(first="right")
    assert any(m["wins"] for m in moves) is rep["left_first_wins"]
    assert "first_moves" not in b.outcome_report()
    with pytest.raises(ValueError, match="moves=True cannot be combined"):
        b.outcome_report(moves=True, certificate="x.txt")


def test_a_table_of_rectangles_agrees_with_each_board(tmp_path):
    # 1-4 x 1-5 Domineering: each cell is the outcome of its own board
    # (Lachmann, Moore and Rapaport: 4 x 5 is L, 2 x 4 is R), the second
    # table read from the store; a node budget leaves a cell unanswered.
    with partizan.Store(tmp_path / "s.sqlite") as store:
        t = partizan.outcome_table("domineering", "1-4x1-5", store)
        assert t["ruleset"] == "domineering" and t["convention"] == "normal"
        assert t["spec"] == {"rows": [1, 4], "cols": [1, 5]}
        cells = t["cells"]
        assert [(c["rows"], c["cols"]) for c in cells] == [
            (r, k) for r in range(1, 5) for k in range(1, 6)]
        for c in cells:
            assert c["board"] == "|".join(["." * c["cols"]] * c["rows"])
            assert c["outcome"] == partizan.Board("domineering", c["board"]).outcome()
            assert c["from_store"] is False and "stopped" not in c
        assert cells[-1]["outcome"] == "L" and cells[8]["outcome"] == "R"
        again = partizan.outcome_table("domineering", "1-4x1-5", store)
        assert [c["outcome"] for c in again["cells"]] == [c["outcome"] for c in cells]
        assert all(c["from_store"] and c["nodes"] == 0 for c in again["cells"])
    # Cram's nimbers (Beling: 4 x 5 is *2), a Clobber checkerboard.
    cram = partizan.outcome_table("cram", "4x4-5", nimber=True)["cells"]
    assert [c["nimber"] for c in cram] == [0, 2]
    assert partizan.outcome_table("clobber", "2x3")["cells"][0]["board"] == "xox|oxo"
    stopped = partizan.outcome_table("domineering", "6x8", max_nodes=500)["cells"][0]
    assert stopped["outcome"] is None and "500" in stopped["stopped"]
    for bad, why in [("0x2", "at least 1"), ("1-40", "at most 1024"), ("12x12", "too many")]:
        with pytest.raises(ValueError, match=why):
            partizan.outcome_table("domineering", bad)
    with pytest.raises(ValueError, match="no standard rectangle"):
        partizan.outcome_table("toads", "4")
    with pytest.raises(ValueError):
        partizan.outcome_table("chess", "4")


def test_an_answer_is_drawn_with_its_winning_moves():
    # Each winning first move marked: a domino is a bar and two dots.
    b = partizan.Board("domineering", "....|....|....|....|....")
    rep = b.outcome_report(picture="svg")
    winners = [rep["left_first_wins"], rep["right_first_wins"]].count(True)
    assert rep["picture"].count('class="mark"') == 3 * winners
    every = b.outcome_report(moves=True, picture="tikz")
    wins = sum(m["wins"] for side in ("left", "right") for m in every["first_moves"][side])
    assert "\\begin{tikzpicture}" in every["picture"]
    assert every["picture"].count("\\draw[") == wins
    assert "picture" not in b.outcome_report()
    with pytest.raises(ValueError, match="svg or tikz"):
        b.outcome_report(picture="gif")


def test_a_table_is_drawn_for_a_paper():
    # The picture the CLI's --format draws: a cell per board on its
    # class's colour, its sign inside; TikZ the same drawing.
    t = partizan.outcome_table("domineering", "2-3x2-4", picture="svg")
    svg = t["picture"]
    assert svg.startswith("<?xml") and svg.rstrip().endswith("</svg>")
    colour = {"L": "#81a1c1", "R": "#d08770", "N": "#ebcb8b", "P": "#d8dee9"}
    classes = [c["outcome"] for c in t["cells"]]
    for k, fill in colour.items():
        assert svg.count(f'fill="{fill}"') == classes.count(k), k
    assert "domineering on rectangles, normal play" in svg
    tikz = partizan.outcome_table("domineering", "2-3x2-4", picture="tikz")["picture"]
    assert "\\begin{tikzpicture}" in tikz
    assert "picture" not in partizan.outcome_table("domineering", "2x2")
    with pytest.raises(ValueError, match="svg or tikz"):
        partizan.outcome_table("domineering", "2x2", picture="png")
