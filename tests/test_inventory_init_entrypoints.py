"""``inventory init`` on compose services that start Airflow from a script of the project
(``entrypoint: /opt/airflow/scripts/start.sh``), read as text and never run."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from dagroute_lint.deployment.toml import toml


@pytest.fixture(autouse=True)
def clean_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith(("AIRFLOW", "_PIP_", "COMPOSE_")):
            monkeypatch.delenv(name)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["inventory", "init", *args])
    return result.exit_code, result.stdout, result.stderr


def test_a_mounted_script_running_airflow_standalone(tmp_path: Path) -> None:
    write(
        tmp_path / "docker-compose.yml",
        """
        services:
          db:
            image: postgres:15
          airflow:
            image: apache/airflow:2.10.5-python3.11
            env_file: .env-base
            volumes:
              - ./dags:/opt/airflow/dags
              - ./scripts:/opt/airflow/scripts:ro
            entrypoint: /opt/airflow/scripts/start.sh
        """,
    )
    write(
        tmp_path / ".env-base",
        "AIRFLOW__CORE__EXECUTOR=CeleryExecutor\n"
        "AIRFLOW__DATABASE__SQL_ALCHEMY_CONN=postgresql+psycopg2://airflow:airflow@db/airflow\n",
    )
    script = write(
        tmp_path / "scripts" / "start.sh",
        """
        #!/usr/bin/env bash
        set -euo pipefail
        airflow db migrate  # airflow scheduler would be a comment here
        exec /entrypoint "standalone"
        """,
    )
    code, out, err = invoke("--compose", str(tmp_path / "docker-compose.yml"))
    assert code == 0, err
    deployment = toml.loads(out)["deployment"]
    # standalone forces a local executor over the configured Celery one, as Airflow does.
    assert deployment["executors"] == ["LocalExecutor"]
    assert deployment["triggerer"] is True
    assert f"from {script}:4 (run by" in out.replace("\n#   ", " ")


def test_a_script_the_build_copies_and_a_bash_c_command(tmp_path: Path) -> None:
    write(
        tmp_path / "Dockerfile",
        """
        FROM apache/airflow:3.0.2
        COPY --chown=airflow:root scripts/ /opt/airflow/scripts/
        """,
    )
    write(
        tmp_path / "scripts" / "run-scheduler.sh",
        """
        #!/bin/sh
        airflow dag-processor &
        exec airflow scheduler
        """,
    )
    write(tmp_path / "scripts" / "worker.sh", "exec airflow celery worker -q etl,default\n")
    write(
        tmp_path / "compose.yaml",
        """
        x-common: &common
          build: .
          environment:
            AIRFLOW__CORE__EXECUTOR: CeleryExecutor
        services:
          scheduler:
            <<: *common
            command: bash -c ./scripts/run-scheduler.sh
          worker:
            <<: *common
            entrypoint: ["/bin/bash", "/opt/airflow/scripts/worker.sh"]
        """,
    )
    code, out, err = invoke("--compose", str(tmp_path / "compose.yaml"))
    assert code == 0, err
    document = toml.loads(out)
    assert document["workers"] == [
        {"name": "worker", "queues": ["etl", "default"], "runtime": "base"}
    ]
    assert document["deployment"]["triggerer"] is False


def test_nothing_found_says_where_it_looked_and_what_to_pass(tmp_path: Path) -> None:
    compose = write(
        tmp_path / "compose.yaml",
        """
        services:
          app:
            image: apache/airflow:3.0.2
            entrypoint: /opt/app/start.sh
          db:
            image: postgres:16
        """,
    )
    code, _, err = invoke("--compose", str(compose))
    assert code == 2
    assert "looked at: app (/opt/app/start.sh); db (no command)" in err
    assert "--airflow-cfg or AIRFLOW__CORE__EXECUTOR" in err and "--worker NAME=QUEUES" in err


def test_airflow_config_note_left_out_when_airflow_cfg_is_passed(tmp_path: Path) -> None:
    compose = write(
        tmp_path / "compose.yaml",
        """
        services:
          scheduler:
            image: apache/airflow:3.0.2
            command: scheduler
            environment:
              AIRFLOW_CONFIG: /opt/airflow/airflow.cfg
        """,
    )
    cfg = write(tmp_path / "airflow.cfg", "[core]\nexecutor = LocalExecutor\n")
    _, out, _ = invoke("--compose", str(compose))
    assert "which no bind mount of the service provides" in out.replace("\n#   ", " ")
    output = tmp_path / "dagroute.toml"
    code, _, _ = invoke("--compose", str(compose), "--airflow-cfg", str(cfg), "-o", str(output))
    assert code == 0
    text = output.read_text(encoding="utf-8")
    assert "no bind mount" not in text
    assert toml.loads(text)["deployment"]["executors"] == ["LocalExecutor"]
