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
from importlib import metadata
from typing import Any

PROVIDER_GROUP = "apache_airflow_provider"


def describe() -> dict[str, Any]:
    """The interpreter's version and its distributions, in ``sys.path`` order.

    Each distribution: ``name`` as its metadata spells it, ``version``, and ``provider``, true when
    it registers an ``apache_airflow_provider`` entry point, which is how Airflow finds providers.
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
            }
        )
    return {
        "python": f"{sys.version_info[0]}.{sys.version_info[1]}",
        "executable": sys.executable,
        "distributions": distributions,
    }


if __name__ == "__main__":
    json.dump(describe(), sys.stdout)
