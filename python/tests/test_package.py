"""The package as installed: its extras name what the Spark integration
needs, `urifind.spark` says which extra to install when something is
missing, one version everywhere, the committed Cargo.lock is current, and
the README's Python examples run as written."""

import ast
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import urifind

from conftest import PYTHON_DIR, REPO


def extra(name):
    """`{package: specifier}` of the installed distribution's extra
    `name`, read from its metadata."""
    out = {}
    for req in importlib.metadata.requires("urifind") or []:
        spec, _, marker = req.partition(";")
        if re.search(rf"""extra\s*==\s*["']{name}["']""", marker):
            m = re.match(r"\s*([A-Za-z0-9_.-]+)\s*(.*)", spec)
            out[m.group(1).lower()] = m.group(2).replace(" ", "").strip("()")
    return out


def test_the_spark_extra_installs_what_the_integration_needs():
    spark = extra("spark")
    assert {"pyarrow", "pyspark", "pandas", "fastwarc"} <= set(spark), spark
    pandas = set(spark["pandas"].split(","))
    assert {">=2.2", "<3"} <= pandas, spark["pandas"]
    # and each of them is importable here, as the extra installed it
    for mod in ("pyarrow", "pyspark", "pandas", "fastwarc"):
        pytest.importorskip(mod, reason=f"{mod} not installed: not the spark extra")


def test_the_extras_are_the_ones_in_pyproject():
    meta = tomllib.loads((PYTHON_DIR / "pyproject.toml").read_text())
    extras = meta["project"]["optional-dependencies"]
    assert {"arrow", "spark", "test"} <= set(extras)
    assert set(importlib.metadata.metadata("urifind").get_all("Provides-Extra")) >= set(extras)


@pytest.mark.parametrize("missing", ["pyarrow", "pyspark", "pandas"])
def test_urifind_spark_names_the_extra_when_a_dependency_is_missing(missing):
    code = (
        "import sys\n"
        f"sys.modules[{missing!r}] = None  # as if not installed\n"
        "try:\n"
        "    from urifind import spark\n"
        "except ImportError as e:\n"
        "    print(e)\n"
        "else:\n"
        "    print('imported')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "pip install 'urifind[spark]'" in out.stdout, out.stdout
    assert missing in out.stdout


def test_version_has_one_source():
    cargo = tomllib.loads((PYTHON_DIR / "Cargo.toml").read_text())["package"]["version"]
    assert urifind.__version__ == importlib.metadata.version("urifind") == cargo
    assert "version" in tomllib.loads((PYTHON_DIR / "pyproject.toml").read_text())["project"]["dynamic"]


def test_cargo_lock_is_current():
    """`cargo build --locked` of the Python crate needs no change to its
    Cargo.lock (a stale one is rewritten by every `pip install ./python`,
    leaving the clone dirty)."""
    if not shutil.which("cargo"):
        pytest.skip("cargo is not installed")
    out = subprocess.run(
        ["cargo", "metadata", "--locked", "--offline", "--format-version", "1",
         "--manifest-path", str(PYTHON_DIR / "Cargo.toml")],
        capture_output=True, text=True,
    )
    assert out.returncode == 0, out.stderr[-2000:]


def python_blocks(readme):
    """The ```python blocks of a README, in order."""
    return re.findall(r"```python\n(.*?)```", readme.read_text(), re.S)


@pytest.mark.parametrize("readme", [REPO / "README.md", PYTHON_DIR / "README.md"],
                         ids=["README", "python/README"])
def test_readme_python_examples_run(readme, capsys):
    blocks = [b for b in python_blocks(readme) if "pyspark" not in b and "spark." not in b]
    assert blocks, f"no plain Python example in {readme}"
    for block in blocks:
        ast.parse(block)
        exec(compile(block, str(readme), "exec"), {})
    assert "http://" in capsys.readouterr().out


def test_readmes_name_the_extras_and_java():
    for readme in [REPO / "README.md", PYTHON_DIR / "README.md"]:
        text = readme.read_text()
        assert "python[spark]'" in text and "python[arrow]'" in text, readme
        assert "`spark` extra" in text or "extras" in text, readme
        assert re.search(r"Java[^.]*17", text), readme


def test_finder_options_are_listed_once():
    """FINDER_OPTIONS is the constructor's keywords, the attributes, the
    repr's and the stub's, in one order."""
    f = urifind.Finder()
    names = list(urifind.FINDER_OPTIONS)
    assert names == ["grammar", "schemes", "any_scheme", "abbrev", "iri", "mail", "hyphen",
                     "browser_hosts"]
    assert re.findall(r"(\w+)=", repr(f)) == names
    for n in names:
        getattr(f, n)
    stub = (PYTHON_DIR / "urifind" / "_urifind.pyi").read_text()
    finder = stub[stub.index("class Finder:"):stub.index("def __init__", stub.index("class Finder:"))]
    assert re.findall(r"^    (\w+): ", finder, re.M) == names
    match = stub[stub.index("class Match:"):stub.index("def __init__", stub.index("class Match:"))]
    assert re.findall(r"^    (\w+): ", match, re.M) == list(urifind.MATCH_FIELDS)
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        urifind.Finder(colour="red")
    with pytest.raises(AttributeError):
        f.colour
