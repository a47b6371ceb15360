"""``inventory init`` fills ``[environment]`` and ``[variables]``: what DAG files read at parse
time, from compose, Helm values, ``.env`` files and a Variables export, secrets left out."""

from __future__ import annotations

from pathlib import Path

import pytest

from dagroute_lint.deployment.init.parse_values import withheld
from dagroute_lint.deployment.toml import toml
from tests.init_files import clear_shell, invoke, write


@pytest.fixture(autouse=True)
def no_shell_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_shell(monkeypatch)


def generated(*args: str) -> tuple[dict[str, object], str]:
    code, out, err = invoke(*args)
    assert code == 0, err
    return toml.loads(out), out.replace("\n#   ", " ")


COMPOSE = """
x-airflow-common: &common
  image: apache/airflow:2.10.5
  env_file: [airflow.env]
  environment: &env
    AIRFLOW__CORE__EXECUTOR: CeleryExecutor
    AIRFLOW__DATABASE__SQL_ALCHEMY_CONN: postgresql+psycopg2://airflow:airflow@postgres/airflow
    AIRFLOW__CORE__FERNET_KEY: ''
    ENVIRONMENT: production
    AIRFLOW_VAR_SCHEMA: analytics
    AIRFLOW_CONN_WAREHOUSE: postgres://u:p@h/db
    SLACK_TOKEN: abc
    REGION:
services:
  airflow-scheduler:
    <<: *common
    command: scheduler
  airflow-dag-processor:
    <<: *common
    command: dag-processor
  airflow-worker:
    <<: *common
    command: celery worker
    environment:
      <<: *env
      TEAM: workers-own
      WORKER_ONLY: "1"
  airflow-triggerer:
    <<: *common
    command: triggerer
    environment:
      TRIGGERER_ONLY: "1"
"""


def test_compose_gives_what_the_dag_processor_and_workers_share(tmp_path: Path) -> None:
    write(tmp_path / "airflow.env", 'TEAM=data\nAIRFLOW_VAR_TABLES=["a","b"]\n')
    compose = write(tmp_path / "docker-compose.yaml", COMPOSE)
    document, text = generated("--compose", str(compose))
    assert document["environment"] == {
        "AIRFLOW_VAR_TABLES": '["a","b"]',
        "AIRFLOW__CORE__EXECUTOR": "CeleryExecutor",
        "ENVIRONMENT": "production",
        "AIRFLOW_VAR_SCHEMA": "analytics",
    }
    for name, why in (
        ("AIRFLOW__DATABASE__SQL_ALCHEMY_CONN", "looks secret: not copied"),
        ("AIRFLOW__CORE__FERNET_KEY", "looks secret: not copied"),
        ("AIRFLOW_CONN_WAREHOUSE", "looks secret: not copied"),
        ("SLACK_TOKEN", "looks secret: not copied"),
        ("TEAM", "set differently for dag-processor airflow-dag-processor, celery-worker"),
        ("WORKER_ONLY", "set for celery-worker airflow-worker but not for dag-processor"),
        ("REGION", "known only at deploy time"),
    ):
        assert f"# Left out: {name}: {why}" in text
    assert "postgres://u:p@h/db" not in text and "abc" not in text
    # The triggerer parses no DAG file.
    assert "TRIGGERER_ONLY" not in text
    # Variables from the environment count only where no secrets backend is searched first.
    assert "FILL IN [environment] AIRFLOW__SECRETS__BACKEND" in text


def test_a_configured_secrets_backend_is_copied(tmp_path: Path) -> None:
    compose = write(
        tmp_path / "docker-compose.yaml",
        """
        services:
          airflow-scheduler:
            image: apache/airflow:2.10.5
            command: scheduler
            environment:
              AIRFLOW__SECRETS__BACKEND: ""
              AIRFLOW__SECRETS__BACKEND_KWARGS: '{"token": "x"}'
              AIRFLOW_VAR_SCHEMA: raw
        """,
    )
    document, text = generated("--compose", str(compose))
    assert document["environment"] == {"AIRFLOW__SECRETS__BACKEND": "", "AIRFLOW_VAR_SCHEMA": "raw"}
    assert "# Left out: AIRFLOW__SECRETS__BACKEND_KWARGS: looks secret" in text
    assert "FILL IN" not in text.split("[environment]")[1]


HELM = """
executor: CeleryExecutor
env:
  - name: ENVIRONMENT
    value: production
  - name: AIRFLOW_VAR_SCHEMA
    value: analytics
  - name: API_KEY
    value: hunter2
  - name: FROM_CLUSTER
    valueFrom: {secretKeyRef: {name: s, key: k}}
extraEnv: |
  - name: TEAM
    value: data
extraEnvFrom: |
  - configMapRef:
      name: airflow-variables
secret:
  - envName: DB_PASSWORD
    secretName: db
    secretKey: password
dagProcessor:
  enabled: true
  env:
    - name: PARSER_ONLY
      value: "1"
workers:
  env:
    - name: TEAM
      value: data
"""


def test_helm_env_extra_env_and_component_env(tmp_path: Path) -> None:
    values = write(tmp_path / "values.yaml", HELM)
    document, text = generated("--helm-values", str(values))
    assert document["environment"] == {
        "ENVIRONMENT": "production",
        "AIRFLOW_VAR_SCHEMA": "analytics",
        "TEAM": "data",
    }
    assert "hunter2" not in text
    assert "# Left out: API_KEY: looks secret: not copied" in text
    assert "# Left out: FROM_CLUSTER: known only at deploy time" in text
    assert "# Left out: DB_PASSWORD: from a Kubernetes secret" in text
    assert "# Left out: PARSER_ONLY: set for dagProcessor but not for workers" in text
    assert "extraEnvFrom adds variables from config maps or secrets, not read here" in text


def test_env_files_later_winning(tmp_path: Path) -> None:
    first = write(tmp_path / ".env", "ENVIRONMENT=dev\nSCHEMA=raw\nDB_PASSWORD=x\n")
    second = write(tmp_path / "prod.env", "ENVIRONMENT=prod\n")
    document, text = generated(
        "--airflow-cfg", str(write(tmp_path / "airflow.cfg", "[core]\nexecutor = LocalExecutor\n")),
        "--env-file", str(first), "--env-file", str(second),
    )  # fmt: skip
    assert document["environment"] == {"ENVIRONMENT": "prod", "SCHEMA": "raw"}
    assert "# Left out: DB_PASSWORD: looks secret" in text


def test_a_variables_export(tmp_path: Path) -> None:
    export = write(
        tmp_path / "variables.json",
        """
        {"schema": "raw", "tables": ["a", "b"], "limits": {"rows": 5, "ratio": 0.5},
         "described": {"value": "v", "description": "what it is"},
         "db_password": "x", "nothing": null, "flag": true}
        """,
    )
    document, text = generated(
        "--airflow-cfg", str(write(tmp_path / "airflow.cfg", "[core]\nexecutor = LocalExecutor\n")),
        "--variables", str(export),
    )  # fmt: skip
    assert document["variables"] == {
        "schema": "raw",
        "tables": ["a", "b"],
        "limits": {"rows": 5, "ratio": 0.5},
        "described": "v",
        "flag": True,
    }
    assert "# Left out: db_password: looks secret: not copied" in text
    assert "# Left out: nothing: its value is JSON null, which TOML cannot hold" in text


def test_the_environment_wins_over_an_exported_variable(tmp_path: Path) -> None:
    write(tmp_path / "airflow.env", "")
    compose = write(tmp_path / "docker-compose.yaml", COMPOSE)
    export = write(tmp_path / "variables.json", '{"schema": "stale", "tables": ["a", "b"]}')
    document, text = generated("--compose", str(compose), "--variables", str(export))
    assert document["variables"] == {"tables": ["a", "b"]}
    assert "# Left out: schema: AIRFLOW_VAR_SCHEMA" in text


@pytest.mark.parametrize(
    ("name", "value", "secret"),
    [
        ("ENVIRONMENT", "prod", False),
        ("AIRFLOW__SECRETS__BACKEND", "x.Backend", False),
        ("AIRFLOW__SECRETS__BACKEND_KWARGS", "{}", True),
        ("AIRFLOW__CELERY__BROKER_URL", "redis://redis:6379/0", True),
        ("AIRFLOW__DATABASE__SQL_ALCHEMY_CONN_CMD", "cat /run/conn", True),
        ("AIRFLOW__API_AUTH__JWT_SECRET", "x", True),
        ("AIRFLOW_CONN_S3", "aws://", True),
        ("aws_access_key_id", "x", True),
        ("SERVICE_URL", "https://user:pw@host/", True),
        ("HTTPS_PROXY", "http://proxy:3128", True),
        ("AIRFLOW_VAR_WOS_KEY", "see the vault", True),
        ("AIRFLOW_FERNET_KEY", "x", True),
        ("PUBMED_KEY", "", True),
        ("AIRFLOW_VAR_KEYWORDS", "maps,roads", False),
        ("MONKEY", "x", False),
    ],
)
def test_what_looks_secret(name: str, value: str, secret: bool) -> None:
    assert withheld(name, value) is secret


def test_a_local_executors_scheduler_runs_tasks_too(tmp_path: Path) -> None:
    compose = write(
        tmp_path / "docker-compose.yaml",
        """
        x-common: &common
          image: apache/airflow:3.0.2
          environment: &env
            AIRFLOW__CORE__EXECUTOR: LocalExecutor
            ENVIRONMENT: production
        services:
          airflow-dag-processor:
            <<: *common
            command: dag-processor
          airflow-scheduler:
            <<: *common
            command: scheduler
            environment:
              <<: *env
              ENVIRONMENT: staging
        """,
    )
    document, text = generated("--compose", str(compose))
    assert document["environment"] == {"AIRFLOW__CORE__EXECUTOR": "LocalExecutor"}
    assert (
        "# Left out: ENVIRONMENT: set differently for dag-processor airflow-dag-processor, "
        "scheduler airflow-scheduler"
    ) in text
