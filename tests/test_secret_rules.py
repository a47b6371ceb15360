"""DRL401 hardcoded-credential and DRL402 undeclared-connection."""

from __future__ import annotations

from pathlib import Path

import pytest

from dagroute_lint.rules.secrets import secret_name, stands_in, uri_passwords
from tests.helpers import CELERY_K8S, by_code, lint_repo

HEADER = """
import os
from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator
from airflow.sdk import DAG, TaskGroup, task
"""
WITH_CONNECTIONS = CELERY_K8S + '\n[connections]\nids = ["warehouse", "aws_default"]\n'


def dag_file(body: str) -> dict[str, str]:
    return {"dags/dag.py": HEADER + body}


@pytest.mark.parametrize(
    ("name", "secret"),
    [
        ("password", True),
        ("db_password", True),
        ("PASSWD", True),
        ("api_key", True),
        ("apiKey", True),
        ("clientSecret", True),
        ("AWS_SECRET_ACCESS_KEY", True),
        ("auth_token", True),
        ("private-key", True),
        ("Authorization", True),
        ("token_url", False),
        ("secret_name", False),
        ("aws_access_key_id", False),
        ("max_tokens", False),
        ("password_conn_id", False),
        ("passwords_file", False),
    ],
)
def test_secret_names(name: str, secret: bool) -> None:
    assert secret_name(name) is secret


@pytest.mark.parametrize(
    ("value", "stands_in_for_a_secret"),
    [
        ("{{ var.value.db_password }}", True),
        ("{{ conn.warehouse.password }}", True),
        ("****", True),
        ("xxxxxxxx", True),
        ("<your token>", True),
        ("${DB_PASSWORD}", True),
        ("$DB_PASSWORD", True),
        ("%(password)s", True),
        ("changeme", True),
        ("hunter2", False),
        ("s3cr3t-Value!", False),
    ],
)
def test_placeholders(value: str, stands_in_for_a_secret: bool) -> None:
    assert stands_in(value) is stands_in_for_a_secret


def test_uri_passwords_are_masked() -> None:
    text = "psql postgresql://etl:hunter2@db:5432/x && redis-cli -u redis://:p4ss@cache:6379"
    assert list(uri_passwords(text)) == ["postgresql://etl:****@", "redis://:****@"]
    assert list(uri_passwords("https://example.com/a:b@c")) == []
    assert list(uri_passwords("postgres://etl:{{ conn.db.password }}@db")) == []
    assert list(uri_passwords("mysql://etl@db/x")) == []


def test_uri_pattern_on_long_hostile_input_is_still_a_plain_scan() -> None:
    # Runs of the pattern's character classes without the closing '@': nothing to find.
    hostile = "a://" + "b" * 50_000 + ":" + "c" * 50_000 + ("://" * 10_000)
    assert list(uri_passwords(hostile)) == []


def test_hardcoded_credentials_in_arguments_default_args_and_uris(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
SECRET = "hunter2"
with DAG("lab", default_args={"api_key": "abc123def"}):
    BashOperator(task_id="a", bash_command="curl https://bot:t0ken@api.example.com/x")
    BashOperator(task_id="b", bash_command="x", env={"DB_PASSWORD": SECRET, "HOME": "/root"})
    BashOperator(task_id="c", bash_command="x", password="{{ var.value.pw }}")
    BashOperator(task_id="d", bash_command="x", env={"TOKEN": os.environ["TOKEN"]})
    BashOperator(task_id="e", bash_command="x", env={"TOKEN": ""})
"""),
    )
    found = [(d.line, d.message) for d in by_code(report, "DRL401")]
    tail = (
        "; anyone who can read the DAG files or the task's rendered arguments sees it: read it "
        "from an Airflow connection, Variable or secrets backend instead"
    )
    assert found == [
        # The DAG's default_args reach all five tasks: reported once, where they are written.
        (7, "DAG default_args sets a literal secret in 'api_key'" + tail),
        (
            8,
            "task 'a' in dag 'lab' sets a connection URI with a literal password "
            "(https://bot:****@) in 'bash_command'" + tail,
        ),
        (9, "task 'b' in dag 'lab' sets a literal secret in 'env[\"DB_PASSWORD\"]'" + tail),
    ]
    assert not any("hunter2" in d.message or "t0ken" in d.message for d in report.diagnostics)


def test_undeclared_connections(tmp_path: Path) -> None:
    files = dag_file("""
with DAG("lab", default_args={"aws_conn_id": "aws_prod"}):
    SQLExecuteQueryOperator(task_id="ok", conn_id="warehouse", sql="select 1")
    SQLExecuteQueryOperator(task_id="typo", conn_id="warehous", sql="select 1")
    SQLExecuteQueryOperator(task_id="templated", conn_id="{{ params.conn }}", sql="select 1")
    SQLExecuteQueryOperator(task_id="dynamic", conn_id=os.environ["C"], sql="select 1")
    with TaskGroup("g", default_args={"postgres_conn_id": "pg"}):
        @task.sql(conn_id="warehouse")
        def query():
            return "select 1"
        query()
""")
    report = lint_repo(tmp_path, files, inventory=WITH_CONNECTIONS)
    found = [(d.line, d.message) for d in by_code(report, "DRL402")]
    tail = "; the task fails when it looks the connection up"
    assert found == [
        (
            6,
            "DAG default_args sets aws_conn_id='aws_prod', a connection the deployment does not "
            "declare" + tail,
        ),
        (
            8,
            "task 'typo' in dag 'lab' sets conn_id='warehous', a connection the deployment does "
            "not declare" + tail + "; did you mean 'warehouse'?",
        ),
        (
            11,
            "TaskGroup 'g' default_args sets postgres_conn_id='pg', a connection the deployment "
            "does not declare" + tail,
        ),
    ]
    # Without a [connections] section the rule has nothing to compare against.
    assert by_code(lint_repo(tmp_path, files), "DRL402") == []


def test_tasks_unrolled_from_a_loop_are_each_checked(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab"):
    for name in ["warehouse", "archive", "lake"]:
        SQLExecuteQueryOperator(task_id=f"q_{name}", conn_id=name, sql="select 1")
"""),
        inventory=WITH_CONNECTIONS,
    )
    assert [d.message.split("'")[1] for d in by_code(report, "DRL402")] == ["q_archive", "q_lake"]
