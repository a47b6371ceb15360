"""``itertools`` and ``re`` on known values are computed as Python computes them; what the walk
cannot compute keeps its old reading, and a result too large is not built."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import routes, value

HEADER = """
import itertools, re
from itertools import product
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, Variable
ENV = "prod"
"""


def ids_of(tmp_path: Path, loop: str) -> list[str]:
    tasks = routes(
        tmp_path,
        HEADER + f'with DAG("d"):\n    for x in {loop}:\n'
        '        BashOperator(task_id="t_" + "".join(str(p) for p in x), bash_command="x")\n',
    )
    return sorted(name.removeprefix("t_") for name in tasks)


@pytest.mark.parametrize(
    ("loop", "expected"),
    [
        ('product("ab", [1, 2])', ["a1", "a2", "b1", "b2"]),
        ('itertools.product("ab", repeat=2)', ["aa", "ab", "ba", "bb"]),
        ('itertools.chain([("a", "b")], [("c",)])', ["ab", "c"]),
        ('itertools.chain.from_iterable([[("a", "b")], [("c",)]])', ["ab", "c"]),
        ('itertools.zip_longest("ab", "c", fillvalue="z")', ["ac", "bz"]),
        ('itertools.islice([("a",), ("c",), ("d",)], 1, None)', ["c", "d"]),
        ('itertools.combinations("abc", 2)', ["ab", "ac", "bc"]),
        ('itertools.permutations("ab")', ["ab", "ba"]),
    ],
)
def test_itertools_of_known_values(tmp_path: Path, loop: str, expected: list[str]) -> None:
    assert ids_of(tmp_path, loop) == expected


def test_itertools_result_too_large_is_not_built(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER + 'with DAG("d"):\n    for pair in product(range(100), range(100)):\n'
        '        BashOperator(task_id=f"t_{pair}", bash_command="x")\n',
    )
    assert list(tasks) == ["?"]
    assert "more than 1000 items" in dict(tasks["?"].unresolved)["task_id"]


def test_itertools_of_a_set_is_not_ordered(tmp_path: Path) -> None:
    """A set's order is its hashes': the ids could be any order, so they are not built."""
    tasks = routes(
        tmp_path,
        HEADER + 'with DAG("d"):\n    for i, a in enumerate(itertools.chain({"x", "y"})):\n'
        '        BashOperator(task_id=f"t_{i}_{a}", bash_command="x")\n',
    )
    assert list(tasks) == ["?"]


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ('re.sub("-", "_", "p-prod")', "p_prod"),
        ('re.sub(r"(\\w)-(\\w)", r"\\2\\1", "a-b")', "ba"),
        ('re.sub("A", "b", "aA", flags=re.IGNORECASE)', "bb"),
        ('re.compile("[0-9]+").sub("#", "a12b3")', "a#b#"),
        ('re.match(r"(\\w+)-(\\d+)", "load-42").group(1)', "load"),
        ('re.search(r"(?P<n>\\d+)", "x7y").group("n")', "7"),
        ('re.split(r"\\.", "a.b.c")[2]', "c"),
        ('"_".join(re.findall(r"\\d", "a1b2"))', "1_2"),
        ('str(re.fullmatch("a", "ab"))', "None"),
        ('re.escape("a.b")', "a\\.b"),
        ('re.sub("-", "_", f"{ENV}-{len(ENV)!s}")', "prod_4"),
    ],
)
def test_regular_expressions_of_known_strings(
    tmp_path: Path, expression: str, expected: str
) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + f'with DAG("d"):\n    BashOperator(task_id="t", bash_command="x", queue={expression})\n',
    )
    assert value(tasks["t"], "queue") == expected


def test_regular_expression_of_an_unknown_string_is_unknown(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER + 'with DAG("d"):\n    BashOperator(task_id="t", bash_command="x", '
        'queue=re.sub("-", "_", Variable.get("q")))\n',
    )
    assert not tasks["t"].fields["queue"].known
