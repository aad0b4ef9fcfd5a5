"""Showing values: the thermograph as a dict that notebooks draw, and a
total order key for listing values.

Values of games are only *partially* ordered: ``G <= H`` is the CGT order,
and two values may be confused (``G.confused(H)``: neither ``G <= H`` nor
``H <= G``, as ``*`` and ``0``). So ``sorted(values)`` is not meaningful
(Python's sort assumes a total order and gives an arbitrary arrangement of
confused values). To list values in a stable, readable order use
``sorted(values, key=partizan.order_key)``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping, Tuple

__all__ = ["Thermograph", "order_key"]


class Thermograph(dict):
    """A thermograph: a dict with the ``left`` and ``right`` walls (lists of
    ``(temperature, value)`` breakpoints as Fractions), the ``mast`` and
    ``temperature``, and ``cgsuite``, the thermograph as CGSuite prints it.
    Notebooks draw it (``_repr_svg_``); :meth:`svg` is the same picture as
    text, as ``partizan analyse --thermograph --format svg`` draws it."""

    __slots__ = ("_svg",)

    def __init__(self, data: Mapping[str, Any], svg: str) -> None:
        super().__init__(data)
        self._svg = svg

    def svg(self) -> str:
        """The thermograph drawn as an SVG document."""
        return self._svg

    def _repr_svg_(self) -> str:
        return self._svg

    def __reduce__(self):
        return (Thermograph, (dict(self), self._svg))


def order_key(value: Any) -> Tuple[Fraction, Fraction, Fraction, int, str]:
    """A total order key for *displaying* values (``sorted(vs,
    key=order_key)``): mean, then Left stop, then Right stop, then birthday,
    then the notation. Each of mean and stops only grows along the CGT
    order, so sorting by this key never puts ``H`` before ``G`` when
    ``G < H`` and their means or stops differ; values equal in all three
    (``0``, ``^``, ``*``, ...) are listed by birthday and notation, which
    says nothing about their order. A value may be given as a string or a
    number too."""
    from ._partizan import game

    v = game(value)
    return (v.mean, v.left_stop, v.right_stop, v.birthday, str(v))
