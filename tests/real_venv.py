"""Throwaway virtual environments with real distributions installed, from a local wheel cache.

Wheels are fetched once with ``pip download`` into the cache the conformance suite uses
(``<cache_root()>/wheels``: inside the virtual environment running the tests, or under
``$DAGROUTE_CONFORMANCE_CACHE``; never the user's home), then installed with ``--no-index`` from
there, so a rerun needs no network and a fresh machine fills the cache on its first run.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import venv
from collections.abc import Sequence
from pathlib import Path

from tests.conformance.airflow_env import _locked, cache_root, refuse_to_install, tool_environment


def wheel_cache() -> Path:
    return cache_root() / "wheels"


def _pip(*args: str) -> None:
    refuse_to_install()
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", *args]
    completed = subprocess.run(
        command, capture_output=True, text=True, check=False, env=tool_environment()
    )
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


def make_venv(
    root: Path, install: Sequence[str], no_deps: bool = True, build_backend: str | None = None
) -> Path:
    """A venv at ``root`` (no pip of its own) with ``install`` installed from the wheel cache.

    ``install`` items are requirements found in the cache or local project folders. With
    ``build_backend`` (a requirement such as ``hatchling``) that backend is installed first and
    local projects are built with it in the venv, which is much faster than an isolated build
    environment per project. Returns the venv's interpreter.
    """
    venv.EnvBuilder(with_pip=False).create(root)
    python = root / "bin" / "python"

    def pip_install(*args: str) -> None:
        # No byte-compiling: for Airflow core's files it would take most of the time.
        options = ["--no-compile", "--no-index", "--find-links", str(wheel_cache())]
        _pip("--python", str(python), "install", *options, *args)

    build: list[str] = []
    if build_backend is not None:
        pip_install(build_backend)
        build = ["--no-build-isolation"]
    pip_install(*build, *(["--no-deps"] if no_deps else []), *install)
    return python
