"""What a few well-known operator classes accept, which only their ``__init__`` source can tell.

``default_args`` reach an operator key only when some ``__init__`` in its class chain names it
(airflow-semantics §1.1, §5.1): ``default_args={"deferrable": True}`` defers a ``TimeSensor`` and
does nothing to a ``BashOperator``. Classes are matched by class name, whichever import path (an
Airflow 2 shim or the provider module) brought them in. The sets come from ``inspect.signature``
over the ``__init__`` chain of every operator and sensor class in apache-airflow-providers-standard
1.21.0, -cncf-kubernetes 10.25.0, -common-sql and -smtp as installed with Airflow 3.3.2.
"""

from __future__ import annotations

# Classes whose ``__init__`` chain takes ``deferrable``.
ACCEPTS_DEFERRABLE = frozenset(
    {
        "TriggerDagRunOperator",
        "ExternalTaskSensor",
        "FileSensor",
        "TimeSensor",
        "TimeDeltaSensor",
        "WaitSensor",
        "KubernetesJobOperator",
        "KubernetesStartKueueJobOperator",
        "KubernetesPodOperator",
        "SparkKubernetesOperator",
        "GenericTransfer",
    }
)

# Classes whose ``__init__`` chain does not take ``deferrable``: default_args cannot defer them.
REJECTS_DEFERRABLE = frozenset(
    {
        "BashOperator",
        "BaseBranchOperator",
        "BranchDateTimeOperator",
        "EmptyOperator",
        "HITLOperator",
        "ApprovalOperator",
        "HITLBranchOperator",
        "HITLEntryOperator",
        "LatestOnlyOperator",
        "PythonOperator",
        "BranchPythonOperator",
        "ShortCircuitOperator",
        "PythonVirtualenvOperator",
        "BranchPythonVirtualenvOperator",
        "ExternalPythonOperator",
        "BranchExternalPythonOperator",
        "SmoothOperator",
        "BranchDayOfWeekOperator",
        "BashSensor",
        "DateTimeSensor",
        "ExternalTaskMarker",
        "PythonSensor",
        "DayOfWeekSensor",
        "KubernetesDeleteJobOperator",
        "KubernetesPatchJobOperator",
        "KubernetesInstallKueueOperator",
        "KubernetesPodExecOperator",
        "KubernetesResourceBaseOperator",
        "KubernetesCreateResourceOperator",
        "KubernetesDeleteResourceOperator",
        "SparkKubernetesSensor",
        "AnalyticsOperator",
        "BaseSQLOperator",
        "SQLExecuteQueryOperator",
        "SQLColumnCheckOperator",
        "SQLTableCheckOperator",
        "SQLCheckOperator",
        "SQLValueCheckOperator",
        "SQLIntervalCheckOperator",
        "SQLThresholdCheckOperator",
        "BranchSQLOperator",
        "SQLInsertRowsOperator",
        "SQLBulkLoadOperator",
        "SqlSensor",
        "EmailOperator",
    }
)

# The deprecated ``*Async`` sensors pass ``deferrable=True`` themselves or always call
# ``self.defer`` (semantics §5.1); third-party ``*Async`` classes follow the same convention.
ASYNC_SUFFIX = "Async"

# Classes whose ``__init__`` takes ``start_from_trigger``: the scheduler starts their trigger.
ACCEPTS_START_FROM_TRIGGER = frozenset(
    {"FileSensor", "TimeSensor", "TimeSensorAsync", "DateTimeSensorAsync"}
)

# TaskFlow decorators whose operator is a KubernetesPodOperator subclass and so takes
# ``deferrable``; every other decorator builds a Python-callable operator, which never defers.
DEFERRABLE_DECORATORS = frozenset({"kubernetes", "kubernetes_cmd"})

# ``BaseSensorOperator.__init__`` takes these, so default_args reach every sensor with them.
SENSOR_KEYS = frozenset({"mode", "timeout", "poke_interval", "soft_fail", "exponential_backoff"})

# ``[sensors] default_timeout``: a sensor with no ``timeout`` (or ``timeout=None``) waits 7 days.
DEFAULT_SENSOR_TIMEOUT = 7 * 24 * 60 * 60.0


def class_name(operator: str | None) -> str | None:
    """The class name of an operator qualname (``a.b.BashOperator`` → ``BashOperator``)."""
    if operator is None:
        return None
    return operator.rsplit(".", 1)[-1]


def always_defers(name: str | None) -> bool:
    return name is not None and name.endswith(ASYNC_SUFFIX) and len(name) > len(ASYNC_SUFFIX)


def accepts(name: str | None, key: str) -> bool | None:
    """Whether ``key`` in ``default_args`` reaches the class; ``None``: a class we do not know."""
    if key == "deferrable":
        if name in ACCEPTS_DEFERRABLE or always_defers(name):
            return True
        if name in REJECTS_DEFERRABLE:
            return False
        return None
    if key == "start_from_trigger":
        if name in ACCEPTS_START_FROM_TRIGGER:
            return True
        if name in ACCEPTS_DEFERRABLE or name in REJECTS_DEFERRABLE:
            return False
        return None
    if key in SENSOR_KEYS:
        return True if name is not None and name.endswith("Sensor") else None
    return None


def is_sensor(operator: str | None, taskflow: str | None) -> bool:
    """Sensors by convention: a class named ``...Sensor``, or ``@task.sensor``."""
    if taskflow is not None:
        return taskflow == "sensor"
    name = class_name(operator)
    return name is not None and name.endswith("Sensor")
