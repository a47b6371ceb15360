"""The classes each known operator class is an instance of, per Airflow major version.

A cluster policy's ``isinstance(task, KubernetesPodOperator)`` is decided only on a class whose
whole chain is known; the table holds each class's ``__mro__`` by class name, read from the real
classes by ``scripts/generate_operator_classes.py``. A class it does not list is never decided.
"""

from __future__ import annotations

from functools import cache

from dagroute_lint.catalog.data_files import read_table

_COLUMNS = ("operator", "airflow", "classes")


@cache
def _table() -> dict[tuple[str, int], frozenset[str]]:
    table = {}
    for operator, major, classes in read_table("operator_classes.tsv", _COLUMNS):
        assert operator is not None and major is not None
        table[(operator, int(major))] = frozenset((classes or "").split(","))
    return table


def class_chain(operator: str, major: int) -> frozenset[str] | None:
    """The class names ``operator`` (a qualified class name, as Airflow ``major`` holds it) is
    an instance of; ``None`` when the table does not know it."""
    return _table().get((operator, major))
