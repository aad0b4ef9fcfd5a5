"""Games defined in Python.

Subclass :class:`Ruleset` and give the options of a position for each
player; positions can be any hashable Python objects (tuples, strings,
frozensets). partizan values them with memoisation in Rust, calling back
into your methods. If you also give ``components(position)``, returning the
independent parts a position falls into, partizan adds the parts' values
(the decomposition that makes grid games fast).

Toads and Frogs in a few lines (Toads ``T`` move right, Frogs ``F`` left,
one step into an empty square or a jump over one opponent)::

    import partizan

    class ToadsAndFrogs(partizan.Ruleset):
        def left_options(self, row):
            return [row[:i] + ".T" + row[i + 2:] for i in range(len(row) - 1)
                    if row[i:i + 2] == "T."] + \\
                   [row[:i] + ".FT" + row[i + 3:] for i in range(len(row) - 2)
                    if row[i:i + 3] == "TF."]

        def right_options(self, row):
            return [row[:i] + "F." + row[i + 2:] for i in range(len(row) - 1)
                    if row[i:i + 2] == ".F"] + \\
                   [row[:i] + "FT." + row[i + 3:] for i in range(len(row) - 2)
                    if row[i:i + 3] == ".TF"]

    ToadsAndFrogs().value("T.F")   # game('*')
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, Iterable, Optional

from ._partizan import Engine, Value

__all__ = ["Ruleset", "ruleset"]


class Ruleset:
    """Base class of a game defined in Python.

    Override :meth:`left_options` and :meth:`right_options`; optionally
    :meth:`components`. Values are remembered per ruleset object (see
    :meth:`stats` and :meth:`clear`).
    """

    def left_options(self, position: Hashable) -> Iterable[Hashable]:
        """The positions Left can move to from ``position``."""
        raise NotImplementedError("a Ruleset must define left_options(position)")

    def right_options(self, position: Hashable) -> Iterable[Hashable]:
        """The positions Right can move to from ``position``."""
        raise NotImplementedError("a Ruleset must define right_options(position)")

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

    def value(self, position: Hashable) -> Value:
        """The canonical value of ``position``."""
        return self._engine().value(position)

    def outcome(self, position: Hashable) -> str:
        """The outcome class of ``position``: ``"L"``, ``"R"``, ``"N"`` or ``"P"``."""
        return self.value(position).outcome

    def stats(self) -> dict:
        """What the engine did so far: ``nodes``, ``hits``, ``searched``,
        ``memo`` (positions remembered) and ``forms`` (canonical forms)."""
        return self._engine().stats()

    def clear(self) -> None:
        """Forget every remembered position."""
        self._engine().clear()


class _FunctionRuleset(Ruleset):
    def __init__(self, left_options, right_options, components=None):
        self._left = left_options
        self._right = right_options
        if components is not None:
            self.components = components  # type: ignore[method-assign]

    def left_options(self, position):
        return self._left(position)

    def right_options(self, position):
        return self._right(position)


def ruleset(
    left_options: Callable[[Any], Iterable[Hashable]],
    right_options: Callable[[Any], Iterable[Hashable]],
    components: Optional[Callable[[Any], Optional[Iterable[Hashable]]]] = None,
) -> Ruleset:
    """A :class:`Ruleset` from plain functions: ``ruleset(lo, ro).value(p)``."""
    return _FunctionRuleset(left_options, right_options, components)
