"""Type stubs for the compiled half of partizan (``partizan._partizan``)."""

from fractions import Fraction
from os import PathLike
from typing import Any, Callable, Dict, Hashable, Iterable, List, Optional, Tuple, Union

from .display import Thermograph

__version__: str

# Strings are CGSuite notation ("^", "{1|0}", "1/2") wherever a value is taken.
_Number = Union[int, Fraction, str]
_Game = Union["Value", int, Fraction, str]

class Value:
    """A short partizan game's canonical value."""

    def __init__(self, obj: Union[str, _Game]) -> None: ...
    def __add__(self, other: _Game) -> Value: ...
    def __radd__(self, other: _Game) -> Value: ...
    def __sub__(self, other: _Game) -> Value: ...
    def __rsub__(self, other: _Game) -> Value: ...
    def __neg__(self) -> Value: ...
    def __pos__(self) -> Value: ...
    def __mul__(self, n: int) -> Value: ...
    def __rmul__(self, n: int) -> Value: ...
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    def __le__(self, other: _Game) -> bool: ...
    def __lt__(self, other: _Game) -> bool: ...
    def __ge__(self, other: _Game) -> bool: ...
    def __gt__(self, other: _Game) -> bool: ...
    def __hash__(self) -> int: ...
    def confused(self, other: _Game) -> bool:
        """Whether the two are incomparable (their difference is fuzzy)."""
    def compare(self, other: _Game) -> str:
        """``"<"``, ``"="``, ``">"`` or ``"||"`` (confused) in the CGT order."""
    @property
    def outcome(self) -> str:
        """``"L"``, ``"R"``, ``"N"`` or ``"P"``."""
    @property
    def left_stop(self) -> Fraction: ...
    @property
    def right_stop(self) -> Fraction: ...
    @property
    def mean(self) -> Fraction: ...
    @property
    def temperature(self) -> Fraction: ...
    @property
    def is_number(self) -> bool: ...
    @property
    def is_infinitesimal(self) -> bool:
        """Both stops are zero."""
    @property
    def is_all_small(self) -> bool:
        """No subposition of the canonical form is a non-zero number."""
    @property
    def nimber(self) -> Optional[int]: ...
    @property
    def birthday(self) -> int: ...
    @property
    def left_options(self) -> List[Value]: ...
    @property
    def right_options(self) -> List[Value]: ...
    def options(self, player: str) -> List[Value]:
        """The canonical form's options for ``"left"`` or ``"right"``."""
    def as_fraction(self) -> Fraction:
        """The number as a Fraction; ValueError if not a number."""
    def thermograph(self) -> "Thermograph":
        """``{"left": [(t, x), ...], "right": [...], "mast": x, "temperature": t,
        "cgsuite": "Thermograph(...)"}``: walls as exact breakpoints from t = -1;
        a dict that notebooks draw (``_repr_svg_``)."""
    def atomic_weight(self) -> Value:
        """The atomic weight; ``NotAtomicError`` if undefined."""
    def is_atomic(self) -> bool:
        """Whether the atomic weight is defined."""
    def reduced(self) -> Value:
        """The reduced canonical form (equal modulo infinitesimals)."""
    def infinitesimal_part(self) -> Value:
        """The value minus its reduced form."""
    def cool(self, t: _Number) -> Value:
        """Cooled by the number ``t > -1``."""
    def heat(self, t: _Game) -> Value:
        """Heated by ``t``."""
    def overheat(self, s: _Game, t: _Game) -> Value:
        """Overheated from ``s`` by ``t``."""
    def freeze(self) -> Value:
        """Cooled by its own temperature."""
    def incentives(self) -> List[Value]:
        """Both players' incentives pooled, dominated ones removed."""
    def left_incentives(self) -> List[Value]:
        """``G^L - G`` for each Left option, dominated ones removed."""
    def right_incentives(self) -> List[Value]:
        """``G - G^R`` for each Right option, dominated ones removed."""
    def ordinal_sum(self, other: _Game) -> Value:
        """The ordinal sum ``self : other``."""
    def norton(self, u: _Game) -> Value:
        """Norton's product ``self . u``."""
    def latex(self) -> str:
        """The canonical form in LaTeX math notation."""
    def to_bytes(self) -> bytes:
        """The stable, versioned encoding."""
    def _repr_latex_(self) -> str: ...
    def _repr_html_(self) -> str:
        """The value, its outcome, stops, mean, temperature and a small thermograph."""

class Board:
    """A position of a built-in ruleset."""

    def __init__(self, ruleset: str, text: str) -> None: ...
    @property
    def ruleset(self) -> str: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    def regions(self) -> List[Board]: ...
    def options(self, player: str) -> List[Board]: ...
    def value(
        self,
        store: Optional[Store] = None,
        *,
        memo: bool = True,
        decompose: str = "every",
        symmetry: bool = True,
    ) -> Value: ...
    def solve_with_stats(
        self,
        store: Optional[Store] = None,
        *,
        memo: bool = True,
        decompose: str = "every",
        symmetry: bool = True,
    ) -> Tuple[Value, Dict[str, int]]: ...
    def outcome(
        self,
        store: Optional[Store] = None,
        *,
        misere: bool = False,
        first: str = "both",
        table_mb: Optional[int] = None,
        max_nodes: Optional[int] = None,
        threads: Optional[int] = None,
        checkpoint: Optional[Union[str, PathLike[str]]] = None,
        certificate: Optional[Union[str, PathLike[str]]] = None,
    ) -> Union[str, bool, None]:
        """The outcome class by the outcome search (Ctrl-C stops it); `store`
        answers a board solved before and saves a searched one; with
        `first="left"|"right"`, whether that player wins moving first;
        `threads=2` for two threads (default 1); `checkpoint` a resumable
        checkpoint file, as in `outcome_report`; `certificate` a file to write
        the winning strategies to (gzip-compressed when it ends in `.gz`),
        which `check_certificate` replays."""
    def outcome_report(
        self,
        store: Optional[Store] = None,
        *,
        misere: bool = False,
        first: str = "both",
        table_mb: Optional[int] = None,
        max_nodes: Optional[int] = None,
        nimber: bool = False,
        threads: Optional[int] = None,
        checkpoint: Optional[Union[str, PathLike[str]]] = None,
        certificate: Optional[Union[str, PathLike[str]]] = None,
        moves: bool = False,
        picture: Optional[str] = None,
    ) -> Dict[str, Any]:
        """The outcome search's whole report (the fields of `partizan outcome --json`;
        `nimber=True` adds the nimber of an impartial position; `checkpoint` keeps a
        resumable checkpoint in that file, and `resumed` says what a run took over;
        `certificate` writes the winning strategies to that file; `moves=True` adds
        `first_moves`, every first move judged, as `partizan outcome --moves`;
        `picture="svg"` or `"tikz"` adds `picture`, the answer drawn with the winning
        first moves marked, as `partizan outcome --format`)."""
    def nimber(
        self,
        *,
        table_mb: Optional[int] = None,
        max_nodes: Optional[int] = None,
        threads: Optional[int] = None,
        checkpoint: Optional[Union[str, PathLike[str]]] = None,
    ) -> int:
        """The nimber of an impartial position under normal play (ValueError
        otherwise), by the outcome search's nimber search (`threads=2`: two
        threads sharing its memo; `checkpoint`: a file it resumes from)."""
    def graph(self) -> Dict[str, Any]: ...
    def rows(self) -> List[str]: ...
    def _repr_svg_(self) -> str: ...

class Store:
    """The persistent table of region values shared with the CLI."""

    def __init__(
        self, path: Optional[Union[str, PathLike[str]]] = None, *, keep_open: bool = False
    ) -> None: ...
    @property
    def keep_open(self) -> bool: ...
    @property
    def path(self) -> str: ...
    @property
    def closed(self) -> bool: ...
    def stats(self) -> Dict[str, Any]: ...
    def close(self) -> None: ...
    def __enter__(self) -> Store: ...
    def __exit__(self, *exc: object) -> bool: ...

class Engine:
    """The valuation engine behind ``partizan.Ruleset``."""

    def __init__(self, rules: Any, components: bool = False) -> None: ...
    def value(self, position: Hashable, store: Optional[Store] = None) -> Value: ...
    def stats(self) -> Dict[str, int]: ...
    def clear(self) -> None: ...

def game(obj: Union[str, _Game]) -> Value:
    """The value written in CGSuite notation (or a number)."""

def construct(left: Iterable[_Game], right: Iterable[_Game]) -> Value:
    """The canonical form of ``{left | right}``."""

def nimber(n: int) -> Value:
    """The nimber ``*n``."""

def from_bytes(data: bytes) -> Value:
    """The value of a stable encoding (checked)."""

def arena_size() -> int:
    """Distinct canonical forms held by the process."""

def arena_stats() -> Dict[str, int]:
    """``forms`` held by the process-wide arena and its ``generation``."""

def clear_cache() -> int:
    """Empty the process-wide arena (safe while values live); forms freed."""

class NotAtomicError(ValueError):
    """The atomic weight is undefined for this value."""

def value(ruleset: str, board: str, store: Optional[Store] = None) -> Value:
    """The value of a board of a built-in ruleset."""

def check_certificate(
    path: Union[str, PathLike[str]], *, max_positions: int = 1_000_000_000
) -> Dict[str, Any]:
    """Replay a certificate move by move (`partizan check --json`'s fields),
    plain or gzip-compressed; a proof that fails is a ValueError naming the
    problem; Ctrl-C stops it."""

def misere_quotient(
    game: str,
    *,
    up_to: int = 300,
    heaps: Optional[List[int]] = None,
    max_work: int = 300_000_000,
) -> Dict[str, Any]:
    """The misère quotient of a heap game (`partizan grundy GAME --misere
    --json`'s fields: order, p_portion_size, stability, generators,
    relations, p_portion, elements, heaps, sum, ...); a budget that stops it
    is in `stability`; a bad game or a heap past what is known is a
    ValueError."""

def misere_board(
    ruleset: str, board: str, *, max_positions: int = 2_000_000
) -> Dict[str, Any]:
    """A board under misère play (`partizan value RULESET BOARD --misere
    --json`'s fields). An impartial ruleset (Cram, ...): its misère
    canonical form in the universe of impartial games (universe, outcome,
    misere_nim_value, nim_value, genus, form, birthday, positions). A
    partizan one: forms, one per universe it is in ("general", and "dicot"
    for a dicot board such as Clobber's), each with outcome (L, R, N, P),
    form, form_chars and birthday."""

def loopy(
    *values: str, compare: Optional[str] = None, max_positions: int = 1_000
) -> Dict[str, Any]:
    """A loopy value in CGSuite's loopy notation (pass, labels a{...}, on,
    off, over, under, upon, dud, tis, tisn), the sum of the values
    (`partizan loopy VALUE --json`'s fields: positions, stopper, short,
    outcome, left_first, right_first, form or no_form, stops, thermograph,
    compared)."""

def loopy_board(
    ruleset: str,
    board: str,
    only_outcome: bool = False,
    max_positions: int = 5_000_000,
) -> Dict[str, Any]:
    """A board of a loopy ruleset ("fox-and-geese", "backsliding-toads"):
    `partizan value RULESET BOARD --json`'s fields (outcome with draws,
    stopper, form: the value of a stopper board found part by part, parts,
    stops, sides of a non-stopper when sidling settles, no_form)."""

def run_job(
    line: str,
    max_table_mb: int = 1024,
    tell: Optional[Callable[[int], Any]] = None,
    every_ms: int = 1000,
) -> str:
    """Search one job of the job-level search, given as the line `partizan
    job-worker` reads, and return the answer's line (with a certificate
    when decided). What `outcome_jobs(client=...)` runs on Dask workers.
    Its table is capped at `max_table_mb`. `tell`, when given, is called
    with the nodes searched so far about every `every_ms` ms (100 to
    3,600,000) while it runs; an exception it raises stops the job and is
    raised here."""

def _outcome_jobs(
    ruleset: str,
    board: str,
    first: str,
    run: Optional[Callable[[str], str]],
    workers: int,
    job_nodes: int,
    job_plies: int,
    jobs_file: Optional[str],
    trust: str = "certificates",
    table_mb: Optional[int] = None,
    certificate: Optional[str] = None,
    progress: Any = None,
    progress_every: float = 5.0,
    max_seconds: Optional[float] = None,
) -> Dict[str, Any]:
    """The job-level search behind `partizan.outcome_jobs`."""

def misere_game(*values: str, max_forms: int = 2_000_000) -> Dict[str, Any]:
    """The misère canonical forms of the sum of game trees written in CGSuite
    notation, taken literally (`partizan game VALUE... --misere --json`'s
    fields: value, forms, impartial, forms_built)."""

def misere_graph(
    game: str, graph: str, *, max_positions: int = 2_000_000
) -> Dict[str, Any]:
    """Kayles or Node Kayles on a graph under misère play (`partizan grundy
    GAME GRAPH --misere --json`'s fields: outcome, misere_nim_value,
    nim_value, genus, form, birthday, positions)."""

def outcome_table(
    ruleset: str,
    rectangles: str,
    store: Optional[Store] = None,
    *,
    misere: bool = False,
    first: str = "both",
    nimber: bool = False,
    max_nodes: Optional[int] = None,
    table_mb: Optional[int] = None,
    threads: Optional[int] = None,
    picture: Optional[str] = None,
) -> Dict[str, Any]:
    """Outcomes over rectangles (`partizan outcome RULESET --rectangles
    ROWSxCOLS --json`): `rectangles` is "2-8x2-8", "3x4-20" or "2-6"; each
    board the ruleset's rectangle, searched through `store`; `cells` row by
    row, a board `max_nodes` stopped with `stopped` set and no answer.
    `picture="svg"` or `"tikz"` adds `picture`, the table drawn for a paper
    (`--format svg|tikz`)."""

def rulesets() -> List[Dict[str, Any]]:
    """The built-in rulesets (name, title, aliases, summary, example)."""

def domineering_census(max_cells: int) -> str: ...
def cram_census(max_cells: int) -> str: ...
def sylver_census(max_gaps: int, order: str = "increasing") -> str: ...
def sylver_play(generators: List[int]) -> str: ...
def semigroup_counts(max_genus: int) -> List[int]: ...

# the value atlas (crates/py/src/atlas.rs); dir defaults to $PARTIZAN_ATLAS,
# else the data directory, as `partizan atlas`
def atlas_build(
    max_cells: int,
    dir: Optional[Union[str, PathLike]] = None,
    *,
    threads: Optional[int] = None,
    shards: Optional[int] = None,
    shard: Optional[Tuple[int, int]] = None,
) -> Dict[str, Any]:
    """Value every region to max_cells cells into dir (resumes); shards=n: the top size in n slices;
    shard=(k, n): only slice k of n of the top size, kept for atlas_merge."""

def atlas_merge(
    cells: int,
    shards: int,
    dir: Optional[Union[str, PathLike]] = None,
    verify: int = 64,
) -> Dict[str, Any]:
    """Merge the shard files of one size into its level, `verify` random classes
    of each shard valued again by the board engine first: {cells, classes,
    new_values, verified}."""

def atlas_seal(
    max_cells: Optional[int] = None,
    *,
    verify: int = 64,
    dir: Optional[Union[str, PathLike]] = None,
) -> Dict[str, Any]:
    """Check and seal with your key the levels of the atlas it did not seal
    (built elsewhere, before seals, or edited): {sealed, verified, levels}.
    Until then such levels are not believed (an error naming the file)."""

def atlas_find(
    value: Optional[str] = None,
    *,
    kind: Optional[str] = None,
    min_temperature: Optional[str] = None,
    max_cells: Optional[int] = None,
    limit: int = 10,
    dir: Optional[Union[str, PathLike]] = None,
) -> Dict[str, Any]:
    """Regions with a value, kind or temperature at least t: {total, regions, max_cells, seconds}."""

def atlas_summary(
    max_cells: Optional[int] = None,
    *,
    hottest: int = 10,
    dir: Optional[Union[str, PathLike]] = None,
) -> Dict[str, Any]:
    """The atlas's tables, as `partizan atlas report --json`."""
