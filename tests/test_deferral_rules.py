"""Deferral and sensors: the resolved ``deferrable``, DRL303 and the opt-in DRL304."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dagroute_lint.config import Settings
from dagroute_lint.formatters.routes import format_routes_json
from tests.helpers import CELERY_K8S, by_code, codes, lint_repo, routes

HEADER = """
from datetime import timedelta
from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator
from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.sensors.date_time import DateTimeSensorAsync
from airflow.providers.standard.sensors.filesystem import FileSensor
from airflow.providers.standard.sensors.python import PythonSensor
from airflow.providers.standard.sensors.time import TimeSensor, TimeSensorAsync
from airflow.providers.amazon.aws.sensors.s3 import S3KeySensor
from airflow.sdk import DAG, task
"""
WITH_TRIGGERER = CELERY_K8S.replace("triggerer = false", 'triggerer = { runtime = "base" }')


def dag_file(body: str) -> dict[str, str]:
    return {"dags/dag.py": HEADER + body}


def deferrable(tmp_path: Path, body: str) -> dict[str, object]:
    """Task id → resolved ``deferrable`` value, ``"?"`` when unresolved."""
    tasks = routes(tmp_path, HEADER + body)
    result: dict[str, object] = {}
    for task_id, task in tasks.items():
        field = task.fields["deferrable"]
        result[task_id] = field.value if field.known else "?"
    return result


def test_explicit_class_and_start_from_trigger(tmp_path: Path) -> None:
    assert deferrable(
        tmp_path,
        """
with DAG("lab"):
    TimeSensor(task_id="explicit", target_time=None, deferrable=True)
    TimeSensor(task_id="off", target_time=None, deferrable=False)
    TimeSensor(task_id="unset", target_time=None)
    TimeSensorAsync(task_id="async_class", target_time=None)
    DateTimeSensorAsync(task_id="async_dt", target_datetime="x")
    FileSensor(task_id="from_trigger", filepath="f", start_from_trigger=True)
    KubernetesPodOperator(task_id="pod", name="p", image="i", deferrable=True)
""",
    ) == {
        "explicit": True,
        "off": False,
        "unset": False,
        "async_class": True,
        "async_dt": True,
        "from_trigger": True,
        "pod": True,
    }


def test_default_args_reach_only_operators_that_take_deferrable(tmp_path: Path) -> None:
    # Airflow 3.3: default_args={"deferrable": True} does nothing to BashOperator (exp9).
    assert deferrable(
        tmp_path,
        """
import os
with DAG("lab", default_args={"deferrable": True}):
    TimeSensor(task_id="sensor", target_time=None)
    BashOperator(task_id="bash", bash_command="x")
    PythonSensor(task_id="python_sensor", python_callable=print)
    S3KeySensor(task_id="s3", bucket_key="k")
    TimeSensor(task_id="overridden", target_time=None, deferrable=False)
    TimeSensor(task_id="env", target_time=None, deferrable=os.environ["D"])

    @task
    def plain():
        pass
    plain()

    @task.kubernetes(image="i")
    def in_pod():
        pass
    in_pod()
""",
    ) == {
        "sensor": True,
        "bash": False,
        "python_sensor": False,
        "s3": "?",  # a provider class we hold no __init__ facts for: honest unknown
        "overridden": False,
        "env": "?",
        "plain": False,
        "in_pod": True,
    }


def test_unknown_deferrable_is_listed_as_unresolved_in_routes(tmp_path: Path) -> None:
    source = """
with DAG("lab", default_args={"deferrable": True}):
    S3KeySensor(task_id="s3", bucket_key="k")
    TimeSensorAsync(task_id="wait", target_time=None)
"""
    report = lint_repo(tmp_path, {"dags/dag.py": HEADER + source}, inventory=None)
    document = json.loads(format_routes_json(report.repository))
    s3, wait = document["tasks"]
    assert (s3["deferrable"], "deferrable" in s3["unresolved"]) == (None, True)
    assert "only if its __init__ takes it" in s3["reasons"]["deferrable"]
    assert (wait["deferrable"], wait["unresolved"]) == (True, [])


def test_deferrable_without_triggerer(tmp_path: Path) -> None:
    files = dag_file("""
with DAG("lab", default_args={"deferrable": True}):
    TimeSensor(task_id="by_default_args", target_time=None)
    TimeSensorAsync(task_id="by_class", target_time=None)
    FileSensor(task_id="by_trigger", filepath="f", start_from_trigger=True)
    BashOperator(task_id="bash", bash_command="x")
""")
    report = lint_repo(tmp_path, files)
    assert [d.message for d in by_code(report, "DRL303")] == [
        f"task '{task}' in dag 'lab' defers to the triggerer ({why}), but the deployment runs "
        "no triggerer; the task stays DEFERRED and never resumes"
        for task, why in [
            ("by_default_args", "deferrable=True from DAG default_args"),
            ("by_class", "TimeSensorAsync always defers"),
            ("by_trigger", "start_from_trigger=True"),
        ]
    ]
    assert by_code(lint_repo(tmp_path, files, inventory=WITH_TRIGGERER), "DRL303") == []


SENSORS = """
import os
HOURS = int(os.environ["HOURS"])
with DAG("lab"):
    PythonSensor(task_id="forever", python_callable=print)
    PythonSensor(task_id="long", python_callable=print, timeout=2 * 60 * 60)
    PythonSensor(task_id="short", python_callable=print, timeout=600)
    PythonSensor(task_id="none_timeout", python_callable=print, timeout=None)
    PythonSensor(task_id="rescheduled", python_callable=print, mode="reschedule")
    PythonSensor(task_id="timedelta", python_callable=print, timeout=timedelta(hours=3))
    PythonSensor(task_id="short_timedelta", python_callable=print, timeout=timedelta(minutes=10))
    PythonSensor(task_id="env_timedelta", python_callable=print, timeout=timedelta(hours=HOURS))
    TimeSensor(task_id="deferrable_kind", target_time=None)
    TimeSensor(task_id="deferred", target_time=None, deferrable=True)

    @task.sensor(poke_interval=60)
    def flow_sensor():
        return True
    flow_sensor()

    @task.sensor(mode="reschedule")
    def flow_rescheduled():
        return True
    flow_rescheduled()
"""


def test_poke_sensor_holds_slot(tmp_path: Path) -> None:
    report = lint_repo(tmp_path, dag_file(SENSORS), inventory=WITH_TRIGGERER)
    found = {d.message.split("'")[1]: d.message for d in by_code(report, "DRL304")}
    # A timedelta of an environment value is an unknown timeout: not reported.
    assert sorted(found) == [
        "deferrable_kind",
        "flow_sensor",
        "forever",
        "long",
        "none_timeout",
        "timedelta",
    ]
    assert found["forever"] == (
        "task 'forever' in dag 'lab' waits in poke mode for up to 7 days (the default timeout), "
        'holding a worker slot and a pool slot the whole time; set mode="reschedule" to free '
        "both slots between pokes"
    )
    assert "up to 2 hours (its timeout)" in found["long"]
    assert "up to 3 hours (its timeout)" in found["timedelta"]
    assert found["deferrable_kind"].endswith(
        "a triggerer runs: set deferrable=True to wait without a worker"
    )


def test_poke_sensor_without_triggerer_suggests_reschedule(tmp_path: Path) -> None:
    report = lint_repo(tmp_path, dag_file(SENSORS))
    (time_sensor,) = [
        d for d in by_code(report, "DRL304") if d.message.startswith("task 'deferrable_kind'")
    ]
    assert time_sensor.message.endswith('set mode="reschedule" to free both slots between pokes')


def test_mode_from_default_args(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab", default_args={"mode": "reschedule"}):
    PythonSensor(task_id="a", python_callable=print)
    PythonSensor(task_id="b", python_callable=print, mode="poke")
"""),
    )
    assert [d.message.split("'")[1] for d in by_code(report, "DRL304")] == ["b"]


@pytest.mark.parametrize(
    ("select", "extend", "runs"),
    [
        ((), (), False),  # the default selection leaves the opt-in rule out
        ((), ("DRL304",), True),
        (("ALL",), (), True),
        (("DRL3",), (), True),
        (("DRL1",), (), False),
    ],
)
def test_poke_sensor_rule_is_opt_in(
    select: tuple[str, ...], extend: tuple[str, ...], runs: bool
) -> None:
    codes_run = Settings(root=Path(), select=select, extend_select=extend).selected_codes()
    assert ("DRL304" in codes_run) is runs
    assert ("DRL303" in codes_run) is (select != ("DRL1",))


def test_default_selection_reports_no_poke_sensor(tmp_path: Path) -> None:
    report = lint_repo(tmp_path, dag_file(SENSORS), inventory=WITH_TRIGGERER, select=())
    assert "DRL304" not in codes(report)
