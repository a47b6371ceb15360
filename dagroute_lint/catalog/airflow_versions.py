"""Where code reads Airflow's version, and the version flags of the packages Airflow installs.

A DAG file that supports Airflow 2 and 3 at once chooses its imports and sometimes its tasks by
a flag computed from Airflow's version. The repository's own flags are evaluated as written
(``extract/versions.py``); the flags of installed packages, whose source the linter does not
read, are modelled here by qualified name: a provider's ``version_compat`` module (every
provider copies one template, read in the apache/airflow sources:
``get_base_airflow_version_tuple() >= (3, 0, 0)``), ``common.compat``'s, and the system tests'
``tests_common.test_utils.version_compat`` (which adds an exact-release flag, ``== (3, 0, 1)``).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

# The names that hold Airflow's version string (``from airflow import __version__``,
# ``from airflow.version import version``).
VERSION_TEXTS = frozenset({"airflow.__version__", "airflow.version.version"})

# Functions that parse a version string into a ``packaging.version.Version``.
VERSION_PARSERS = frozenset(
    {
        "packaging.version.Version",
        "packaging.version.parse",
        "pkg_resources.parse_version",
    }
)

# The installed modules defining version flags, besides every provider's own
# ``airflow.providers.<name>.version_compat``.
FLAG_MODULES = frozenset(
    {
        "tests_common.test_utils.version_compat",
        "tests_common.test_utils.compat",  # the flags' home before version_compat
        "airflow.providers.common.compat.version_compat",
    }
)

# Each flag those modules define: how Airflow's (major, minor, micro) is compared, with what.
Comparison = tuple[Callable[[Any, Any], bool], tuple[int, int, int]]
FLAGS: dict[str, Comparison] = {
    "AIRFLOW_V_2_7_PLUS": (operator.ge, (2, 7, 0)),
    "AIRFLOW_V_2_8_PLUS": (operator.ge, (2, 8, 0)),
    "AIRFLOW_V_2_9_PLUS": (operator.ge, (2, 9, 0)),
    "AIRFLOW_V_2_10_PLUS": (operator.ge, (2, 10, 0)),
    "AIRFLOW_V_2_11_PLUS": (operator.ge, (2, 11, 0)),
    "AIRFLOW_V_3_0_PLUS": (operator.ge, (3, 0, 0)),
    "AIRFLOW_V_3_0_1": (operator.eq, (3, 0, 1)),
    "AIRFLOW_V_3_0_3_PLUS": (operator.ge, (3, 0, 3)),
    "AIRFLOW_V_3_1_PLUS": (operator.ge, (3, 1, 0)),
    "AIRFLOW_V_3_1_1_PLUS": (operator.ge, (3, 1, 1)),
    "AIRFLOW_V_3_1_3_PLUS": (operator.ge, (3, 1, 3)),
    "AIRFLOW_V_3_2_PLUS": (operator.ge, (3, 2, 0)),
}


def version_flag(qualname: str) -> Comparison | None:
    """The comparison an installed package's flag ``qualname`` stands for, if it is one."""
    module, _, name = qualname.rpartition(".")
    if name not in FLAGS:
        return None
    provider = module.startswith("airflow.providers.") and module.endswith(".version_compat")
    return FLAGS[name] if provider or module in FLAG_MODULES else None
