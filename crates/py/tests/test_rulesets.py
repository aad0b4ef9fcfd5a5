"""Games defined in Python: a Domineering written here against the built-in
one, Toads and Frogs against hand-derived values and a memo-free twin."""

import itertools
import random

import pytest

import partizan
from partizan import Board, construct, game


class PyDomineering(partizan.Ruleset):
    """Domineering on a frozenset of empty (row, col) cells; Left places
    vertical dominoes."""

    def left_options(self, cells):
        return [cells - {(r, c), (r + 1, c)} for (r, c) in cells if (r + 1, c) in cells]

    def right_options(self, cells):
        return [cells - {(r, c), (r, c + 1)} for (r, c) in cells if (r, c + 1) in cells]


class PyDomineeringSplit(PyDomineering):
    """The same, falling apart into 4-connected components."""

    def components(self, cells):
        left, parts = set(cells), []
        while left:
            stack, part = [left.pop()], set()
            while stack:
                r, c = stack.pop()
                part.add((r, c))
                for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if n in left:
                        left.remove(n)
                        stack.append(n)
            parts.append(frozenset(part))
        return parts


def cells_of(text):
    return frozenset(
        (r, c) for r, row in enumerate(text.split("|")) for c, ch in enumerate(row) if ch == "."
    )


def random_boards(n, seed=15):
    rng = random.Random(seed)
    for _ in range(n):
        w, h = rng.randint(1, 4), rng.randint(1, 4)
        yield "|".join(
            "".join("." if rng.random() < 0.8 else "#" for _ in range(w)) for _ in range(h)
        )


def test_python_domineering_equals_the_built_in():
    plain, split = PyDomineering(), PyDomineeringSplit()
    for text in list(random_boards(60)) + ["....|....|....|....", "...|...|...|..."]:
        want = partizan.value("domineering", text)
        assert plain.value(cells_of(text)) == want, text
        assert split.value(cells_of(text)) == want, text


def test_decomposition_saves_work():
    plain, split = PyDomineering(), PyDomineeringSplit()
    board = cells_of("..#..#..|..#..#..|..#..#..")
    assert plain.value(board) == split.value(board) == 3 * partizan.value("domineering", "..|..|..")
    assert split.stats()["searched"] < plain.stats()["searched"]


def test_memo_is_kept_and_cleared():
    r = PyDomineering()
    r.value(cells_of("...|..."))
    first = r.stats()
    r.value(cells_of("...|..."))
    assert r.stats()["hits"] > first["hits"] and r.stats()["searched"] == first["searched"]
    r.clear()
    assert r.stats()["memo"] == 0


class ToadsAndFrogs(partizan.Ruleset):
    """Toads (T, Left) move right, Frogs (F, Right) left: one step into an
    empty square or a jump over one opponent into the empty square beyond."""

    def left_options(self, row):
        return [row[:i] + ".T" + row[i + 2:] for i in range(len(row) - 1) if row[i:i + 2] == "T."] + [
            row[:i] + ".FT" + row[i + 3:] for i in range(len(row) - 2) if row[i:i + 3] == "TF."
        ]

    def right_options(self, row):
        return [row[:i] + "F." + row[i + 2:] for i in range(len(row) - 1) if row[i:i + 2] == ".F"] + [
            row[:i] + "FT." + row[i + 3:] for i in range(len(row) - 2) if row[i:i + 3] == ".TF"
        ]


def brute(rules, pos):
    """The value with no memo and no engine: construct over the options."""
    return construct(
        [brute(rules, p) for p in rules.left_options(pos)],
        [brute(rules, p) for p in rules.right_options(pos)],
    )


def test_toads_and_frogs_small_values():
    t = ToadsAndFrogs()
    # Derived by hand: "T." = {0|} = 1, "T.." = {1|} = 2; ".TF" = {|"FT."} =
    # {|1} = 0; "TF." = {".FT"|} = {-1|} = 0; "T.F" = {".TF"|"TF."} = {0|0} = *.
    assert t.value("T.") == 1
    assert t.value("T..") == 2
    assert t.value(".F") == -1
    assert t.value(".TF") == 0 and t.value("TF.") == 0
    assert t.value("T.F") == partizan.star
    assert t.value("TF") == 0


def test_toads_and_frogs_against_a_memo_free_twin():
    t = ToadsAndFrogs()
    for n in range(1, 7):
        for row in map("".join, itertools.product("TF.", repeat=n)):
            assert t.value(row) == brute(t, row), row


def test_function_ruleset_and_errors():
    # a Nim heap as a partizan game (both players may take any amount): *n
    nim = partizan.ruleset(lambda n: range(n), lambda n: range(n))
    assert [nim.value(n) for n in range(5)] == [partizan.nimber(k) for k in range(5)]

    loop = partizan.ruleset(lambda p: [p + 1], lambda p: [])
    with pytest.raises(RecursionError):
        loop.value(0)

    unhashable = partizan.ruleset(lambda p: [[1]], lambda p: [])
    with pytest.raises(TypeError):
        unhashable.value(0)

    class Broken(partizan.Ruleset):
        pass

    with pytest.raises(NotImplementedError):
        Broken().value(0)


def test_a_python_ruleset_value_is_an_ordinary_value():
    t = ToadsAndFrogs()
    g = t.value("T.F") + Board("domineering", "..").value()
    assert g == game("-1*")
    assert len({t.value("T.F"), partizan.star}) == 1


def test_a_ruleset_and_its_memo_are_collected():
    import gc
    import weakref

    r = PyDomineering()
    r.value(cells_of("..|.."))
    ref = weakref.ref(r)
    del r
    gc.collect()
    assert ref() is None
