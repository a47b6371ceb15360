"""Routing values computed by pure expressions fold to what Python computes, or stay unknown with
the reason; Python itself is the oracle for every folded value.

Through ``routes --format json``: each expression is a task's ``queue=`` (or ``pool_slots=``), and
the value the table reports is compared with ``eval`` of the same text over the same constants.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path, PurePosixPath

import pytest

from tests.linting import invoke

CONSTANTS = """\
BASE = {"queue": "q", "nested": {"k": "v"}}
NAMES = ["a", "b"]
N = 3
"""

FOLDED = [
    ("queue", '"a" + "b"'),
    ("queue", '"%s-%s" % ("a", "b")'),
    ("queue", '"%(a)s" % {"a": "z"}'),
    ("queue", '"%s" % "one"'),
    ("queue", '"{}-{x}".format("a", x="b")'),
    ("queue", "\"{}{}\".format(1, 'z')"),
    ("queue", "f\"{N:03d}-{'x'!r}-{NAMES[1]}\""),
    ("queue", 'f"{N!a}{N!s}{N:>{N}}"'),
    ("queue", 'f"{NAMES}"'),
    ("queue", '"a-b".replace("-", "_")'),
    ("queue", 'Path("/d/x.tar.py").stem'),
    ("queue", 'Path("/d/x.py").name'),
    ("queue", '{**BASE, "queue": "r"}["queue"]'),
    ("queue", 'BASE["nested"]["k"]'),
    ("queue", "NAMES[-1]"),
    ("queue", '{"a": "x", **{"a": "y"}}["a"]'),
    ("pool_slots", "2 * 3"),
    ("pool_slots", "2 * 3 * N"),
    ("pool_slots", "[1, 2, 3][1]"),
    ("pool_slots", "{1: 4}[1]"),
    ("pool_slots", "1000000000000000 * 1"),
    ("pool_slots", "{**{1: 2}, 3: 4}[3]"),
    ("pool_slots", "{**{1: 2}, 3: 4}[1]"),
    ("pool_slots", "{**{1: 2}, **{1: 5}}[1]"),
]

UNRESOLVED = [
    ("queue", '"a" + 1', "'+' on values of different types"),
    ("queue", '"a" + N', "'+' on values of different types"),
    ("queue", '"ab" * 2', "'*' on values that are not numbers"),
    ("pool_slots", "100000000 * 100000000", "a product too large to fold"),
    ("pool_slots", "1000000000000001 * 1", "a product too large to fold"),
    ("queue", '"{:>1000000000}".format("a")', "str.format that cannot be folded"),
    ("queue", '"{}".format(NAMES)', "str.format that cannot be folded"),
    ("queue", '"%1000000s" % "a"', "'%' formatting that cannot be folded"),
    ("queue", '"a".replace("", "b")', "str.replace that cannot be folded"),
    ("queue", '"a".replace("a", 1)', "str.replace that cannot be folded"),
    ("queue", 'f"{N:>10000}"', "f-string format spec that cannot be folded"),
    ("queue", 'BASE["missing"]', "key 'missing' is missing (KeyError at parse time)"),
    ("queue", "NAMES[5]", "subscript that fails at parse time"),
    ("queue", '{**NAMES}["a"]', "not a dict"),
    ("queue", "Path(N).name", "a path that is not a string"),
    ("queue", 'N.format("a")', "str.format that cannot be folded"),
    ("pool_slots", "{**NAMES}[0]", "a ** spread of something that is not a dict"),
    ("pool_slots", "{NAMES: 1}[0]", "an unhashable dict key"),
    ("queue", '{"a": BASE}.get(N)["queue"]', "dict.get of a key that is not a constant"),
    ("queue", '{"a": 1}.get("a")["queue"]', "not a dict"),
    ("queue", '{"a": None}.get("a")["queue"]', "key 'queue' is missing (KeyError at parse time)"),
]


def routes_of(
    root: Path, monkeypatch: pytest.MonkeyPatch, cases: list[tuple[str, str]]
) -> list[dict[str, object]]:
    calls = "".join(
        f'    BashOperator(task_id="t{index}", bash_command="x", {field}={expression})\n'
        for index, (field, expression) in enumerate(cases)
    )
    source = (
        "from pathlib import Path\n\n"
        "from airflow.providers.standard.operators.bash import BashOperator\n"
        "from airflow.sdk import DAG\n\n"
        f"{CONSTANTS}\n"
        f'with DAG("fold"):\n{calls}'
    )
    (root / "dags").mkdir()
    (root / "dags" / "dag.py").write_text(source, encoding="utf-8")
    outcome = invoke(root, ["routes", "dags", "--no-cache", "--format", "json"], monkeypatch)
    assert outcome.exit_code == 0, outcome.stderr
    tasks: list[dict[str, object]] = json.loads(outcome.stdout)["tasks"]
    assert [task["task_id"] for task in tasks] == [f"t{index}" for index in range(len(cases))]
    return tasks


def python_value(expression: str) -> object:
    namespace: dict[str, object] = {"Path": PurePosixPath}
    exec(textwrap.dedent(CONSTANTS), namespace)
    return eval(expression, namespace)


def test_folded_values_are_what_python_computes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tasks = routes_of(tmp_path, monkeypatch, [(field, text) for field, text in FOLDED])
    for (field, expression), task in zip(FOLDED, tasks):
        assert task["unresolved"] == [], (expression, task["reasons"])
        assert task[field] == python_value(expression), expression


def test_unfoldable_values_are_unknown_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tasks = routes_of(tmp_path, monkeypatch, [(field, text) for field, text, _ in UNRESOLVED])
    for (field, expression, reason), task in zip(UNRESOLVED, tasks):
        assert task[field] is None, expression
        assert task["unresolved"] == [field], expression
        assert task["reasons"] == {field: reason}, expression


def nested(levels: int) -> str:
    text = '"q"'
    for _ in range(levels):
        text = f'{{"a": {text}}}'
    return text


def test_nested_values_are_followed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Twenty levels of dicts, and the same inside a list, fold like any other value."""
    keys = '["a"]'
    cases = [("queue", nested(20) + keys * 20), ("queue", f"[{nested(20)}][0]" + keys * 20)]
    tasks = routes_of(tmp_path, monkeypatch, cases)
    assert [(task["queue"], task["reasons"]) for task in tasks] == [("q", {}), ("q", {})]
