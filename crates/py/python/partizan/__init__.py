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

Long computations release the GIL and stop cleanly on Ctrl-C
(``KeyboardInterrupt``).

Memory: every value lives in one process-wide arena of canonical forms
(equal values share one entry, sums and comparisons are cached). It only
grows; ``arena_stats()`` tells its size and ``clear_cache()`` empties it.
Clearing is safe at any time: each value carries its own stable encoding
and re-enters the new arena on its next use (which costs one decode).
"""

from ._partizan import atlas_build, atlas_find, atlas_summary  # the value atlas
from ._partizan import (
    Board,
    NotAtomicError,
    Store,
    Value,
    __version__,
    arena_size,
    arena_stats,
    check_certificate,
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
    "atlas_find",
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
    "Value",
    "__version__",
    "arena_size",
    "arena_stats",
    "check_certificate",
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
