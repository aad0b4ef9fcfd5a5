"""Censuses and Sylver Coinage as dataclasses, with ``to_pandas()``.

pandas is not a dependency: ``to_pandas()`` imports it when called and says
so if it is missing.
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import _partizan
from ._partizan import Value, game

__all__ = [
    "CramCensus",
    "CramShape",
    "DomineeringCensus",
    "DomineeringShape",
    "SylverCensus",
    "SylverPlay",
    "cram_census",
    "domineering_census",
    "semigroup_counts",
    "sylver_census",
    "sylver_play",
]


def _pandas():
    try:
        import pandas  # type: ignore[import-not-found]
    except ImportError as e:  # pragma: no cover - depends on the machine
        raise ImportError("to_pandas() needs pandas: pip install pandas") from e
    return pandas


def _frac(text: Optional[str]) -> Optional[Fraction]:
    return None if text is None else Fraction(text)


def _exact_and_float(text: Optional[str]) -> Tuple[Optional[str], float]:
    """A number as its exact text and as a float (NaN when absent)."""
    if text is None:
        return None, math.nan
    return text, float(Fraction(text))


def _html_table(head: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    cells = "".join(f"<th>{html.escape(str(h))}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>" for r in rows
    )
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"


def _totals_html(title: str, totals: Dict[str, Any]) -> str:
    rows = [(k.replace("_", " "), v) for k, v in totals.items() if not isinstance(v, (dict, list))]
    return f"<p><b>{html.escape(title)}</b></p>" + _html_table(["total", ""], rows)


@dataclass(frozen=True)
class DomineeringShape:
    """One region of the Domineering census: its board, value and packing
    reading (``count = optV - optH``, interval ``[low, high]``)."""

    shape: str
    cells: int
    value: str
    number: Optional[Fraction]
    left_stop: Fraction
    right_stop: Fraction
    temperature: Optional[Fraction]
    count: int
    low: int
    high: int
    exact: bool
    contained: bool
    strip: bool
    packings: Dict[str, int] = field(default_factory=dict)

    def game(self) -> Value:
        """The region's value as a :class:`partizan.Value`."""
        return game(self.value)

    def board(self) -> "_partizan.Board":
        """The region as a Domineering :class:`partizan.Board`."""
        return _partizan.Board("domineering", self.shape)


@dataclass(frozen=True, repr=False)
class DomineeringCensus:
    """Every Domineering region up to ``max_cells`` cells (one per symmetry
    class), with the report's tables as a dict (``report["totals"]``:
    ``shapes``, ``numbers``, ``exact``, ``contained``, ``points``, ...).
    Its ``repr`` is one line; notebooks show a summary (``_repr_html_``)."""

    max_cells: int
    records: List[DomineeringShape]
    report: Dict[str, Any]

    def __repr__(self) -> str:
        t = self.report.get("totals", {})
        return (
            f"DomineeringCensus(max_cells={self.max_cells}, {len(self.records):,} regions: "
            f"{t.get('numbers', 0):,} numbers, {t.get('exact', 0):,} counted exactly, "
            f"{t.get('contained', 0):,} in their interval)"
        )

    def _repr_html_(self) -> str:
        head = ["shape", "cells", "value", "count", "interval", "exact"]
        rows = [
            (r.shape, r.cells, r.value, r.count, f"[{r.low}, {r.high}]", r.exact)
            for r in self.records[-10:]
        ]
        return (
            _totals_html(repr(self), self.report.get("totals", {}))
            + f"<p>The last {len(rows)} of {len(self.records):,} regions "
            "(<code>.records</code>, <code>.to_pandas()</code>):</p>"
            + _html_table(head, rows)
        )

    def to_dicts(self) -> List[Dict[str, Any]]:
        """One plain dict per shape."""
        return [asdict(r) for r in self.records]

    def to_pandas(self):
        """One row per shape as a pandas DataFrame (needs pandas). ``value``
        is a column of :class:`partizan.Value` objects; ``number``,
        ``left_stop``, ``right_stop``, ``mean`` and ``temperature`` are
        floats (NaN where there is none) with the exact text beside each
        (``left_stop_exact``, ...); the packings are columns of ints."""
        pd = _pandas()
        rows = []
        for r in self.records:
            v = game(r.value)
            row: Dict[str, Any] = {"shape": r.shape, "cells": r.cells, "value": v}
            numbers = {
                "number": None if r.number is None else str(r.number),
                "left_stop": str(r.left_stop),
                "right_stop": str(r.right_stop),
                "mean": str(v.mean),
                "temperature": None if r.temperature is None else str(r.temperature),
            }
            for k, text in numbers.items():
                exact, x = _exact_and_float(text)
                row[k] = x
                row[k + "_exact"] = exact
            row.update(
                count=r.count,
                low=r.low,
                high=r.high,
                exact=r.exact,
                contained=r.contained,
                strip=r.strip,
            )
            row.update(r.packings)
            rows.append(row)
        return pd.DataFrame(rows)


def domineering_census(max_cells: int = 8) -> DomineeringCensus:
    """The Domineering region census to ``max_cells`` cells (1 to 16): the
    essays' 1,042 regions at 8 cells. Ctrl-C stops it."""
    data = json.loads(_partizan.domineering_census(max_cells))
    records = [
        DomineeringShape(
            shape=r["shape"],
            cells=r["cells"],
            value=r["value"],
            number=_frac(r["number"]),
            left_stop=Fraction(r["left_stop"]),
            right_stop=Fraction(r["right_stop"]),
            temperature=_frac(r["temperature"]),
            count=r["count"],
            low=r["low"],
            high=r["high"],
            exact=r["exact"],
            contained=r["contained"],
            strip=r["strip"],
            packings=r["packings"],
        )
        for r in data["records"]
    ]
    return DomineeringCensus(max_cells=max_cells, records=records, report=data["report"])


@dataclass(frozen=True)
class CramShape:
    """One region of the Cram census with its nim-value."""

    shape: str
    cells: int
    nim: int

    def board(self) -> "_partizan.Board":
        """The region as a Cram :class:`partizan.Board`."""
        return _partizan.Board("cram", self.shape)


@dataclass(frozen=True, repr=False)
class CramCensus:
    """Every Cram region up to ``max_cells`` cells with its nim-value. Its
    ``repr`` is one line; notebooks show a summary (``_repr_html_``)."""

    max_cells: int
    records: List[CramShape]
    report: Dict[str, Any]

    def __repr__(self) -> str:
        nonzero = sum(1 for r in self.records if r.nim)
        return (
            f"CramCensus(max_cells={self.max_cells}, {len(self.records):,} regions: "
            f"{nonzero:,} first-player wins, {len(self.records) - nonzero:,} second-player wins)"
        )

    def _repr_html_(self) -> str:
        rows = [(r.shape, r.cells, f"*{r.nim}" if r.nim else "0") for r in self.records[-10:]]
        return (
            f"<p><b>{html.escape(repr(self))}</b></p>"
            + f"<p>The last {len(rows)} of {len(self.records):,} regions "
            "(<code>.records</code>, <code>.to_pandas()</code>):</p>"
            + _html_table(["shape", "cells", "value"], rows)
        )

    def to_dicts(self) -> List[Dict[str, Any]]:
        """One plain dict per shape."""
        return [asdict(r) for r in self.records]

    def to_pandas(self):
        """One row per shape as a pandas DataFrame (needs pandas): ``nim``
        as an int and ``value`` as a column of :class:`partizan.Value`
        objects (the nimbers)."""
        pd = _pandas()
        stars = {}
        rows = []
        for r in self.records:
            if r.nim not in stars:
                stars[r.nim] = _partizan.nimber(r.nim)
            rows.append({"shape": r.shape, "cells": r.cells, "nim": r.nim, "value": stars[r.nim]})
        return pd.DataFrame(rows)


def cram_census(max_cells: int = 8) -> CramCensus:
    """The Cram census: nim-values of every region to ``max_cells`` cells."""
    data = json.loads(_partizan.cram_census(max_cells))
    records = [CramShape(**r) for r in data["records"]]
    return CramCensus(max_cells=max_cells, records=records, report=data["report"])


@dataclass(frozen=True, repr=False)
class SylverCensus:
    """The Sylver Coinage census: every irreducible position with 2 to
    ``max_gaps`` gaps through the finishing search and the four proofs.
    ``positions`` has one dict per position; ``totals``, ``by_genus`` and
    ``bands`` are the report's summaries."""

    max_gaps: int
    order: str
    positions: List[Dict[str, Any]]
    totals: Dict[str, Any]
    by_genus: List[Dict[str, Any]]
    bands: List[Dict[str, Any]]
    report: Dict[str, Any]

    def __repr__(self) -> str:
        return (
            f"SylverCensus(max_gaps={self.max_gaps}, order={self.order!r}, "
            f"{len(self.positions):,} irreducible positions)"
        )

    def _repr_html_(self) -> str:
        return _totals_html(repr(self), self.totals)

    def to_pandas(self):
        """One row per position as a pandas DataFrame (needs pandas)."""
        return _pandas().json_normalize(self.positions)


def sylver_census(max_gaps: int = 16, order: str = "increasing") -> SylverCensus:
    """The Sylver Coinage census to ``max_gaps`` gaps (583 positions at 16).
    ``order``: ``"increasing"``, ``"decreasing"`` or ``"scored"``."""
    report = json.loads(_partizan.sylver_census(max_gaps, order))
    return SylverCensus(
        max_gaps=max_gaps,
        order=report["order"],
        positions=report["positions"],
        totals=report["totals"],
        by_genus=report["by_genus"],
        bands=report["bands"],
        report=report,
    )


@dataclass(frozen=True)
class SylverPlay:
    """One Sylver Coinage position: who wins, how, and how fast."""

    generators: List[int]
    genus: int
    outcome: str
    winning_move: Optional[int]
    winning_moves: List[int]
    remoteness: int
    report: Dict[str, Any]


def sylver_play(generators: Sequence[int]) -> SylverPlay:
    """The position after the numbers ``generators`` were named: its
    outcome for the player to move, winning moves and remoteness."""
    r = json.loads(_partizan.sylver_play(list(generators)))
    return SylverPlay(
        generators=r["generators"],
        genus=r["genus"],
        outcome=r["outcome"],
        winning_move=r["winning_move"],
        winning_moves=r["winning_moves"],
        remoteness=r["remoteness"],
        report=r,
    )


def semigroup_counts(max_genus: int) -> List[int]:
    """Numerical semigroups of each genus 0..``max_genus`` (OEIS A007323)."""
    return _partizan.semigroup_counts(max_genus)
