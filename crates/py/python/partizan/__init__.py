"""partizan: exact combinatorial game theory in Python.

Values of short partizan games as Python objects, the built-in grid rulesets
(Domineering, Cram, Clobber, Konane, Amazons), the region census, Sylver
Coinage, the persistent value store shared with the ``partizan`` command
line, and games defined in Python::

    >>> import partizan
    >>> g = partizan.game("{2|0||-1}")
    >>> g.outcome, g.left_stop, g.right_stop
    ('R', Fraction(0, 1), Fraction(-1, 1))
    >>> partizan.value("domineering", "...|...")
    game('{2|-1/2}')
    >>> partizan.game("^") + partizan.game("*")
    game('^*')

A string in CGSuite notation is taken wherever a value is::

    >>> partizan.up + "1/2"
    game('1/2^')
    >>> partizan.game("{2|-1/2}").cool("1/2")
    game('{3/2|0}')

Values are *partially* ordered: ``<=`` is the CGT order, and two values may
be confused (neither is ``<=`` the other: ``star.confused(zero)``), so
``sorted(values)`` is not meaningful. For a stable order to display values
in, ``sorted(values, key=partizan.order_key)`` (mean, then the stops,
then birthday and notation)::

    >>> [str(v) for v in sorted(["*", "1", "^", "-1/2", "{1|-1}"], key=partizan.order_key)]
    ['-1/2', '*', '^', '{1|-1}', '1']

In a notebook a value shows its facts and thermograph (``_repr_html_``), a
thermograph (``v.thermograph()``, a dict) draws itself, and a census shows
a summary.

Long computations release the GIL and stop cleanly on Ctrl-C
(``KeyboardInterrupt``).

Memory: every value lives in one process-wide arena of canonical forms
(equal values share one entry, sums and comparisons are cached). It only
grows; ``arena_stats()`` tells its size and ``clear_cache()`` empties it.
Clearing is safe at any time: each value carries its own stable encoding
and re-enters the new arena on its next use (which costs one decode).
"""

from ._partizan import atlas_build, atlas_find, atlas_merge, atlas_seal, atlas_summary  # the value atlas
from ._partizan import (
    Board,
    NotAtomicError,
    Store,
    Value,
    __version__,
    arena_size,
    arena_stats,
    check_certificate,
    misere_board,
    misere_game,
    loopy,
    loopy_board,
    misere_graph,
    misere_quotient,
    outcome_table,
    clear_cache,
    construct,
    from_bytes,
    game,
    nimber,
    rulesets,
    value,
)
from .display import Thermograph, order_key
from .jobs import outcome_jobs, run_job  # the job-level search (threads, Dask)
from .rules import Ruleset, ruleset, stable_key
from .tables import (
    CramCensus,
    CramShape,
    DomineeringCensus,
    DomineeringShape,
    SylverCensus,
    SylverPlay,
    cram_census,
    domineering_census,
    semigroup_counts,
    sylver_census,
    sylver_play,
)



def __getattr__(name):
    """``atlas_build_cluster`` (the atlas's top size as Dask tasks) and its
    module, imported when first asked for: not at ``import partizan``, so
    that ``python -m partizan.atlas_cluster`` runs the module once, as the
    program, not also as a part of the package."""
    if name in ("atlas_cluster", "atlas_build_cluster"):
        import importlib

        mod = importlib.import_module(".atlas_cluster", __name__)
        return mod if name == "atlas_cluster" else mod.atlas_build_cluster
    raise AttributeError(f"module 'partizan' has no attribute {name!r}")


zero = game(0)
"""The game ``0 = { | }``."""
star = game("*")
"""The game ``* = {0|0}``."""
up = game("^")
"""The game ``^ = {0|*}``."""
down = game("v")
"""The game ``v = {*|0}``."""

__all__ = [
    "atlas_build",
    "atlas_build_cluster",
    "atlas_find",
    "atlas_merge",
    "atlas_seal",
    "atlas_summary",
    "Board",
    "CramCensus",
    "CramShape",
    "DomineeringCensus",
    "DomineeringShape",
    "NotAtomicError",
    "Ruleset",
    "Store",
    "SylverCensus",
    "SylverPlay",
    "Thermograph",
    "Value",
    "__version__",
    "arena_size",
    "arena_stats",
    "check_certificate",
    "misere_board",
    "misere_game",
    "loopy",
    "loopy_board",
    "outcome_jobs",
    "run_job",
    "misere_graph",
    "misere_quotient",
    "outcome_table",
    "clear_cache",
    "construct",
    "cram_census",
    "domineering_census",
    "down",
    "from_bytes",
    "game",
    "nimber",
    "order_key",
    "ruleset",
    "rulesets",
    "semigroup_counts",
    "stable_key",
    "star",
    "sylver_census",
    "sylver_play",
    "up",
    "value",
    "zero",
]
