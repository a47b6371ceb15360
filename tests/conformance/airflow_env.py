"""Create, once, the pinned Airflow virtualenv the conformance suite uses as its oracle.

The venv lives outside the repository (``$DAGROUTE_CONFORMANCE_VENV`` or
``~/.cache/dagroute-lint/airflow-<version>-venv``) and is reused while its marker file records the
same pin set. It is built with plain ``pip`` from the package index: Airflow's official constraint
files live on GitHub, which is not reachable here, so the distributions that decide routing are
pinned directly and nothing else (no extras) is asked for.

Run it directly to build or check the venv and print how long that took::

    python tests/conformance/airflow_env.py
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

AIRFLOW_VERSION = "3.3.2"

# The versions airflow-semantics.md was verified against. apache-airflow pins core and task-sdk
# exactly; the providers are pinned here so that a new provider release cannot change the oracle.
# cncf-kubernetes brings the ``kubernetes`` client that example_kubernetes_executor.py needs to
# build its DAG at all (it skips the DAG when the import fails).
PINS: tuple[str, ...] = (
    f"apache-airflow=={AIRFLOW_VERSION}",
    f"apache-airflow-core=={AIRFLOW_VERSION}",
    "apache-airflow-task-sdk==1.3.2",
    "apache-airflow-providers-standard==1.21.0",
    "apache-airflow-providers-cncf-kubernetes==10.25.0",
)

# Wheels whose ``example_dags`` folders form the "examples" corpora: distribution pin, and the
# folder inside the wheel.
EXAMPLE_WHEELS: dict[str, tuple[str, str]] = {
    "airflow-core": (f"apache-airflow-core=={AIRFLOW_VERSION}", "airflow/example_dags/"),
    "providers-standard": (
        "apache-airflow-providers-standard==1.21.0",
        "airflow/providers/standard/example_dags/",
    ),
}

MARKER_NAME = "dagroute-conformance.json"

Log = Callable[[str], None]


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def cache_root() -> Path:
    """Where venvs and downloaded wheels are cached (``$DAGROUTE_CONFORMANCE_CACHE``)."""
    env = os.environ.get("DAGROUTE_CONFORMANCE_CACHE")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "dagroute-lint"


def venv_dir() -> Path:
    env = os.environ.get("DAGROUTE_CONFORMANCE_VENV")
    if env:
        return Path(env).expanduser()
    return cache_root() / f"airflow-{AIRFLOW_VERSION}-venv"


@dataclass(frozen=True)
class AirflowEnv:
    """A ready venv: its interpreter, whether this call built it, and how long building took."""

    root: Path
    python: Path
    created: bool
    install_seconds: float | None


def _marker_payload() -> dict[str, object]:
    return {"airflow_version": AIRFLOW_VERSION, "pins": list(PINS)}


def _read_marker(root: Path) -> dict[str, object] | None:
    try:
        data = json.loads((root / MARKER_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _marker_ok(root: Path, python: Path) -> bool:
    marker = _read_marker(root)
    if marker is None or not python.exists():
        return False
    return all(marker.get(key) == value for key, value in _marker_payload().items())


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Serialise concurrent builders (two pytest runs, xdist workers) on one lock file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _run(cmd: list[str], log: Log) -> None:
    log("$ " + " ".join(cmd))
    completed = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        tail = (completed.stdout + completed.stderr)[-4000:]
        raise RuntimeError(f"command failed ({completed.returncode}): {' '.join(cmd)}\n{tail}")


def _base_python() -> str:
    """The interpreter to build the venv from: ``$DAGROUTE_CONFORMANCE_PYTHON`` or this one."""
    return os.environ.get("DAGROUTE_CONFORMANCE_PYTHON") or sys.executable


def ensure_airflow_venv(log: Log = _stderr) -> AirflowEnv:
    """Return the pinned Airflow venv, building it first if it is absent or stale."""
    root = venv_dir()
    python = root / "bin" / "python"
    if _marker_ok(root, python):
        return AirflowEnv(root, python, created=False, install_seconds=None)
    with _locked(root.parent / f".{root.name}.lock"):
        if _marker_ok(root, python):  # another process finished it while we waited
            return AirflowEnv(root, python, created=False, install_seconds=None)
        if root.exists():
            log(f"removing stale or incomplete venv {root}")
            shutil.rmtree(root)
        log(f"building Airflow {AIRFLOW_VERSION} venv at {root} (one-off, a few minutes)")
        started = time.monotonic()
        _run([_base_python(), "-m", "venv", str(root)], log)
        pip = [str(python), "-m", "pip", "--disable-pip-version-check", "--no-input"]
        _run([*pip, "install", "--upgrade", "pip"], log)
        _run([*pip, "install", *PINS], log)
        seconds = time.monotonic() - started
        payload = _marker_payload()
        payload["install_seconds"] = round(seconds, 1)
        payload["built_at"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        (root / MARKER_NAME).write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        log(f"Airflow venv ready in {seconds:.0f} s")
        return AirflowEnv(root, python, created=True, install_seconds=seconds)


def ensure_example_corpora(env: AirflowEnv, log: Log = _stderr) -> dict[str, Path]:
    """Download the wheels (``pip download --no-deps``) and extract their ``example_dags``.

    Returns corpus name -> DAG folder. Both the wheels and the extracted folders are cached
    under ``cache_root()``; nothing of them is ever written into the repository.
    """
    corpora_dir = cache_root() / f"corpora-{AIRFLOW_VERSION}"
    result: dict[str, Path] = {}
    with _locked(cache_root() / ".corpora.lock"):
        for name, (requirement, prefix) in EXAMPLE_WHEELS.items():
            target = corpora_dir / name
            done = target / ".extracted"
            if not done.exists():
                wheel = download_wheel(requirement, env.python, log)
                if target.exists():
                    shutil.rmtree(target)
                extract_folder(wheel, prefix, target)
                done.write_text(wheel.name + "\n", encoding="utf-8")
            result[name] = target
    return result


def download_wheel(
    requirement: str, python: Path | str = sys.executable, log: Log = _stderr
) -> Path:
    """The wheel of ``dist==version``, from the cache or ``pip download --no-deps`` into it."""
    wheels_dir = cache_root() / "wheels"
    dist, version = requirement.split("==")
    wheel = _find_wheel(wheels_dir, dist, version)
    if wheel is None:
        pip = [str(python), "-m", "pip", "--disable-pip-version-check"]
        _run([*pip, "download", "--no-deps", "-d", str(wheels_dir), requirement], log)
        wheel = _find_wheel(wheels_dir, dist, version)
    if wheel is None:
        raise RuntimeError(f"pip download produced no wheel for {requirement}")
    return wheel


def _find_wheel(folder: Path, dist: str, version: str) -> Path | None:
    stem = dist.replace("-", "_")
    matches = sorted(folder.glob(f"{stem}-{version}-*.whl")) if folder.exists() else []
    return matches[0] if matches else None


def extract_folder(wheel: Path, prefix: str, target: Path) -> None:
    """Write the files under ``prefix`` in ``wheel`` to ``target`` (compiled caches skipped)."""
    target.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(wheel) as archive:
        for info in archive.infolist():
            if info.is_dir() or not info.filename.startswith(prefix):
                continue
            relative = info.filename[len(prefix) :]
            if not relative or "__pycache__" in relative:
                continue
            destination = target / relative
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(archive.read(info))


def main() -> int:
    env = ensure_airflow_venv()
    marker = _read_marker(env.root) or {}
    print(
        json.dumps(
            {
                "venv": str(env.root),
                "created": env.created,
                "install_seconds": env.install_seconds,
                "recorded_install_seconds": marker.get("install_seconds"),
            }
        )
    )
    for name, folder in ensure_example_corpora(env).items():
        print(f"{name}: {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
