"""The documentation's examples run, and give the built-in rulesets' values."""

import itertools
import re

import partizan
import partizan.rules


def doc_example(doc, marker):
    """The first literal block (after '::') following `marker` in `doc`."""
    text = doc[doc.index(marker):]
    block = text[text.index("::\n") + 3:]
    lines = []
    for line in block.splitlines()[1:]:
        if line and not line.startswith("    "):
            break
        lines.append(line[4:])
    return "\n".join(lines)


def test_toads_and_frogs_in_twenty_lines_equals_the_built_in_ruleset():
    code = doc_example(partizan.rules.__doc__, "Toads and Frogs in twenty lines")
    assert len([l for l in code.splitlines() if l.strip()]) <= 20
    scope = {}
    exec(compile(code, "rules.py docstring", "exec"), scope)
    tf = scope["ToadsAndFrogs"]()
    assert tf.value("T.F") == partizan.star  # the example's own claim
    rows = [
        "".join(p) for n in range(1, 8) for p in itertools.product("TF.#", repeat=n)
        if "T" in p or "F" in p
    ]
    rows = rows[::7] + ["TT..FF", "TTT..FFF", "T.T.F.F", "TTF..FF#T.F"]
    for row in rows:
        assert tf.value(row) == partizan.value("toads", row), row
    # the decomposition at walls did its work
    assert tf.stats()["searched"] < tf.stats()["nodes"]


def test_package_docstring_examples():
    # The lines of the package docstring's example, as doctests.
    import doctest

    failures, tried = doctest.testmod(partizan, verbose=False)[:2]
    assert tried >= 4 and failures == 0
