"""What a Python environment has installed: this interpreter's, or another one's (a worker image).

Another interpreter is asked by running ``metadata_probe.py`` with it, in isolated mode (``-I``):
the probe imports only the standard library and reads installed metadata, so describing an
environment never imports a provider, a plugin or anything from the current directory. Isolated
mode also means ``PYTHONPATH`` and the user site folder are not consulted, only the environment's
own ``site-packages``.
"""

from __future__ import annotations

import json
import subprocess
from importlib import resources
from pathlib import Path
from typing import Any

from dagroute_lint.catalog.providers import canonical_name
from dagroute_lint.deployment.init import metadata_probe
from dagroute_lint.errors import ConfigError
from dagroute_lint.records import record

PROBE_TIMEOUT_SECONDS = 120


@record
class Distribution:
    """An installed distribution: PEP 503 name, version, whether it registers an Airflow
    provider (``apache_airflow_provider`` entry point), and the module names it installs."""

    name: str
    version: str
    provider: bool
    imports: tuple[str, ...] = ()


@record
class Environment:
    """A described environment: ``python`` is ``major.minor``; each name appears once."""

    python: str
    executable: str
    distributions: tuple[Distribution, ...]


def current_environment() -> Environment:
    """The environment this process runs in."""
    return _environment(metadata_probe.describe(), "this interpreter")


def interpreter_environment(python: Path) -> Environment:
    """The environment of the interpreter at ``python``; ``ConfigError`` if it cannot be asked."""
    source = (
        resources.files("dagroute_lint.deployment.init")
        .joinpath("metadata_probe.py")
        .read_text("utf-8")
    )
    where = f"--python {python}"
    try:
        completed = subprocess.run(
            [str(python), "-I", "-c", source],
            capture_output=True,
            timeout=PROBE_TIMEOUT_SECONDS,
            check=False,
        )
    except FileNotFoundError:
        raise ConfigError(f"{where}: no such file") from None
    except PermissionError:
        raise ConfigError(f"{where}: not executable") from None
    except OSError as error:
        raise ConfigError(f"{where}: cannot run it: {error.strerror or error}") from None
    except subprocess.TimeoutExpired:
        raise ConfigError(
            f"{where}: reading its installed metadata took over {PROBE_TIMEOUT_SECONDS} s"
        ) from None
    if completed.returncode != 0:
        errors = completed.stderr.decode("utf-8", "replace").strip().splitlines()
        reason = errors[-1] if errors else f"exit status {completed.returncode}"
        raise ConfigError(
            f"{where}: could not read its installed metadata (a Python 3.8+ interpreter is "
            f"needed): {reason}"
        )
    try:
        payload = json.loads(completed.stdout)
    except ValueError:
        raise ConfigError(f"{where}: did not answer with installed metadata") from None
    return _environment(payload, where)


def _environment(payload: Any, where: str) -> Environment:
    try:
        entries = payload["distributions"]
        seen: set[str] = set()
        distributions = []
        for entry in entries:
            name = canonical_name(str(entry["name"]))
            if name in seen:  # a later sys.path entry: shadowed, as it would be for imports
                continue
            seen.add(name)
            imports = tuple(str(module) for module in entry.get("imports", ()))
            distributions.append(
                Distribution(name, str(entry["version"]), bool(entry["provider"]), imports)
            )
        return Environment(str(payload["python"]), str(payload["executable"]), tuple(distributions))
    except (KeyError, TypeError):
        raise ConfigError(f"{where}: did not answer with installed metadata") from None
