"""Operator subclasses run up to Airflow's base, sets of literals, Enum members as keys."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import routes, value

HEADER = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, TaskGroup
"""


def unresolved(task: object, field: str) -> str:
    resolved = task.fields[field]  # type: ignore[attr-defined]
    assert not resolved.known, f"{field} resolved to {resolved.value!r}"
    return str(resolved.reason)


def test_signature_default_loses_to_default_args_but_setdefault_wins(tmp_path: Path) -> None:
    """Airflow fills each ``__init__``'s own parameters from default_args; a setdefault on
    ``**kwargs`` happens before the base sees the key, so default_args never reach it."""
    tasks = routes(
        tmp_path,
        HEADER
        + """
class Local(BashOperator):
    def __init__(self, *, pool="local_pool", **kwargs):
        kwargs.setdefault("queue", "own")
        super().__init__(pool=pool, **kwargs)

with DAG("d", default_args={"pool": "dag_pool", "queue": "dag_queue"}):
    Local(task_id="filled", bash_command="x")
    Local(task_id="given", bash_command="x", pool="p", queue="q")
with DAG("e"):
    Local(task_id="plain", bash_command="x")
    with TaskGroup("g", default_args={"pool": "group_pool"}):
        Local(task_id="grouped", bash_command="x")
""",
    )
    assert value(tasks["filled"], "pool") == "dag_pool"
    assert value(tasks["filled"], "queue") == "own"
    assert value(tasks["given"], "pool") == "p"
    assert value(tasks["given"], "queue") == "q"
    assert value(tasks["plain"], "pool") == "local_pool"
    assert value(tasks["g.grouped"], "pool") == "group_pool"
    assert tasks["filled"].operator == "dag.Local"


def test_chain_of_subclasses_and_attribute_after_init(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
class Base(BashOperator):
    queue = "ignored: BaseOperator.__init__ assigns queue"

    def __init__(self, **kwargs):
        kwargs.setdefault("pool", "base_pool")
        super().__init__(**kwargs)
        self.pool_slots = 4

class Child(Base):
    def __init__(self, job, **kwargs):
        super(Child, self).__init__(task_id=f"job_{job}", bash_command=job, **kwargs)

class Leaf(Child):
    pass

with DAG("d"):
    Child("a", queue="q")
    Leaf(job="b")
""",
    )
    # ``Child("a", ...)`` passes an argument by position, which Airflow refuses: not followed.
    assert "job_b" in tasks
    assert value(tasks["job_b"], "queue") == "default"
    assert value(tasks["job_b"], "pool") == "base_pool"
    assert value(tasks["job_b"], "pool_slots") == 4


def test_what_the_walk_cannot_follow_stays_unresolved(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
import os

class Mixin:
    pass

class Mixed(Mixin, BashOperator):
    def __init__(self, **kwargs):
        kwargs.setdefault("queue", "mixed")
        super().__init__(**kwargs)

class Helper(BashOperator):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        configure(self)

class Conditional(BashOperator):
    def __init__(self, **kwargs):
        if os.getenv("BIG"):
            kwargs["queue"] = "big"
        super().__init__(**kwargs)

class Deferring(BashOperator):
    deferrable = True

with DAG("d"):
    Mixed(task_id="mixed", bash_command="x")
    Helper(task_id="helper", bash_command="x")
    Conditional(task_id="conditional", bash_command="x")
    Deferring(task_id="deferring", bash_command="x")
""",
    )
    assert "Mixed" in unresolved(tasks["mixed"], "queue")
    assert "not followed" in unresolved(tasks["helper"], "queue")
    # kwargs changed under a condition: the task is read from the call, the class's routing
    # is not known.
    assert "Conditional" in unresolved(tasks["conditional"], "queue")
    assert "deferrable" in unresolved(tasks["deferring"], "deferrable")
    assert value(tasks["deferring"], "queue") == "default"


def test_class_from_another_module_runs_there(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
from lib.ops import PodJob
with DAG("d", default_args={"executor": "LocalExecutor"}):
    PodJob(task_id="from_defaults", image="i")
with DAG("e"):
    PodJob(task_id="own_default", image="i")
    PodJob(task_id="given", image="i", executor="CeleryExecutor")
""",
        extra={
            "dags/lib/__init__.py": "",
            "dags/lib/ops.py": """
from airflow.providers.standard.operators.bash import BashOperator

POOL = "pods"

class PodJob(BashOperator):
    def __init__(self, *, image, executor="KubernetesExecutor", **kwargs):
        super().__init__(bash_command=f"run {image}", executor=executor, pool=POOL, **kwargs)
""",
        },
    )
    assert value(tasks["from_defaults"], "executor") == "LocalExecutor"
    assert value(tasks["own_default"], "executor") == "KubernetesExecutor"
    assert value(tasks["given"], "executor") == "CeleryExecutor"
    assert value(tasks["given"], "pool") == "pods"


def test_set_membership_decides_branches(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
HEAVY = {"b", "c"}
LIGHT = frozenset(["a"]) | {"d"}
BOTH = HEAVY & {"c", "z"}
HEAVY.add("e")
with DAG("d"):
    for model in ["a", "b", "c", "d", "e"]:
        if model in HEAVY:
            BashOperator(task_id=model, bash_command="x", queue="heavy")
        else:
            BashOperator(
                task_id=model,
                bash_command="x",
                queue="light" if model in LIGHT else "other",
                pool_slots=len(HEAVY) if model in BOTH else 1,
            )
    for name in {"s1", "s2"} - {"s2"}:
        BashOperator(task_id=name, bash_command="x", pool_slots=len({1, 1.0, True}))
""",
    )
    assert {name: value(tasks[name], "queue") for name in "abcde"} == {
        "a": "light",
        "b": "heavy",
        "c": "heavy",
        "d": "light",
        "e": "heavy",
    }
    assert not tasks["a"].task.conditional
    assert value(tasks["s1"], "pool_slots") == 1
    assert "s2" not in tasks


def test_set_changed_under_a_condition_is_not_known(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
import os
HEAVY = {"b"}
if os.getenv("X"):
    HEAVY.add("a")
with DAG("d"):
    BashOperator(task_id="a", bash_command="x", queue="heavy" if "a" in HEAVY else "light")
""",
    )
    assert "a" in tasks
    assert not tasks["a"].fields["queue"].known


def test_enum_members_as_keys_and_identity(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
from lib.tiers import QUEUES, Tier, unused

unused()  # calling into lib.tiers gives the walk its source: its Enum's members are known
PARTNERS = {Tier.GOLD: ["acme"], Tier.BRONZE: ["wonka"]}
with DAG("d"):
    for tier, partners in PARTNERS.items():
        with TaskGroup(tier.value):
            for partner in partners:
                BashOperator(
                    task_id=partner,
                    bash_command="x",
                    queue=QUEUES[tier],
                    pool_slots=2 if tier is Tier.GOLD else 1,
                )
""",
        extra={
            "dags/lib/__init__.py": "",
            "dags/lib/tiers.py": """
import enum

class Tier(enum.Enum):
    GOLD = "gold"
    BRONZE = "bronze"

QUEUES = {Tier.GOLD: "q-gold", Tier.BRONZE: "q-bronze"}

def unused():
    pass
""",
        },
    )
    assert value(tasks["gold.acme"], "queue") == "q-gold"
    assert value(tasks["gold.acme"], "pool_slots") == 2
    assert value(tasks["bronze.wonka"], "queue") == "q-bronze"
    assert value(tasks["bronze.wonka"], "pool_slots") == 1


def test_records_bind_fields_as_their_init_does(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
from dataclasses import dataclass, field
from typing import NamedTuple

@dataclass
class Job:
    name: str
    queue: str = "jobs"

class Route(NamedTuple):
    queue: str
    pool: str = "routes"

@dataclass
class Factory:
    name: str
    tags: list = field(default_factory=list)

job = Job("a")
job.queue = "changed"
with DAG("d"):
    for each in (job, Job("b", "fast"), Job(name="c")):
        BashOperator(task_id=each.name, bash_command="x", queue=each.queue)
    route = Route("r")
    BashOperator(task_id="route", bash_command="x", queue=route.queue, pool=route.pool)
    BashOperator(task_id="factory", bash_command="x", queue=Factory("f").name)
""",
    )
    assert value(tasks["a"], "queue") == "changed"
    assert value(tasks["b"], "queue") == "fast"
    assert value(tasks["c"], "queue") == "jobs"
    assert value(tasks["route"], "pool") == "routes"
    assert not tasks["factory"].fields["queue"].known  # field(...) defaults are not followed


def test_record_given_to_code_not_followed_is_not_known(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
from dataclasses import dataclass
import mylib

@dataclass
class Job:
    queue: str

job = Job("a")
mylib.tune(job)
with DAG("d"):
    BashOperator(task_id="t", bash_command="x", queue=job.queue)
""",
    )
    assert "may have been changed" in unresolved(tasks["t"], "queue")


def test_dag_subclass_tasks_from_init(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
class Monitored(DAG):
    def __init__(self, dag_id, **kwargs):
        super().__init__(dag_id, **kwargs)
        BashOperator(task_id="heartbeat", bash_command="beat", queue="monitoring", dag=self)

with Monitored("m", default_args={"pool": "p"}):
    BashOperator(task_id="work", bash_command="x")
""",
    )
    assert value(tasks["heartbeat"], "queue") == "monitoring"
    assert value(tasks["heartbeat"], "pool") == "p"
    assert tasks["heartbeat"].dag_id == "m"
    assert value(tasks["work"], "pool") == "p"
