"""``inventory init`` on whole deployments, then a lint of their DAGs with what it wrote.

The deployments in ``tests/data/deployments`` are laid out as the published ones are: the
Airflow 2 and Airflow 3 quick-start compose files (anchors, ``x-airflow-common``,
``${AIRFLOW_IMAGE_NAME:-apache/airflow:...}``, ``_PIP_ADDITIONAL_REQUIREMENTS``, a ``.env``, the
mounted ``config/airflow.cfg``), a deployment split over two compose files whose image is built
by a Dockerfile copying ``../shared/requirements.txt``, and values of the official Helm chart
with ``workers.env``. Each DAG folder imports providers the image holds: linted with the
generated inventory, nothing may be reported.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from dagroute_lint.deployment.toml import toml

DEPLOYMENTS = Path(__file__).parent / "data" / "deployments"


@pytest.fixture(autouse=True)
def clean_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    """The variables compose would read from the shell are the test's, not the machine's."""
    for name in list(os.environ):
        if name.startswith(("AIRFLOW", "_PIP_", "COMPOSE_", "ENV_FILE_PATH")):
            monkeypatch.delenv(name)


def init(output: Path, *args: str) -> tuple[dict[str, object], str, str]:
    result = CliRunner().invoke(main, ["inventory", "init", *args, "--output", str(output)])
    assert result.exit_code == 0, result.stderr
    text = output.read_text(encoding="utf-8")
    return toml.loads(text), text.replace("\n#   ", " "), result.stderr


def lint(inventory: Path, dags: Path) -> tuple[int, str]:
    result = CliRunner().invoke(
        main, [str(dags), "--inventory", str(inventory), "--no-cache", "--format", "text"]
    )
    return result.exit_code, result.stdout


def test_the_airflow_2_quick_start(tmp_path: Path) -> None:
    output = tmp_path / "dagroute.toml"
    compose = DEPLOYMENTS / "quickstart-2" / "docker-compose.yaml"
    document, text, err = init(output, "--compose", str(compose))
    deployment = document["deployment"]
    assert deployment == {
        "airflow_version": "2.10.2",  # the default of ${AIRFLOW_IMAGE_NAME:-...}, as compose
        "executors": ["CeleryExecutor"],
        "default_queue": "default",
        "dag_processor": {"runtime": "base"},
        "triggerer": True,
    }
    assert document["runtimes"] == {
        "base": {
            "image": "apache/airflow:2.10.2-python3.12",  # the tag's default Python
            "providers": ["github==2.7.0"],  # the default of _PIP_ADDITIONAL_REQUIREMENTS
            "runtime_version": "apache/airflow:2.10.2",
        }
    }
    assert "AIRFLOW_IMAGE_NAME is set neither in the shell nor in .env" in text
    assert "airflow-cli (debug), flower (flower)" in text  # profiles left out, and said
    assert "FILL IN" not in err
    assert lint(output, DEPLOYMENTS / "dags-2") == (0, "")


def test_the_image_the_shell_names_wins_over_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AIRFLOW_IMAGE_NAME", "apache/airflow:slim-2.10.5-python3.11")
    output = tmp_path / "dagroute.toml"
    compose = DEPLOYMENTS / "quickstart-2" / "docker-compose.yaml"
    document, _, _ = init(output, "--compose", str(compose))
    assert document["deployment"]["airflow_version"] == "2.10.5"  # type: ignore[index]
    runtime = document["runtimes"]["base"]  # type: ignore[index]
    assert runtime["image"] == "apache/airflow:slim-2.10.5-python3.11"
    # The slim image has no extras: the DAGs' Amazon and Postgres imports are missing there.
    code, out = lint(output, DEPLOYMENTS / "dags-2")
    assert code == 1
    assert "apache-airflow-providers-amazon" in out


def test_the_airflow_3_quick_start_with_env_and_airflow_cfg(tmp_path: Path) -> None:
    folder = DEPLOYMENTS / "quickstart-3"
    compose = folder / "docker-compose.yaml"
    output = tmp_path / "dagroute.toml"
    document, text, _ = init(output, "--compose", str(compose))
    assert document["deployment"] == {
        "airflow_version": "3.0.2",  # AIRFLOW_IMAGE_NAME from .env
        # AIRFLOW__CORE__EXECUTOR wins over `executor = LocalExecutor` of the mounted
        # airflow.cfg that AIRFLOW_CONFIG names, as in Airflow
        "executors": ["CeleryExecutor"],
        "default_queue": "default",
        "dag_processor": {"runtime": "base"},
        "triggerer": True,
    }
    assert document["runtimes"]["base"] == {  # type: ignore[index]
        "image": "apache/airflow:3.0.2-python3.11",
        "providers": ["github==2.9.0"],
        "packages": ["pendulum"],
        "runtime_version": "apache/airflow:3.0.2-python3.11",
    }
    assert document["pools"] == {"default_pool": 128}
    assert (
        f"AIRFLOW_IMAGE_NAME is 'apache/airflow:3.0.2-python3.11', from {folder / '.env'}" in text
    )
    assert f"{folder / 'config' / 'airflow.cfg'} [core] default_pool_task_slot_count" in text
    assert lint(output, DEPLOYMENTS / "dags-3") == (0, "")
    # The same airflow.cfg given on the command line is still below the environment.
    again = tmp_path / "again.toml"
    cfg = folder / "config" / "airflow.cfg"
    document, _, _ = init(again, "--compose", str(compose), "--airflow-cfg", str(cfg))
    assert document["deployment"]["executors"] == ["CeleryExecutor"]  # type: ignore[index]


def test_a_deployment_split_over_two_compose_files(tmp_path: Path) -> None:
    folder = DEPLOYMENTS / "split"
    output = tmp_path / "dagroute.toml"
    document, text, _ = init(
        output,
        "--compose",
        str(folder / "docker-compose.yaml"),
        "--compose",
        str(folder / "docker-compose.workers.yaml"),
    )
    deployment = document["deployment"]
    assert deployment["airflow_version"] == "2.10.2"  # type: ignore[index]
    assert deployment["triggerer"] is True  # type: ignore[index]
    assert deployment["dag_processor"] == {"runtime": "base"}  # type: ignore[index]
    assert document["workers"] == [
        {"name": "worker-default", "queues": ["default"], "runtime": "base"},
        {"name": "worker-heavy", "queues": ["heavy", "reports"], "runtime": "base"},
    ]
    runtime = document["runtimes"]["base"]  # type: ignore[index]
    # FROM apache/airflow:${AIRFLOW_TAG} with the build argument of the compose file, and what
    # the Dockerfile installs: ../shared/requirements.txt (inside the context) and the spark
    # provider of its RUN line.
    assert runtime["image"] == "apache/airflow:2.10.2-python3.11"
    assert runtime["providers"] == ["apache.spark==4.11.0", "github==2.7.0"]
    assert runtime["packages"] == ["pyspark==3.5.3", "python-slugify"]
    assert document["pools"] == {"default_pool": 64}  # from the env_file
    assert "Dockerfile:5 FROM" in text
    assert lint(output, DEPLOYMENTS / "dags-split") == (0, "")


def test_the_first_compose_file_alone_is_a_smaller_deployment(tmp_path: Path) -> None:
    """Without the workers' file its services are not there: nothing of it is kept."""
    output = tmp_path / "dagroute.toml"
    document, _, _ = init(output, "--compose", str(DEPLOYMENTS / "split" / "docker-compose.yaml"))
    assert document["deployment"]["triggerer"] is False  # type: ignore[index]
    assert all(worker["name"] != "worker-heavy" for worker in document["workers"])  # type: ignore[union-attr]


def test_helm_values_with_workers_env(tmp_path: Path) -> None:
    output = tmp_path / "dagroute.toml"
    values = DEPLOYMENTS / "helm" / "values.yaml"
    document, text, _ = init(output, "--helm-values", str(values))
    assert document["deployment"]["airflow_version"] == "2.10.2"  # type: ignore[index]
    assert document["deployment"]["default_queue"] == "default"  # type: ignore[index]
    # workers.env gives the workers their own default queue, which they consume without -q.
    assert document["workers"] == [{"name": "celery-workers", "queues": ["etl"], "runtime": "base"}]
    assert document["runtimes"]["base"]["image"] == "apache/airflow:2.10.2-python3.12"  # type: ignore[index]
    assert f"{values}: workers.env[0] AIRFLOW__OPERATORS__DEFAULT_QUEUE" in text
    assert lint(output, DEPLOYMENTS / "dags-helm") == (0, "")
    # DAGs that leave the queue to the default queue find no worker: the one true finding.
    code, out = lint(output, DEPLOYMENTS / "dags-2")
    assert code == 1
    assert "DRL101" in out and "'default'" in out


def test_a_private_image_is_left_to_fill_in_and_strict_check_fails(tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(DEPLOYMENTS / "quickstart-2", project)
    (project / ".env").write_text("AIRFLOW_IMAGE_NAME=registry.example.com/airflow:7\n", "utf-8")
    output = tmp_path / "dagroute.toml"
    document, text, err = init(output, "--compose", str(project / "docker-compose.yaml"))
    assert "image" not in document["runtimes"]["base"]  # type: ignore[index]
    assert "providers" not in document["runtimes"]["base"]  # type: ignore[index]
    assert "not an official apache/airflow image" in text
    assert "Added on top of the image: github==2.7.0" in text
    told = [line for line in err.splitlines() if line.startswith("dagroute-lint: FILL IN")]
    assert [line.split(":")[1].strip() for line in told] == [
        "FILL IN [deployment] airflow_version",
        "FILL IN [runtimes.base] providers",
        "FILL IN [runtimes.base] packages",
    ]
    result = CliRunner().invoke(main, ["inventory", "check", str(output)])
    assert result.exit_code == 0
    listed = [line for line in result.stdout.splitlines() if ": FILL IN " in line]
    assert len(listed) == 3 and listed[0].startswith(f"{output}:")
    assert "3 facts left to fill in" in result.stderr
    strict = CliRunner().invoke(main, ["inventory", "check", str(output), "--strict"])
    assert strict.exit_code == 1
