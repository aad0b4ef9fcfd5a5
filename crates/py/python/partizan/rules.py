"""Games defined in Python.

Subclass :class:`Ruleset` and give the options of a position for each
player; positions can be any hashable Python objects (tuples, strings,
frozensets). partizan values them with memoisation in Rust, calling back
into your methods. If you also give ``components(position)``, returning the
independent parts a position falls into, partizan adds the parts' values
(the decomposition that makes grid games fast).

Toads and Frogs in twenty lines (Toads ``T``, Left, move right and Frogs
``F``, Right, move left: one step into an empty square ``.`` or a jump over
one opponent into the empty square beyond; ``#`` is a wall, so a row falls
apart at its walls). This example is run by the tests against the built-in
ruleset, ``partizan.value("toads", row)``::

    import partizan

    def moves(row, step, jump):
        # the rows after every slide `step` or jump `jump` (reversed in place)
        out = []
        for i in range(len(row)):
            for old in (step, jump):
                if row.startswith(old, i):
                    out.append(row[:i] + old[::-1] + row[i + len(old):])
        return out

    class ToadsAndFrogs(partizan.Ruleset):
        name, version = "toads-and-frogs-py", "1"  # for the store

        def left_options(self, row):
            return moves(row, "T.", "TF.")

        def right_options(self, row):
            return moves(row, ".F", ".TF")

        def components(self, row):
            return [part for part in row.split("#") if part]

    ToadsAndFrogs().value("T.F")   # game('*')

Values can be kept in the persistent store the command line uses: give the
ruleset a ``name`` and a ``version`` (change the version whenever the rules
change, so old values are never read for new rules) and pass a store::

    class ToadsAndFrogs(partizan.Ruleset):
        name = "toads-and-frogs"
        version = "1"
        ...

    ToadsAndFrogs().value("TT..FF", store=partizan.Store())

A position is stored under its own stable encoding, :meth:`Ruleset.key`;
the default handles strings, numbers, bytes, ``None`` and tuples, lists
and frozensets of them. Override ``key`` for other positions.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Hashable, Iterable, Optional

from ._partizan import Engine, Store, Value

__all__ = ["Ruleset", "ruleset", "stable_key"]


def stable_key(position: Any) -> bytes:
    """A stable encoding of plain positions, the same in every process:
    ``str``, ``bytes``, ``int``, ``bool``, ``None``, ``Fraction``, and
    tuples, lists and (frozen)sets of them (sets in sorted order, so hash
    randomisation does not change the key). ``TypeError`` for anything
    else: define :meth:`Ruleset.key` for such positions."""
    return _key(position).encode("utf-8")


def _key(p: Any) -> str:
    # Each kind has its own tag, so different positions never share a key.
    if p is None or isinstance(p, bool):
        return repr(p)
    if isinstance(p, (int, str, bytes)):
        return repr(p)
    if isinstance(p, Fraction):
        return "F(%d,%d)" % (p.numerator, p.denominator)
    if isinstance(p, tuple):
        return "(" + ",".join(_key(x) for x in p) + ",)"
    if isinstance(p, list):
        return "[" + ",".join(_key(x) for x in p) + "]"
    if isinstance(p, (set, frozenset)):
        return "{" + ",".join(sorted(_key(x) for x in p)) + "}"
    raise TypeError(
        "no stable key for a position of type %s: define key(position) -> bytes "
        "on the ruleset to store its values" % type(p).__name__
    )


class Ruleset:
    """Base class of a game defined in Python.

    Override :meth:`left_options` and :meth:`right_options`; optionally
    :meth:`components`. Values are remembered per ruleset object (see
    :meth:`stats` and :meth:`clear`). To keep values in the persistent
    store, set :attr:`name` and :attr:`version` and pass ``store=`` to
    :meth:`value`.
    """

    name: Optional[str] = None
    """The ruleset's name in the store (a-z, 0-9, ``-``, ``_``, ``.``)."""

    version: Optional[str] = None
    """The rules' version: stored values are only read back under the
    same name and version, so change it whenever the rules change."""

    def left_options(self, position: Hashable) -> Iterable[Hashable]:
        """The positions Left can move to from ``position``."""
        raise NotImplementedError("a Ruleset must define left_options(position)")

    def right_options(self, position: Hashable) -> Iterable[Hashable]:
        """The positions Right can move to from ``position``."""
        raise NotImplementedError("a Ruleset must define right_options(position)")

    def key(self, position: Hashable) -> bytes:
        """The position's stable encoding, the same in every process (the
        store's key). The default, :func:`stable_key`, handles plain data;
        override it for other positions."""
        return stable_key(position)

    def components(self, position: Hashable) -> Optional[Iterable[Hashable]]:
        """The independent parts of ``position`` (their sum is the position),
        or ``None`` to value it whole. Only called when a subclass overrides
        it."""
        return None

    def _engine(self) -> Engine:
        engine = self.__dict__.get("_partizan_engine")
        if engine is None:
            decomposes = type(self).components is not Ruleset.components or (
                "components" in self.__dict__
            )
            engine = Engine(self, decomposes)
            self.__dict__["_partizan_engine"] = engine
        return engine

    def value(self, position: Hashable, store: Optional[Store] = None) -> Value:
        """The canonical value of ``position``. With ``store`` (a
        :class:`partizan.Store`), the values of ``position`` and of every
        component are read from the store when there and added when not."""
        return self._engine().value(position, store)

    def outcome(self, position: Hashable, store: Optional[Store] = None) -> str:
        """The outcome class of ``position``: ``"L"``, ``"R"``, ``"N"`` or ``"P"``."""
        return self.value(position, store).outcome

    def stats(self) -> dict:
        """What the engine did so far: ``nodes``, ``hits``, ``searched``,
        ``memo`` (positions remembered), ``forms`` (canonical forms) and
        ``store_hits``, ``store_added``, ``store_rejected`` (stored entries
        that failed a check and were recomputed)."""
        return self._engine().stats()

    def clear(self) -> None:
        """Forget every remembered position."""
        self._engine().clear()


class _FunctionRuleset(Ruleset):
    def __init__(self, left_options, right_options, components=None, name=None,
                 version=None, key=None):
        self._left = left_options
        self._right = right_options
        if components is not None:
            self.components = components  # type: ignore[method-assign]
        if key is not None:
            self.key = key  # type: ignore[method-assign]
        self.name = name
        self.version = version

    def left_options(self, position):
        return self._left(position)

    def right_options(self, position):
        return self._right(position)


def ruleset(
    left_options: Callable[[Any], Iterable[Hashable]],
    right_options: Callable[[Any], Iterable[Hashable]],
    components: Optional[Callable[[Any], Optional[Iterable[Hashable]]]] = None,
    *,
    name: Optional[str] = None,
    version: Optional[str] = None,
    key: Optional[Callable[[Any], bytes]] = None,
) -> Ruleset:
    """A :class:`Ruleset` from plain functions: ``ruleset(lo, ro).value(p)``;
    ``name``, ``version`` and ``key`` as on :class:`Ruleset` for the store."""
    return _FunctionRuleset(left_options, right_options, components, name, version, key)
