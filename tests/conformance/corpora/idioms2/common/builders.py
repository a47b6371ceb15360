"""A builder class of the repository: its methods build operators, called on an instance."""

from airflow.operators.bash import BashOperator


class ExportBuilder:
    def __init__(self, prefix):
        self.prefix = prefix

    def export(self, table):
        return self.operator(table, "builder_exports")

    def operator(self, table, queue):
        return BashOperator(task_id=f"export_{table}", bash_command="x", queue=queue)


class Pool:
    def __init__(self, conn_id):
        self.conn_id = conn_id

    def connections(self):
        return [self.conn_id]
