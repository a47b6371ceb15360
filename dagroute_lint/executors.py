"""Airflow's ``[core] executor`` syntax and what each executor does with a task's queue.

INTERFACE STUB: the types below are the contract the rest of the pipeline uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class ExecutorEntry:
    """One entry of ``[core] executor``, as Airflow's ExecutorLoader parses it.

    ``module_path`` is the path as written, or the built-in path for a core name.
    ``honours_queue`` is ``None`` for executors we know nothing about (custom classes).
    """

    written: str
    alias: Optional[str]
    module_path: str
    honours_queue: Optional[bool]

    @property
    def class_name(self) -> str:
        return self.module_path.rsplit(".", 1)[-1]

    @property
    def display_name(self) -> str:
        return self.alias or self.class_name

    def accepts(self, name: str) -> bool:
        """Whether a task's ``executor=name`` selects this entry (exact and case-sensitive)."""
        raise NotImplementedError


def parse_executor_list(value: str, airflow_major: Optional[int]) -> tuple[ExecutorEntry, ...]:
    """Parse a ``[core] executor`` value; raise ``ValueError`` with Airflow's reason if invalid."""
    raise NotImplementedError
