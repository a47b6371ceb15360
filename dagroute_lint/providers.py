"""Map Airflow module paths and TaskFlow decorators to the provider distribution they need.

INTERFACE STUB: the functions below are the contract the rest of the pipeline uses.
"""

from __future__ import annotations

from typing import Optional


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
    """``cncf.kubernetes``/``apache-airflow-providers-cncf-kubernetes``/``Foo_Bar`` → canonical."""
    raise NotImplementedError
