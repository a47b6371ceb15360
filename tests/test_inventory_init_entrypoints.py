"""``inventory init`` on compose services that start Airflow from a script of the project
(``entrypoint: /opt/airflow/scripts/start.sh``), read as text and never run."""

from __future__ import annotations

from pathlib import Path

import pytest

from dagroute_lint.deployment.init.dockerfile import ImageCommand, read_dockerfile
from dagroute_lint.deployment.toml import toml
from tests.init_files import clear_shell, invoke, write


@pytest.fixture(autouse=True)
def clean_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_shell(monkeypatch)


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


def test_an_airflow_cfg_mounted_where_airflow_home_holds_it(tmp_path: Path) -> None:
    # No AIRFLOW_CONFIG: Airflow reads $AIRFLOW_HOME/airflow.cfg, here the project's file.
    compose = write(
        tmp_path / "compose.yaml",
        """
        x-common: &common
          image: apache/airflow:2.10.5
          volumes:
            - ./airflow.cfg:/opt/airflow/airflow.cfg
            - ./dags:/opt/airflow/dags
        services:
          scheduler:
            <<: *common
            command: scheduler
          worker:
            <<: *common
            command: celery worker
        """,
    )
    write(tmp_path / "airflow.cfg", "[core]\nexecutor = CeleryExecutor\n")
    output = tmp_path / "dagroute.toml"
    code, _, err = invoke("--compose", str(compose), "-o", str(output))
    assert code == 0, err
    inventory = toml.loads(output.read_text(encoding="utf-8"))
    assert inventory["deployment"]["executors"] == ["CeleryExecutor"]
    assert [worker["queues"] for worker in inventory["workers"]] == [["default"]]


def test_an_unmounted_airflow_home_config_is_the_images_own(tmp_path: Path) -> None:
    compose = write(
        tmp_path / "compose.yaml",
        """
        services:
          airflow-scheduler:
            volumes: ["./dags:/opt/airflow/dags"]
            image: apache/airflow:3.0.2
            command: scheduler
        """,
    )
    output = tmp_path / "dagroute.toml"
    code, _, err = invoke("--compose", str(compose), "-o", str(output))
    assert code == 0, err
    text = output.read_text(encoding="utf-8")
    assert "airflow.cfg" not in text and "airflow.cfg" not in err
    assert toml.loads(text)["deployment"]["executors"] == ["LocalExecutor"]


def test_the_images_own_entrypoint_runs_a_script_a_bind_mount_replaces(tmp_path: Path) -> None:
    write(
        tmp_path / "Dockerfile",
        """
        FROM apache/airflow:2.10.5-python3.12
        USER root
        COPY docker/prod-entrypoint.sh /entrypoint.sh
        RUN chmod +x /entrypoint.sh
        USER airflow
        ENTRYPOINT ["/usr/bin/dumb-init", "--", "/entrypoint.sh"]
        """,
    )
    # The image's script would run the scheduler; the one compose mounts over it runs standalone.
    write(tmp_path / "docker" / "prod-entrypoint.sh", "#!/bin/bash\nexec airflow scheduler\n")
    dev = write(
        tmp_path / "docker" / "dev-entrypoint.sh",
        """
        #!/bin/bash
        set -e
        airflow db migrate
        airflow users create --role Admin --username admin || true
        exec /entrypoint "standalone"
        """,
    )
    compose = write(
        tmp_path / "compose.yaml",
        """
        services:
          airflow:
            build: .
            ports: ["8080:8080"]
            volumes:
              - ./docker/dev-entrypoint.sh:/entrypoint.sh
              - ./dags:/opt/airflow/dags
        """,
    )
    code, out, err = invoke("--compose", str(compose))
    assert code == 0, err
    assert toml.loads(out)["deployment"]["triggerer"] is True
    flat = out.replace("\n#   ", " ")
    assert (
        f"{dev}:5 (run by {compose}: services.airflow through {tmp_path / 'Dockerfile'}:6" in flat
    )


def test_the_images_cmd_on_the_official_entrypoint(tmp_path: Path) -> None:
    write(
        tmp_path / "Dockerfile",
        """
        FROM apache/airflow:3.0.2
        ENV AIRFLOW__CORE__EXECUTOR=LocalExecutor
        CMD ["standalone"]
        """,
    )
    compose = write(tmp_path / "compose.yaml", "services:\n  airflow:\n    build: .\n")
    code, out, err = invoke("--compose", str(compose))
    assert code == 0, err
    document = toml.loads(out)
    assert document["deployment"]["executors"] == ["LocalExecutor"]
    assert document["deployment"]["triggerer"] is True
    assert "Dockerfile:3 CMD (run by" in out.replace("\n#   ", " ")


def test_a_start_script_sourcing_a_settings_file_sets_what_airflow_reads(tmp_path: Path) -> None:
    write(
        tmp_path / "Dockerfile",
        """
        FROM apache/airflow:2.10.5-python3.12
        COPY --chown=airflow:root . ./
        COPY start.sh /start.sh
        ENTRYPOINT ["/usr/bin/dumb-init", "--", "/start.sh"]
        """,
    )
    write(
        tmp_path / "start.sh",
        """
        #!/bin/bash
        set -o allexport
        source settings.env
        set +o allexport
        . extra.env
        export AIRFLOW__OPERATORS__DEFAULT_QUEUE=etl
        exec /entrypoint standalone
        """,
    )
    write(tmp_path / "settings.env", "AIRFLOW__CORE__EXECUTOR=LocalExecutor\nREGION=eu\n")
    # Sourced without allexport: only a name already exported reaches Airflow.
    write(tmp_path / "extra.env", "REGION=us\nSCRATCH=1\n")
    compose = write(tmp_path / "compose.yaml", "services:\n  airflow:\n    build: .\n")
    code, out, err = invoke("--compose", str(compose))
    assert code == 0, err
    document = toml.loads(out)
    assert document["deployment"]["executors"] == ["LocalExecutor"]
    assert document["deployment"]["default_queue"] == "etl"
    assert document["environment"]["REGION"] == "us"
    assert "SCRATCH" not in document["environment"]
    said = out.replace("\n#   ", " ")
    assert "settings.env: AIRFLOW__CORE__EXECUTOR (sourced at " in said and "start.sh:3)" in said


def test_a_sourced_file_that_is_not_there_is_said(tmp_path: Path) -> None:
    write(tmp_path / "Dockerfile", "FROM apache/airflow:3.0.2\nCOPY start.sh /start.sh\n")
    write(
        tmp_path / "start.sh", "set -a\nsource /run/secrets/airflow.env\nexec airflow scheduler\n"
    )
    compose = write(
        tmp_path / "compose.yaml",
        "services:\n  scheduler:\n    build: .\n    entrypoint: /start.sh\n",
    )
    code, out, err = invoke("--compose", str(compose))
    assert code == 0, err
    assert "sources /run/secrets/airflow.env, which is not read" in out.replace("\n#   ", " ")


def test_a_compose_command_replaces_the_images_shell_form_cmd(tmp_path: Path) -> None:
    write(
        tmp_path / "Dockerfile",
        """
        FROM apache/airflow:3.0.2
        CMD airflow scheduler
        """,
    )
    compose = write(
        tmp_path / "compose.yaml",
        """
        x-airflow: &airflow
          build: .
          environment:
            AIRFLOW__CORE__EXECUTOR: CeleryExecutor
        services:
          scheduler: *airflow
          worker:
            <<: *airflow
            command: celery worker -q reports
        """,
    )
    code, out, err = invoke("--compose", str(compose))
    assert code == 0, err
    document = toml.loads(out)
    assert document["workers"] == [{"name": "worker", "queues": ["reports"], "runtime": "base"}]
    assert "Dockerfile:2 CMD (run by" in out.replace("\n#   ", " ")


def test_a_compose_entrypoint_drops_the_images_cmd(tmp_path: Path) -> None:
    write(tmp_path / "Dockerfile", 'FROM apache/airflow:3.0.2\nCMD ["scheduler"]\n')
    compose = write(
        tmp_path / "compose.yaml",
        """
        services:
          tools:
            build: .
            entrypoint: ["/bin/bash", "-c", "sleep infinity"]
        """,
    )
    code, _, err = invoke("--compose", str(compose))
    assert code == 2
    assert "looked at: tools (/bin/bash -c sleep infinity)" in err


def test_entrypoint_and_cmd_as_docker_inherits_them(tmp_path: Path) -> None:
    path = write(
        tmp_path / "Dockerfile",
        """
        FROM apache/airflow:2.10.5 AS base
        CMD ["scheduler"]

        FROM base AS runner
        ENTRYPOINT /opt/airflow/run.sh

        FROM base AS plain

        FROM python:3.12-slim AS other
        CMD ["python"]
        ENTRYPOINT ["tini", "--"]
        """,
    )
    runner = read_dockerfile(path, tmp_path, {}, target="runner")
    assert runner.entrypoint is not None and runner.cmd is None  # the base's CMD is reset
    assert runner.entrypoint.words == ("/bin/sh", "-c", "/opt/airflow/run.sh")
    plain = read_dockerfile(path, tmp_path, {}, target="plain")
    assert plain.entrypoint is not None and plain.cmd is not None
    assert plain.entrypoint.words == ("/usr/bin/dumb-init", "--", "/entrypoint")
    assert plain.cmd == ImageCommand(("scheduler",), f"{path}:2 CMD")
    other = read_dockerfile(path, tmp_path, {})
    assert other.cmd is not None and other.cmd.words == ("python",)  # set in its own stage
