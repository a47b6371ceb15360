"""Version flags written as a provider's ``version_compat`` module once wrote them: packaging
Versions of Airflow's base version, and the version string read from ``airflow.version``."""

from __future__ import annotations

from airflow.version import version as AIRFLOW_VERSION
from packaging.version import Version

AIRFLOW_BASE = Version(Version(AIRFLOW_VERSION).base_version)
AIRFLOW_V_3_0_PLUS = AIRFLOW_BASE >= Version("3.0.0")
AIRFLOW_V_3_3_PLUS = AIRFLOW_BASE >= Version("3.3")
AIRFLOW_MAJOR = int(AIRFLOW_VERSION.split(".")[0])
