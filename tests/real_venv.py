"""Throwaway virtual environments with real distributions installed, from a local wheel cache.

Wheels are fetched once with ``pip download`` into the cache the conformance suite uses
(``~/.cache/dagroute-lint/wheels``), then installed with ``--no-index`` from there, so a rerun
needs no network and a fresh CI machine fills the cache on its first run.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import venv
from collections.abc import Sequence
from pathlib import Path

from tests.conformance.airflow_env import _locked, cache_root


def wheel_cache() -> Path:
    return cache_root() / "wheels"


def _pip(*args: str) -> None:
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", *args]
    completed = subprocess.run(command, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        tail = (completed.stdout + completed.stderr)[-4000:]
        raise RuntimeError(f"command failed: {' '.join(command)}\n{tail}")


def ensure_wheels(requirements: Sequence[str], with_dependencies: bool = False) -> Path:
    """Download ``requirements`` into the cache unless a previous run did; return the folder.

    A marker file per requirement set records a finished download, so a complete cache costs
    one file check.
    """
    folder = wheel_cache()
    key = "\n".join([*sorted(requirements), f"dependencies={with_dependencies}", sys.version])
    marker = folder / ".downloaded" / hashlib.sha256(key.encode()).hexdigest()[:16]
    if marker.exists():
        return folder
    with _locked(cache_root() / ".wheels.lock"):
        if not marker.exists():
            deps = [] if with_dependencies else ["--no-deps"]
            _pip("download", *deps, "--dest", str(folder), *requirements)
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.write_text(key + "\n", encoding="utf-8")
    return folder


def make_venv(root: Path, install: Sequence[str], no_deps: bool = True) -> Path:
    """A venv at ``root`` (no pip of its own) with ``install`` installed from the wheel cache.

    ``install`` items are requirements found in the cache or local project folders; local
    projects are built in isolation from the cache too. Returns the venv's interpreter.
    """
    venv.EnvBuilder(with_pip=False).create(root)
    python = root / "bin" / "python"
    deps = ["--no-deps"] if no_deps else []
    _pip(
        "--python",
        str(python),
        "install",
        "--no-index",
        "--find-links",
        str(wheel_cache()),
        *deps,
        *install,
    )
    return python
