"""A researcher's notebook: pictures of values and thermographs, short
census reprs and summaries, to_pandas() with numbers as numbers, strings
wherever a value is taken, an order key for display, and an abi3 wheel."""

import math
import pickle
import xml.dom.minidom
from fractions import Fraction
from importlib import metadata

import pytest

import partizan
from partizan import game, up


def parses_as_svg(text):
    doc = xml.dom.minidom.parseString(text)
    return doc.documentElement.tagName == "svg"


def test_a_thermograph_is_a_dict_that_draws_itself():
    t = game("{3||2*|1*}").thermograph()
    assert isinstance(t, dict)
    assert t["mast"] == Fraction(9, 4) and t["temperature"] == Fraction(3, 4)
    svg = t._repr_svg_()
    assert parses_as_svg(svg)
    assert svg == t.svg()
    assert "{3||2*|1*}" in svg  # titled with the value
    # It stays a plain dict for everything else, pickles and compares.
    assert dict(t) == {k: t[k] for k in t}
    back = pickle.loads(pickle.dumps(t))
    assert back == t and back._repr_svg_() == svg


def test_a_value_shows_its_facts_and_a_small_thermograph():
    h = game("{3||2*|1*}")._repr_html_()
    assert "{3||2*|1*}" in h
    for fact in ["L: Left wins", "3 / 2", "9/4", "3/4"]:
        assert fact in h, fact
    start = h.index("<svg")
    assert parses_as_svg(h[start : h.index("</svg>") + 6])
    # Markup in a value's text is escaped (notation has '<' in '<2>').
    assert "^<2>" not in game("^<2>")._repr_html_()
    assert "^&lt;2&gt;" in game("^<2>")._repr_html_()


def test_a_census_has_a_short_repr_and_a_summary():
    c = partizan.domineering_census(6)
    r = repr(c)
    assert len(r) < 200 and r.startswith("DomineeringCensus(max_cells=6,"), r
    assert f"{len(c.records)} regions" in r
    h = c._repr_html_()
    assert len(h) < 20_000 and "<table>" in h and "shapes" in h
    cram = partizan.cram_census(6)
    assert len(repr(cram)) < 200 and "<table>" in cram._repr_html_()
    s = partizan.sylver_census(10)
    assert len(repr(s)) < 200 and "<table>" in s._repr_html_()


def test_to_pandas_has_numbers_as_numbers_and_values_as_values():
    pd = pytest.importorskip("pandas")
    c = partizan.domineering_census(6)
    df = c.to_pandas()
    assert len(df) == len(c.records)
    for col in ["number", "left_stop", "right_stop", "mean", "temperature"]:
        assert pd.api.types.is_float_dtype(df[col]), col
        assert col + "_exact" in df.columns
    for col in ["cells", "count", "low", "high", "opt_v", "pess_h"]:
        assert pd.api.types.is_integer_dtype(df[col]), col
    assert all(isinstance(v, partizan.Value) for v in df["value"])
    for rec, (_, row) in zip(c.records[:50], df.head(50).iterrows()):
        assert row["value"] == rec.game()
        assert row["left_stop"] == float(rec.left_stop)
        assert row["left_stop_exact"] == str(rec.left_stop)
        assert row["mean"] == float(rec.game().mean)
        if rec.number is None:
            assert math.isnan(row["number"]) and pd.isna(row["number_exact"])
        else:
            assert row["number"] == float(rec.number)
    # Numeric columns do arithmetic: the mean lies between the stops.
    assert ((df["right_stop"] <= df["mean"]) & (df["mean"] <= df["left_stop"])).all()
    cram = partizan.cram_census(6).to_pandas()
    assert pd.api.types.is_integer_dtype(cram["nim"])
    assert all(v == partizan.nimber(n) for v, n in zip(cram["value"], cram["nim"]))


def test_strings_are_taken_wherever_a_value_is():
    assert up + "1/2" == game("1/2") + up
    assert "1/2" + up == up + Fraction(1, 2)
    assert up - "^" == 0
    assert "{1|0}" - game("{1|0}") == 0
    assert game("{2|-1/2}").cool("1/2") == game("{3/2|0}")
    assert game("{2|-1/2}").cool("1/2") == game("{2|-1/2}").cool(Fraction(1, 2))
    assert game("1").heat("*") == 1
    assert up.compare("*") == "||" and up.confused("*")
    assert up.ordinal_sum("1") == game("^").ordinal_sum(1)
    assert partizan.construct(["0"], ["*"]) == up
    assert up == "^" and up != "v" and up > "0" and up <= "^*+*"
    # A string that is not notation is not equal, and ordering by it fails.
    assert (up == "not a value") is False
    with pytest.raises(TypeError):
        up < "{1|"  # noqa: B015
    with pytest.raises(ValueError, match="notation"):
        up + "{1|"
    with pytest.raises(ValueError, match="dyadic"):
        game("{2|-1/2}").cool("a third")


def test_values_are_partially_ordered_and_order_key_sorts_for_display():
    doc = partizan.__doc__
    assert "partially ordered" in doc.replace("*partially* ordered", "partially ordered")
    assert "order_key" in doc
    assert partizan.star.confused(partizan.zero)
    mixed = ["1", "*", "-1/2", "^", "{1|-1}", "0", "v", "1/2"]
    keyed = [str(v) for v in sorted(mixed, key=partizan.order_key)]
    assert keyed == ["-1/2", "0", "*", "^", "v", "{1|-1}", "1/2", "1"], keyed
    # Sorting by the key never puts a larger value before a smaller one
    # whose mean or stops differ.
    vs = [game(x) for x in mixed]
    ordered = sorted(vs, key=partizan.order_key)
    for i, g in enumerate(ordered):
        for h in ordered[i + 1 :]:
            if (g.mean, g.left_stop, g.right_stop) != (h.mean, h.left_stop, h.right_stop):
                assert not h < g, (str(g), str(h))


def test_the_installed_wheel_is_abi3():
    wheel = metadata.distribution("partizan").read_text("WHEEL") or ""
    tags = [line.split(":", 1)[1].strip() for line in wheel.splitlines() if line.startswith("Tag:")]
    assert tags and all("-abi3-" in t for t in tags), tags
