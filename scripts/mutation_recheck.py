"""Re-check surviving mutants against the tests written for them, faster than a mutmut re-run.

Usage: .venv/bin/python scripts/mutation_recheck.py NAMES_FILE [PYTEST_ARGS...]

NAMES_FILE holds one mutant name a line (from `mutmut results`). Each mutant runs in a forked child
of one warm process with MUTANT_UNDER_TEST set, on the mutated tree mutmut left in mutants/ and on
the tests of this checkout (so tests written after the run count), with the given pytest arguments
(default: the rule fixtures and every `tests/test_*.py` the mutmut selection keeps). Prints one line
per mutant: killed, survived, timeout or error<exit code>. An unknown mutant name runs the
unmutated code, so `x_none__mutmut_0` is a control that must print `survived`.
"""

from __future__ import annotations

import os
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINKED = (
    "tests",
    "rules",
    "examples",
    "scripts",
    "benchmarks",
    "docs",
    "README.md",
    "CONTRIBUTING.md",
    ".ci",
    ".pre-commit-hooks.yaml",
    "pyproject.toml",
)
TIMEOUT = 180.0


def staged_root() -> Path:
    """A folder whose package is mutants/dagroute_lint and whose tests are this checkout's."""
    root = Path(tempfile.mkdtemp(prefix="mutation-recheck-"))
    (root / "dagroute_lint").symlink_to(ROOT / "mutants" / "dagroute_lint")
    for name in LINKED:
        (root / name).symlink_to(ROOT / name)
    return root


def verdict(pid: int) -> str:
    start = time.monotonic()
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            return {0: "survived", 1: "killed"}.get(code, f"error{code}")
        if time.monotonic() - start > TIMEOUT:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "timeout"
        time.sleep(0.2)


def main(names_file: str, pytest_args: list[str]) -> None:
    names = [line.strip() for line in Path(names_file).read_text().splitlines() if line.strip()]
    root = staged_root()
    os.chdir(root)
    sys.path.insert(0, str(root))
    import pytest  # imported once, before forking: each child starts warm

    import dagroute_lint.cli  # noqa: F401

    args = pytest_args or ["tests"]
    for name in names:
        pid = os.fork()
        if pid == 0:
            os.environ["MUTANT_UNDER_TEST"] = name
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            os._exit(int(pytest.main(["-x", "-q", "-p", "no:cacheprovider", *args])))
        print(verdict(pid), name, flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
