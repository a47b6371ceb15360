"""Load and validate the deployment inventory (``dagroute.toml``) into typed objects.

INTERFACE STUB: the types below are the contract the rest of the pipeline uses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from dagroute_lint.executors import ExecutorEntry


@dataclass(frozen=True)
class Requirement:
    """A provider or package a runtime offers: canonical distribution name plus PEP 440 specifier."""

    name: str
    specifier: str
    written: str


@dataclass(frozen=True)
class Runtime:
    """An environment (image, virtualenv) that parses DAG files or runs tasks."""

    name: str
    python: Optional[str]
    providers: tuple[Requirement, ...]
    packages: tuple[Requirement, ...]
    labels: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Worker:
    """An execution target.

    ``queues`` is normalised: a Celery worker without ``queues`` serves ``(default_queue,)``; an
    Edge worker without ``queues`` and any worker of a queue-blind executor serve every queue,
    shown as ``None``.
    """

    name: str
    executor: ExecutorEntry
    queues: Optional[tuple[str, ...]]
    runtime: str


@dataclass(frozen=True)
class Inventory:
    """What the deployment provides."""

    path: str
    airflow_version: Optional[str]
    executors: tuple[ExecutorEntry, ...]
    default_queue: str
    dag_processor_runtime: Optional[str]  # None: not declared, parse-time checks are skipped
    triggerer_runtime: Optional[str]
    has_triggerer: bool  # false when [deployment] triggerer is absent or false
    workers: tuple[Worker, ...]
    runtimes: dict[str, Runtime]
    pools: Optional[dict[str, int]]
    connections: Optional[frozenset[str]]


def load_inventory(path: Path) -> Inventory:
    """Read and validate ``path``; raise ``ConfigError`` naming file, key path and position."""
    raise NotImplementedError
