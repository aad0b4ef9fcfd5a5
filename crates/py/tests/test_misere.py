"""Misère play through Python: the quotients and forms the CLI prints."""

import pytest

import partizan


def test_misere_quotient_of_0_75():
    # Order 8 with two P-elements, proved periodic from heap 8 (period 2).
    q = partizan.misere_quotient("0.75")
    assert (q["order"], q["p_portion_size"]) == (8, 2)
    assert q["stability"]["kind"] == "periodic"
    assert (q["stability"]["from"], q["stability"]["period"]) == (8, 2)
    assert len(q["elements"]) == 8 and len(q["p_portion"]) == 2


def test_kayles_sum_outcome_matches_its_elements():
    q = partizan.misere_quotient("kayles", heaps=[3, 5, 70])
    assert (q["order"], q["p_portion_size"]) == (40, 9)
    s = q["sum"]
    assert s["heaps"] == [3, 5, 70]
    assert s["outcome"] == ("P" if s["element"] in q["p_portion"] else "N")


def test_budget_is_reported_and_bad_input_raises():
    q = partizan.misere_quotient("kayles", max_work=2000)
    assert q["stability"]["kind"] == "out-of-budget"
    with pytest.raises(ValueError, match="not a digit"):
        partizan.misere_quotient("0.0x7")
    with pytest.raises(ValueError, match="past the quotient"):
        partizan.misere_quotient("kayles", max_work=2000, heaps=[60])


def test_misere_graph():
    # Node Kayles on a path of 6 is Dawson's Chess heap 6: genus 1^031, P.
    g = partizan.misere_graph("node-kayles", "path:6")
    assert (g["outcome"], g["genus"], g["misere_nim_value"]) == ("P", "1^031", 0)
    with pytest.raises(ValueError):
        partizan.misere_graph("chess", "path:3")


def test_misere_board():
    # A Cram strip 1 x 12 is Dawson's Kayles heap 12: genus 2^0520, P
    # (CGSuite's GameHeapTest pins 0.07's genera).
    b = partizan.misere_board("cram", "." * 12)
    assert (b["outcome"], b["genus"], b["misere_nim_value"]) == ("P", "2^0520", 0)
    assert b["universe"].startswith("impartial games")
    # Agrees with the misère outcome search, boards of one and two regions.
    for board in ["....|....", "....#..|....###", "...|...|...", ".....#.|.....#."]:
        searched = partizan.Board("cram", board).outcome(misere=True)
        assert partizan.misere_board("cram", board)["outcome"] == searched, board
    with pytest.raises(ValueError):
        partizan.misere_board("domineering", "..|x")
    with pytest.raises(ValueError):
        partizan.misere_board("cram", "..|.")


def test_partizan_misere_boards_agree_with_search():
    # A partizan board's misère forms: the general universe always, the
    # dicots for Clobber; the forms' outcome is the misère search's.
    for ruleset, board in [
        ("domineering", "...|..."),
        ("domineering", "....|....|...."),
        ("clobber", "xoxo|oxox"),
        ("clobber", "xox|oxo"),
        ("konane", "xox.|o.ox|x.xo"),
    ]:
        b = partizan.misere_board(ruleset, board)
        universes = [f["universe"] for f in b["forms"]]
        assert universes[0] == "general"
        assert ("dicot" in universes) == (ruleset == "clobber"), (ruleset, universes)
        searched = partizan.Board(ruleset, board).outcome(misere=True)
        for f in b["forms"]:
            assert f["outcome"] == searched, (ruleset, board, f)
    # Clobber's 2 x 4 checkerboard is * among dicots.
    forms = partizan.misere_board("clobber", "xoxo|oxox")["forms"]
    assert forms[1]["form"] == "*"


def test_misere_game():
    # * + * is 0 among dicots (Allen; Dorbec, Renault, Siegel, Sopena) and
    # not in the general universe; its genus is 0^120 (ONAG ch. 12).
    g = partizan.misere_game("*", "*")
    assert [(f["universe"], f["form"]) for f in g["forms"]] == [
        ("general", "{*|*}"),
        ("dicot", "0"),
    ]
    assert g["impartial"]["genus"] == "0^120"
    # A tree taken as written: {1|*} is not 1/2 or any normal-play value.
    h = partizan.misere_game("{1|*}")
    assert h["forms"][0]["form"] == "{1|*}" and h["impartial"] is None
    assert h["forms"][0]["outcome"] == "R"
    with pytest.raises(ValueError):
        partizan.misere_game("{1|")


def test_loopy():
    # CGSuite's CanonicalStopperTestCase: {pass|} is on, {0|pass} over (an
    # idempotent); dud is a draw either way and not a stopper.
    assert partizan.loopy("{pass|}")["form"] == "on"
    assert partizan.loopy("{0|pass}", "{0|pass}")["form"] == "over"
    d = partizan.loopy("dud")
    assert (d["outcome"], d["stopper"], d["form"]) == ("D", False, None)
    assert partizan.loopy("over", compare="1/64")["compared"] == ["1/64", "<"]
    assert partizan.loopy("{1|1}")["form"] == "1*"
    with pytest.raises(ValueError):
        partizan.loopy("{pass|")
    with pytest.raises(ValueError):
        partizan.loopy("dud", compare="0")


def test_loopy_rulesets():
    loopy = [r["name"] for r in partizan.rulesets() if r["loopy"]]
    assert loopy == ["fox-and-geese", "backsliding-toads"]
    # A small Fox and Geese board: the geese trap the fox, the value a
    # stopper found part by part, equal to the loopy engine's own reading.
    r = partizan.loopy_board("fox-and-geese", ".F..|....|....|G.G.")
    assert (r["outcome"], r["stopper"], r["form"]) == ("L", True, "over")
    assert r["stops"] == ["0", "0"]
    assert partizan.loopy_board("fox-and-geese", ".F..|....|....|G.G.", only_outcome=True)[
        "form"
    ] is None
    t = partizan.loopy_board("backsliding-toads", "T..F")
    assert t["stopper"] is False and t["sides"] == ["*", "*"]
    with pytest.raises(ValueError):
        partizan.loopy_board("fox-and-geese", "F|G|F")
    with pytest.raises(ValueError):
        partizan.loopy_board("chess", "....")
