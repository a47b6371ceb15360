"""A build that installs Airflow over its official base image: the installed version is the
runtime's (a later layer wins), with a note; only sources of equal precedence contradict."""

from __future__ import annotations

from pathlib import Path

import pytest

from dagroute_lint.deployment.toml import toml
from tests.init_files import clear_shell, invoke, write


@pytest.fixture(autouse=True)
def clean_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_shell(monkeypatch)


UPGRADING_BUILD = """
    FROM apache/airflow:2.10.5-python3.12
    USER airflow
    COPY requirements/ /opt/airflow/requirements/
    RUN pip install --no-cache-dir -r /opt/airflow/requirements/base.txt
    """
BASE_REQUIREMENTS = """
    # pip freeze of the development environment
    apache-airflow==2.11.1
    apache-airflow-providers-postgres==5.14.0
    pendulum==3.0.0
    """


def test_dockerfile_that_pins_a_newer_airflow_runs_that_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "Dockerfile", UPGRADING_BUILD)
    write(tmp_path / "requirements" / "base.txt", BASE_REQUIREMENTS)
    monkeypatch.setenv("AIRFLOW__CORE__EXECUTOR", "LocalExecutor")
    code, out, err = invoke("--dockerfile", str(tmp_path / "Dockerfile"))
    assert code == 0, err
    assert toml.loads(out)["deployment"]["airflow_version"] == "2.11.1"
    flat = out.replace("\n#   ", " ")
    assert "installs Airflow 2.11.1 over the 2.10.5 of" in flat
    assert "a later layer wins, so the runtime runs Airflow 2.11.1" in flat


def test_compose_build_that_pins_a_newer_airflow(tmp_path: Path) -> None:
    write(tmp_path / "Dockerfile", UPGRADING_BUILD)
    write(tmp_path / "requirements" / "base.txt", BASE_REQUIREMENTS)
    compose = write(
        tmp_path / "compose.yaml",
        """
        services:
          airflow:
            build: .
            environment:
              AIRFLOW__CORE__EXECUTOR: LocalExecutor
            command: standalone
        """,
    )
    code, out, err = invoke("--compose", str(compose))
    assert code == 0, err
    assert toml.loads(out)["deployment"]["airflow_version"] == "2.11.1"
    assert "a later layer wins" in out.replace("\n#   ", " ")


def test_the_same_version_pinned_again_needs_no_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "Dockerfile", UPGRADING_BUILD.replace("2.10.5", "2.11.1"))
    write(tmp_path / "requirements" / "base.txt", BASE_REQUIREMENTS)
    monkeypatch.setenv("AIRFLOW__CORE__EXECUTOR", "LocalExecutor")
    code, out, err = invoke("--dockerfile", str(tmp_path / "Dockerfile"))
    assert code == 0, err
    assert toml.loads(out)["deployment"]["airflow_version"] == "2.11.1"
    assert "a later layer wins" not in out


def test_two_images_of_different_versions_still_contradict(tmp_path: Path) -> None:
    compose = write(
        tmp_path / "compose.yaml",
        """
        services:
          scheduler:
            image: apache/airflow:2.10.5
            command: scheduler
          worker:
            image: apache/airflow:2.9.0
            command: celery worker
        """,
    )
    code, _, err = invoke("--compose", str(compose))
    assert code == 2
    assert "Airflow version '2.9.0' contradicts '2.10.5'" in err
