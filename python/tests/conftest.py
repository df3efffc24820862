"""Shared fixtures: where the repository, the shared cases and the
command are, and a check that the installed package is the built one."""

import os
import subprocess
from pathlib import Path

import pytest

PYTHON_DIR = Path(__file__).resolve().parents[1]
REPO = PYTHON_DIR.parent
SHARED = Path(os.environ.get("URIFIND_SHARED", REPO.parent / "shared"))


def pytest_configure(config):
    try:
        import urifind._urifind  # noqa: F401
    except ImportError as e:
        raise pytest.UsageError(
            "the urifind extension module is not importable "
            f"({e}); install the package first "
            "(pip install './python[spark,test]' from the repository root), "
            "and run pytest from outside python/ or with "
            "`pytest python/tests`, not `python -m pytest` inside python/"
        )


@pytest.fixture(scope="session")
def cli():
    """The command, built from this checkout: $URIFIND_BIN, or
    target/release/urifind (built here when missing)."""
    env = os.environ.get("URIFIND_BIN")
    if env:
        return Path(env)
    exe = REPO / "target" / "release" / "urifind"
    if not exe.exists():
        subprocess.run(
            ["cargo", "build", "--release", "--quiet", "--bin", "urifind"],
            cwd=REPO,
            check=True,
        )
    return exe


def case_files(directory):
    """The `NAME.txt` inputs of a directory of labeled cases."""
    return sorted(Path(directory).glob("*.txt"))
