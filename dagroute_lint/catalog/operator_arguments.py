"""Which keywords each known operator class accepts, per Airflow major version (generated table).

``BaseOperator`` rejects a keyword no ``__init__`` of the class chain takes ("Invalid arguments
were passed"), so the file fails to load. The table is read from the real classes by
``scripts/generate_operator_arguments.py``; a class it does not list is never judged.
"""

from __future__ import annotations

from functools import cache

from dagroute_lint.catalog.data_files import read_table

_COLUMNS = ("airflow", "operator", "keywords")


@cache
def _table() -> dict[tuple[int, str], frozenset[str]]:
    table = {}
    for major, operator, keywords in read_table("operator_arguments.tsv", _COLUMNS):
        assert major is not None and operator is not None
        table[(int(major), operator)] = frozenset((keywords or "").split(","))
    return table


def accepted_keywords(operator: str, major: int) -> frozenset[str] | None:
    """The keywords ``operator`` (a qualified class name) takes in Airflow ``major``; ``None``
    when the table does not know the class in that version."""
    return _table().get((major, operator))
