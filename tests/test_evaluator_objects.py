"""Instances of the repository's plain classes and named tuples: attributes set in ``__init__``
or on the class are read later; a store through an alias is seen; code the walk does not follow
that is given the object leaves its attributes unknown, never stale."""

from __future__ import annotations

from pathlib import Path

import pytest

from dagroute_lint.resolve.tasks import ResolvedTask
from tests.helpers import routes, value

HEADER = """
import collections, typing
from collections import namedtuple
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

class Settings:
    pool = "class_pool"

    def __init__(self, env, tier="std"):
        self.queue = "q_" + env
        self.tier = tier
        self.set_pool(env)

    def set_pool(self, env):
        self.pool_name = "p_" + env

    def label(self):
        return self.tier + "_" + self.queue

S = Settings("prod")
"""


def queue_of(body: str, tmp_path: Path) -> ResolvedTask:
    tasks = routes(
        tmp_path,
        HEADER
        + body
        + '\nwith DAG("d"):\n    BashOperator(task_id="t", bash_command="x", queue=Q)\n',
    )
    return tasks["t"]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("Q = S.queue", "q_prod"),
        ("Q = S.pool_name + S.pool + S.tier", "p_prodclass_poolstd"),
        ("Q = S.label()", "std_q_prod"),
        ('Q = Settings("dev", tier="gold").label()', "gold_q_dev"),
        ('other = S\nother.queue = "z"\nQ = S.queue', "z"),
        ('def move(s):\n    s.queue = "moved"\nmove(S)\nQ = S.queue', "moved"),
        ('Settings.pool = "p2"\nQ = Settings("x").pool + S.pool', "p2p2"),
        ('type(S).pool = "p3"\nQ = S.pool', "p3"),
        ('S.__class__.pool = "p4"\nQ = S.pool', "p4"),
        ('setattr(S, "queue", "set")\nQ = S.queue', "set"),
        (
            "class Child(Settings):\n    pool = 'child'\nQ = Child('c').pool + Child('c').queue",
            "childq_c",
        ),
    ],
)
def test_attributes_of_plain_instances(tmp_path: Path, body: str, expected: str) -> None:
    assert value(queue_of(body, tmp_path), "queue") == expected


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("import lib\nlib.mutate(S)\nQ = S.queue", "lib.mutate"),
        ("import lib\nlib.mutate([S])\nQ = S.queue", "lib.mutate"),
        ("import lib\nlib.register(S.label)\nQ = S.queue", "lib.register"),
        ('S.__dict__.update(queue="z")\nQ = S.queue', "__dict__"),
        ('import lib\nsetattr(S, lib.NAME, "z")\nQ = S.queue', "setattr"),
        ('import lib\nif lib.FLAG:\n    S.queue = "z"\nQ = S.queue', "condition"),
        ("import lib\nother = S\nlib.mutate(other)\nQ = S.queue", "lib.mutate"),
        ("import lib\nif lib.FLAG:\n    Settings.pool = 'z'\nQ = S.pool", "condition"),
        (
            "class H:\n    def __getattr__(self, n):\n        return 'x'\nQ = H().queue",
            "H",
        ),
        ("import lib\n@lib.wrap\nclass W:\n    queue = 'w'\nQ = W().queue", "W"),
        (
            "class Base:\n    queue = 'class'\n    def __init__(self):\n        self.queue = 'b'\n"
            "class Sub(Base):\n    def __init__(self):\n        super().__init__()\n"
            "Q = Sub().queue",
            "Sub",
        ),
    ],
)
def test_unfollowed_changes_leave_attributes_unknown(
    tmp_path: Path, body: str, reason: str
) -> None:
    assert reason in dict(queue_of(body, tmp_path).unresolved)["queue"]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('Row = namedtuple("Row", ["name", "queue"])\nQ = Row("a", "qa").queue', "qa"),
        (
            'Row = namedtuple("Row", "name, queue")\nQ = Row(name="a", queue="k").queue',
            "k",
        ),
        (
            'Row = namedtuple("Row", "name queue", defaults=["dq"])\nQ = Row("a").queue',
            "dq",
        ),
        (
            'Row = typing.NamedTuple("Row", [("name", str), ("queue", str)])\n'
            'Q = Row("a", "t").queue',
            "t",
        ),
        (
            'Row = namedtuple("Row", "name queue")\n'
            'Q = Row("a", "b")._replace(queue="r").queue + Row("a", "b").queue',
            "rb",
        ),
        (
            'Row = namedtuple("Row", "name queue")\nQ = Row("a", "d")._asdict()["queue"]',
            "d",
        ),
        ('Row = namedtuple("Row", "name queue")\nn, Q = Row("a", "u")', "u"),
        ('Row = namedtuple("Row", "name queue")\nQ = Row("a", "i")[1]', "i"),
        (
            'Row = namedtuple("Row", "name queue")\n'
            'Q = "".join(Row("a", "b")) + Row("a", "b")._fields[1]',
            "abqueue",
        ),
        (
            "class Row(typing.NamedTuple):\n    name: str\n    queue: str = 'k'\nn, Q = Row('a')",
            "k",
        ),
    ],
)
def test_named_tuples(tmp_path: Path, body: str, expected: str) -> None:
    assert value(queue_of(body, tmp_path), "queue") == expected


def test_named_tuple_that_python_refuses_is_unknown(tmp_path: Path) -> None:
    task = queue_of('Row = namedtuple("Row", "name _queue")\nQ = Row("a", "b")._queue', tmp_path)
    assert "fields are not known" in dict(task.unresolved)["queue"]


def test_instance_built_in_a_loop_of_configs(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
Cfg = collections.namedtuple("Cfg", ["name", "queue"])
with DAG("d"):
    for c in [Cfg("a", "qa"), Cfg("b", "qb")]:
        BashOperator(task_id=c.name, bash_command="x", queue=c.queue)
    BashOperator(task_id="f", bash_command="x", queue=S.queue, pool=S.pool_name)
""",
    )
    assert value(tasks["a"], "queue") == "qa"
    assert value(tasks["b"], "queue") == "qb"
    assert value(tasks["f"], "queue") == "q_prod"
    assert value(tasks["f"], "pool") == "p_prod"


def test_method_that_builds_tasks_is_run(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
class Builder:
    def __init__(self, queue):
        self.queue = queue

    def build(self, name):
        return BashOperator(task_id=name, bash_command="x", queue=self.queue)

with DAG("d"):
    Builder("built").build("one")
""",
    )
    assert value(tasks["one"], "queue") == "built"
