"""Deferral: which tasks hand their wait to the triggerer, and which default_args reach them."""

from datetime import datetime, time, timedelta

from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator
from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.trigger_dagrun import TriggerDagRunOperator
from airflow.providers.standard.sensors.date_time import DateTimeSensorAsync
from airflow.providers.standard.sensors.python import PythonSensor
from airflow.providers.standard.sensors.time import TimeSensor, TimeSensorAsync
from airflow.providers.standard.sensors.time_delta import TimeDeltaSensor, WaitSensor
from airflow.sdk import DAG, TaskGroup, task

WAIT = {"deferrable": True}

with DAG(
    dag_id="deferral",
    schedule=None,
    start_date=datetime(2024, 1, 1),
    default_args={"deferrable": True, "mode": "reschedule"},
):
    # default_args reach deferrable only where __init__ names it.
    TimeDeltaSensor(task_id="sensor_from_default_args", delta=timedelta(minutes=5))
    WaitSensor(task_id="wait_from_default_args", time_to_wait=timedelta(minutes=5))
    BashOperator(task_id="bash_ignores_it", bash_command="true")
    PythonSensor(task_id="python_sensor_ignores_it", python_callable=bool)
    TriggerDagRunOperator(task_id="trigger_run", trigger_dag_id="other")
    KubernetesPodOperator(task_id="pod", name="p", image="busybox")
    TimeDeltaSensor(task_id="explicit_off", delta=timedelta(minutes=5), deferrable=False)
    TimeDeltaSensor(task_id="from_spread", delta=timedelta(minutes=5), **WAIT)
    # *Async classes and start_from_trigger.
    TimeSensorAsync(task_id="time_async", target_time=time(6))
    DateTimeSensorAsync(task_id="datetime_async", target_time="2024-01-01T06:00:00")
    TimeSensor(task_id="started_by_scheduler", target_time=time(6), start_from_trigger=True)
    # A classic mapped operator keeps only BaseOperator keys from default_args.
    TimeDeltaSensor.partial(task_id="mapped_without").expand(delta=[timedelta(minutes=1)])
    TimeDeltaSensor.partial(task_id="mapped_with", deferrable=True).expand(
        delta=[timedelta(minutes=1)]
    )

    @task
    def plain() -> None:
        pass

    plain()

    with TaskGroup("quiet", default_args={"deferrable": False}):
        TimeDeltaSensor(task_id="group_turns_it_off", delta=timedelta(minutes=5))
