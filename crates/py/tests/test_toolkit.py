"""The CGT toolkit through Python: atomic weight, reduced forms, thermographs,
cooling and heating, incentives, comparison, LaTeX; checked against
CGSuite's own test values and by algebraic laws on random values."""

import os
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import partizan
from partizan import NotAtomicError, construct, game, nimber

CGSUITE = Path("crates/core/tests/data/cgsuite_canonical_short_game.tsv")


def cgsuite_rows():
    # The checkout: PARTIZAN_REPO, else three folders up (the default is
    # only worked out when needed: a copy of the tests may sit shallower).
    repo = os.environ.get("PARTIZAN_REPO")
    root = Path(repo) if repo else Path(__file__).resolve().parents[3]
    path = root / CGSUITE
    if not path.exists():
        pytest.fail(f"{path} not found: set PARTIZAN_REPO to the partizan checkout")
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            yield line.split("\t")


def as_set(text):
    """CGSuite's '{a,b,...}' set of games (top-level commas only)."""
    inner, parts, depth, cur = text[1:-1], [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    if cur:
        parts.append(cur)
    return {game(p) for p in parts}


def test_every_cgsuite_case_through_python():
    # CGSuite's CanonicalShortGameTestCase (data copied into core's tests):
    # every reading of every form it lists, through the Python objects.
    checked, unparsed = 0, []
    for f in cgsuite_rows():
        assert len(f) == 17, f
        try:
            g = game(f[0])
        except (ValueError, OverflowError):
            unparsed.append(f[0])
            continue
        assert g == game(f[1]), f[0]
        if f[2].startswith("!!"):
            with pytest.raises(NotAtomicError):
                g.atomic_weight()
            assert not g.is_atomic()
        else:
            assert g.atomic_weight() == game(f[2]), f[0]
            assert g.is_atomic()
        assert g.birthday == int(f[3]), f[0]
        assert g.freeze() == game(f[4]), f[0]
        assert set(g.left_incentives()) == as_set(f[5]), f[0]
        assert set(g.right_incentives()) == as_set(f[6]), f[0]
        assert g.reduced() == game(f[7]), f[0]
        if not f[8].startswith("!!"):
            assert g.thermograph()["cgsuite"] == f[8], f[0]
        assert g.temperature == Fraction(f[9]), f[0]
        assert g.mean == Fraction(f[10]), f[0]
        assert (g.left_stop, g.right_stop) == (Fraction(f[11]), Fraction(f[12])), f[0]
        assert g.is_all_small == (f[13] == "true"), f[0]
        assert g.is_infinitesimal == (f[14] == "true"), f[0]
        assert g.outcome == f[16], f[0]
        checked += 1
    # only CGSuite's 41-bit integer is outside the engine's range
    assert unparsed == ["-1823437481924"]
    assert checked == 24


def test_atomic_weights():
    assert game("^").atomic_weight() == 1
    assert game("v").atomic_weight() == -1
    assert game("^^*").atomic_weight() == 2
    for n in range(6):
        assert nimber(n).atomic_weight() == 0
    # {^^^|vv} has atomic weight {1|0} (CGSuite)
    assert game("{^^^|vv}").atomic_weight() == game("{1|0}")
    with pytest.raises(NotAtomicError, match="infinitesimal"):
        game("{2|-1/2}").atomic_weight()
    # infinitesimal, but not atomic (CGSuite: "That game is not atomic")
    g = game("{1|^^^||^}")
    assert g.is_infinitesimal and not g.is_atomic()
    with pytest.raises(ValueError, match="not atomic"):
        g.atomic_weight()


def test_reduced_form_and_infinitesimal_part():
    assert game("{1|1*}").reduced() == 1
    assert game("^*").reduced() == 0
    assert game("{1|1*}").infinitesimal_part() == game("^")
    # CGSuite: {3||2*|1*} reduces to {3||2|1} and freezes to 9/4*
    g = game("{3||2*|1*}")
    assert g.reduced() == game("{3||2|1}") and g.freeze() == game("9/4*")


def test_thermograph_of_two_minus_a_half():
    # {2|-1/2}: Left's wall 2 - t from (-1, 3) up to the mast at t = 5/4,
    # x = 3/4; Right's wall is -1 (the wall of -1/2 = {-1|0} shifted) up
    # to t = -1/2, then -1/2 + t.
    t = game("{2|-1/2}").thermograph()
    F = Fraction
    assert t["left"] == [(-1, 3), (F(5, 4), F(3, 4))]
    assert t["right"] == [(-1, -1), (F(-1, 2), -1), (F(5, 4), F(3, 4))]
    assert t["mast"] == F(3, 4) and t["temperature"] == F(5, 4)
    assert all(isinstance(x, Fraction) for w in ("left", "right") for p in t[w] for x in p)


def test_cooling_heating_freezing():
    g = game("{2|-1/2}")
    assert g.cool(1) == game("{1|1/2}")
    assert g.cool(Fraction(5, 4)) == g.freeze() == game("3/4*")
    assert g.cool(5) == Fraction(3, 4)
    assert g.heat(1) == game("{3|-3/2}")
    assert game("{1|-1}").cool(1) == game("*")
    assert game(2).overheat(1, 1) == 2  # an integer n becomes n . s
    with pytest.raises(ValueError):
        g.cool(-1)
    # A string is a number in notation ("1/2"); one that is not is a ValueError.
    assert g.cool("1") == g.cool(1)
    with pytest.raises(ValueError):
        g.cool("hot")
    with pytest.raises(TypeError):
        g.cool([1])


def test_incentives_compare_options_latex():
    up = game("^")
    assert up.left_incentives() == [game("v")]
    assert up.right_incentives() == [game("^*")]
    assert game("{2|-1/2}").incentives() == [game("{5/2|0}")]
    assert up.compare(partizan.star) == "||"
    assert game(1).compare(0) == ">" and game(0).compare(1) == "<"
    assert game("1/2").compare(Fraction(1, 2)) == "="
    assert game("{2|0||-1}").options("left") == [game("{2|0}")]
    assert game("{2|0||-1}").options("R") == [game(-1)]
    with pytest.raises(ValueError):
        up.options("both")
    assert game("{2|0||-1}").latex() == r"\{2 \mid 0 \,\|\, -1\}"
    assert game("^*")._repr_latex_() == "$" + game("^*").latex() + "$"
    assert game("*2").latex() == r"\ast 2"


BASE = ["0", "1", "-1", "2", "1/2", "-3/4", "*", "*2", "^", "v", "{1|-1}", "{2|0}", "{3|-1/2}"]
leaves = st.sampled_from(BASE).map(game)
values = st.recursive(
    leaves,
    lambda kids: st.tuples(st.lists(kids, max_size=2), st.lists(kids, max_size=2)).map(
        lambda lr: construct(*lr)
    ),
    max_leaves=6,
)
temps = st.sampled_from([Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(1), Fraction(2)])
LAWS = settings(max_examples=120, deadline=None)


@LAWS
@given(values, values, temps)
def test_cooling_is_additive(a, b, t):
    assert (a + b).cool(t) == a.cool(t) + b.cool(t)


@LAWS
@given(values, temps)
def test_cooling_keeps_the_mean_and_lowers_the_temperature(a, t):
    c = a.cool(t)
    assert c.mean == a.mean
    if a.temperature > t:
        assert c.temperature == a.temperature - t
    assert a.cool(0) == a


@LAWS
@given(values)
def test_reduced_form_laws(a):
    r = a.reduced()
    assert r.reduced() == r
    assert (a - r).is_infinitesimal
    assert a.infinitesimal_part() == a - r
    assert (a + game("^*")).reduced() == r


@LAWS
@given(values)
def test_freeze_is_the_mean_plus_an_infinitesimal(a):
    assert (a.freeze() - a.mean).is_infinitesimal


@LAWS
@given(values, values)
def test_compare_agrees_with_the_order(a, b):
    c = a.compare(b)
    assert c == {(True, True): "=", (True, False): "<", (False, True): ">", (False, False): "||"}[
        (a <= b, b <= a)
    ]
    assert (c == "||") == a.confused(b)


@LAWS
@given(values)
def test_atomic_weight_of_infinitesimal_sums(a):
    # Atomic weight is additive on atomic infinitesimals: AW(^ + *n + g) = 1 + AW(g).
    inf = a.infinitesimal_part()
    if inf.is_atomic() and (inf + game("^*")).is_atomic():
        assert (inf + game("^*")).atomic_weight() == inf.atomic_weight() + 1


def test_clearing_the_arena_keeps_values_alive():
    vals = [game(t) for t in ["{2|0||-1}", "^*", "3/2", "{1|^^||^}"]] + [partizan.up]
    texts, hashes = [str(v) for v in vals], [hash(v) for v in vals]
    total = sum(vals, partizan.zero)
    assert partizan.arena_stats()["forms"] > 5
    gen = partizan.arena_stats()["generation"]
    freed = partizan.clear_cache()
    assert freed > 5
    s = partizan.arena_stats()
    assert s["generation"] == gen + 1 and s["forms"] < freed
    # every value still answers, and answers the same
    assert [str(v) for v in vals] == texts and [hash(v) for v in vals] == hashes
    assert sum(vals, partizan.zero) == total == game(str(total))
    assert vals[0] == game("{2|0||-1}") and vals[0] > -2 and vals[0].confused(-1) and partizan.up.confused(partizan.star)
    assert partizan.value("domineering", "..") == -1
