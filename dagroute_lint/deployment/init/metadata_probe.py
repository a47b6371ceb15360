"""List the distributions installed in a Python environment, from their metadata only.

This file is also run as a script by another interpreter (``inventory init --python PATH``, e.g. a
worker image's venv), so it imports only the standard library, keeps to Python 3.8 syntax and
prints JSON. It reads ``*.dist-info`` / ``*.egg-info`` metadata through ``importlib.metadata`` and
never loads an entry point: Airflow's ``get_provider_info`` hooks are provider code, and the
distribution name is enough to know the provider (semantics 6.1).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from importlib import metadata
from typing import Any

PROVIDER_GROUP = "apache_airflow_provider"
_EXTENSIONS = (".py", ".so", ".pyd")


def _module_name(part: str) -> str | None:
    """The importable name of one path component (``a.py``, ``_b.cpython-311-x86_64.so``, ``c``)."""
    if part.endswith(".py"):
        name = part[: -len(".py")]
    elif part.endswith((".so", ".pyd")):
        name = part.split(".", 1)[0]
    elif "." in part or part in ("__pycache__", "bin", "share", "etc"):
        return None
    else:
        name = part
    # A compiled helper such as ``6ec57f84__mypyc`` cannot be imported by name.
    return name if name.isidentifier() else None


def import_names(files: Sequence[tuple[str, ...]]) -> list[str]:
    """What a distribution makes importable, from the paths its RECORD lists.

    A top-level folder without ``__init__.py`` is a namespace package shared with other
    distributions (``google``): its entries are ``top.second`` instead.
    """
    files = [parts for parts in files if parts and parts[0] != ".."]
    packages = {parts[:-1] for parts in files if parts[-1] == "__init__.py"}
    names: set[str] = set()
    for parts in files:
        if parts[0].endswith((".dist-info", ".data", ".egg-info")):
            continue
        top = _module_name(parts[0])
        if top is None or (len(parts) == 1 and not parts[0].endswith(_EXTENSIONS)):
            continue
        if len(parts) == 1 or parts[:1] in packages:
            names.add(top)
            continue
        second = _module_name(parts[1])
        is_module = len(parts) == 2 and parts[1].endswith(_EXTENSIONS)
        if second is not None and second != "__init__" and (is_module or parts[:2] in packages):
            names.add(top + "." + second)
    return sorted(names)


def describe() -> dict[str, Any]:
    """The interpreter's version and its distributions, in ``sys.path`` order.

    Each distribution: ``name`` as its metadata spells it, ``version``, ``provider``, true when
    it registers an ``apache_airflow_provider`` entry point, which is how Airflow finds providers,
    and ``imports``, the module names its RECORD installs.
    """
    distributions = []
    for distribution in metadata.distributions():
        try:
            name = distribution.metadata["Name"]
        except KeyError:  # a broken or half-removed install (newer Pythons raise, older give None)
            continue
        if not name:
            continue
        groups = {entry_point.group for entry_point in distribution.entry_points}
        distributions.append(
            {
                "name": name,
                "version": distribution.version,
                "provider": PROVIDER_GROUP in groups,
                "imports": import_names([tuple(f.parts) for f in distribution.files or ()]),
            }
        )
    return {
        "python": f"{sys.version_info[0]}.{sys.version_info[1]}",
        "executable": sys.executable,
        "distributions": distributions,
    }


if __name__ == "__main__":
    json.dump(describe(), sys.stdout)
