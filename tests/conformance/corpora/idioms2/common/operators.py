"""The repository's own operator subclasses; each one sets routing its own way."""

from airflow.models.baseoperator import BaseOperator
from airflow.operators.bash import BashOperator


class SparkSubmitLite(BashOperator):
    """Spark jobs always go to the spark queue unless the caller says otherwise."""

    def __init__(self, *, app, **kwargs):
        kwargs.setdefault("queue", "spark")
        kwargs.setdefault("pool", "spark_slots")
        super().__init__(bash_command=f"spark-submit {app}", **kwargs)


class PodJob(BashOperator):
    """A job that always runs in its own pod."""

    def __init__(self, *, image, executor="KubernetesExecutor", **kwargs):
        super().__init__(bash_command=f"run {image}", executor=executor, **kwargs)


class ReportJob(BaseOperator):
    """Reports share one queue and take two slots of the reports pool."""

    def __init__(self, report, **kwargs):
        super().__init__(queue="reports", pool="reports", pool_slots=2, **kwargs)
        self.report = report

    def execute(self, context):
        return self.report


class ClassQueueOperator(BashOperator):
    """Sets queue as a class attribute (BaseOperator.__init__ assigns self.queue over it)."""

    queue = "class-attr-queue"
