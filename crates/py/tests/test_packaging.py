"""Packaging promises: pandas is optional, the stubs name what the module has."""

import subprocess
import sys
from importlib import metadata
from pathlib import Path

import partizan


def test_pandas_is_not_a_dependency():
    # Only the "pandas" extra asks for it.
    for req in metadata.requires("partizan") or []:
        if req.lower().startswith("pandas"):
            assert "extra" in req and "pandas" in req.split("extra")[1], req
    # Without pandas (its import blocked) the package and its tables work, and
    # to_pandas() says what is missing.
    code = (
        "import sys; sys.modules['pandas'] = None\n"
        "import partizan\n"
        "c = partizan.cram_census(4)\n"
        "assert c.records and c.to_dicts()\n"
        "try:\n"
        "    c.to_pandas()\n"
        "except ImportError as e:\n"
        "    print('no pandas:', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "no pandas: to_pandas() needs pandas: pip install pandas" in out.stdout


def test_stubs_cover_the_compiled_module():
    stub = (Path(partizan.__file__).parent / "_partizan.pyi").read_text()
    names = [n for n in dir(partizan._partizan) if not n.startswith("__")]
    missing = [n for n in names if f"def {n}(" not in stub and f"class {n}" not in stub]
    assert missing == [], missing
    for name in ["atomic_weight", "reduced", "thermograph", "cool", "heat", "freeze",
                 "incentives", "compare", "latex", "options", "infinitesimal_part"]:
        assert f"def {name}(" in stub, name
        assert getattr(partizan.Value, name).__doc__, name


def test_every_public_function_has_a_docstring():
    undocumented = [
        n for n in partizan.__all__
        if callable(getattr(partizan, n)) and not (getattr(partizan, n).__doc__ or "").strip()
    ]
    assert undocumented == []
