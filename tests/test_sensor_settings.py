"""A sensor's ``mode`` and ``timeout`` as the resolver holds them (airflow-semantics §5.3).

Each is a field like a routing one: its value and the level that gave it, ``default`` when the
file sets it nowhere (``poke``, ``[sensors] default_timeout`` of 7 days), and for a value that
cannot be known or is not one Airflow takes, the reason. DRL304 reads them.
"""

from __future__ import annotations

from pathlib import Path

from dagroute_lint.catalog.operator_traits import DEFAULT_SENSOR_TIMEOUT
from dagroute_lint.resolve.tasks import Field, Sensor
from tests.helpers import routes

SOURCE = """
import os
from datetime import timedelta

from airflow.providers.standard.sensors.filesystem import FileSensor
from airflow.sdk import DAG

with DAG("inherits", default_args={"mode": "reschedule", "timeout": timedelta(hours=1)}):
    FileSensor(task_id="from_the_dag", filepath="f")

with DAG("own"):
    FileSensor(task_id="plain", filepath="f")
    FileSensor(task_id="given", filepath="f", mode="reschedule", timeout=600)
    FileSensor(task_id="words", filepath="f", timeout="an hour")
    FileSensor(task_id="from_the_environment", filepath="f", timeout=os.environ["TIMEOUT"])
    FileSensor(task_id="duration_as_mode", filepath="f", mode=timedelta(hours=1))
"""

POKE = Field("poke", True, "default")
SEVEN_DAYS = Field(DEFAULT_SENSOR_TIMEOUT, True, "default")


def sensors(tmp_path: Path) -> dict[str, Sensor | None]:
    return {task_id: task.sensor for task_id, task in routes(tmp_path, SOURCE).items()}


def test_a_sensor_given_nothing_pokes_for_the_default_timeout(tmp_path: Path) -> None:
    sensor = sensors(tmp_path)["plain"]
    assert sensor == Sensor(POKE, SEVEN_DAYS)
    assert sensor is not None and not sensor.mode.explicit and not sensor.timeout.explicit


def test_mode_and_timeout_keep_the_level_that_gave_them(tmp_path: Path) -> None:
    found = sensors(tmp_path)
    assert found["from_the_dag"] == Sensor(
        Field("reschedule", True, "DAG default_args"), Field(3600.0, True, "DAG default_args")
    )
    assert found["given"] == Sensor(
        Field("reschedule", True, "argument"), Field(600.0, True, "argument")
    )


def test_a_timeout_that_is_not_a_number_is_unknown(tmp_path: Path) -> None:
    assert sensors(tmp_path)["words"] == Sensor(
        POKE, Field(None, False, "argument", "not a number of seconds")
    )


def test_a_timeout_that_cannot_be_known_says_why(tmp_path: Path) -> None:
    assert sensors(tmp_path)["from_the_environment"] == Sensor(
        POKE, Field(None, False, "argument", "environment variable (os.environ)")
    )


def test_a_duration_is_not_a_mode(tmp_path: Path) -> None:
    """Airflow takes only ``poke`` or ``reschedule``; the reason names the field."""
    assert sensors(tmp_path)["duration_as_mode"] == Sensor(
        Field(None, False, "argument", "a timedelta, which is not a valid mode"), SEVEN_DAYS
    )
