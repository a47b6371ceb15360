"""Map Airflow module paths and TaskFlow decorators to the provider distribution they need.

INTERFACE STUB: the functions below are the contract the rest of the pipeline uses.
"""

from __future__ import annotations

import re
from typing import Optional

PROVIDER_PREFIX = "apache-airflow-providers-"


def provider_for_module(module: str, airflow_major: int) -> Optional[str]:
    """The provider distribution that importing ``module`` needs, or ``None`` for none.

    ``airflow.providers.cncf.kubernetes.operators.pod`` needs
    ``apache-airflow-providers-cncf-kubernetes`` (longest known provider id wins). Under Airflow 3
    the core paths that moved (``airflow.operators.bash`` and friends) need the provider they
    moved to, through the deprecation shims.
    """
    raise NotImplementedError


def provider_for_decorator(kind: str, airflow_major: int) -> Optional[str]:
    """The provider that registers ``@task.<kind>`` (``"python"`` for a bare ``@task``)."""
    raise NotImplementedError


def canonical_distribution(name_or_id: str) -> str:
    """The PEP 503 name of a provider given by id (``cncf.kubernetes``) or distribution name.

    Provider ids never contain a dash and distribution names of providers always do, so a name
    without a dash is an Apache provider id (``standard``, ``cncf.kubernetes``, ``edge3``).
    """
    if "-" not in name_or_id and "_" not in name_or_id:
        return PROVIDER_PREFIX + name_or_id.lower().replace(".", "-")
    return canonical_name(name_or_id)


def canonical_name(name: str) -> str:
    """PEP 503 normalisation of a distribution name."""
    return re.sub(r"[-_.]+", "-", name).lower()
