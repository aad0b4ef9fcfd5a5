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
    with pytest.raises(ValueError, match="impartial"):
        partizan.misere_board("domineering", "..|..")
    with pytest.raises(ValueError):
        partizan.misere_board("cram", "..|.")
