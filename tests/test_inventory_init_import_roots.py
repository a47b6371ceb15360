"""A compose service's ``PYTHONPATH`` mapped back through its bind mounts and its build's
``COPY`` to repository folders: ``init`` names the ``roots`` line the linter needs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.init_files import clear_shell, invoke, write


@pytest.fixture(autouse=True)
def clean_shell(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    clear_shell(monkeypatch)
    monkeypatch.chdir(tmp_path)  # the project folder `roots` is relative to


def notes(compose: Path) -> list[str]:
    code, _, err = invoke("--compose", str(compose))
    assert code == 0, err
    return [line for line in err.splitlines() if line.startswith("dagroute-lint: NOTE")]


def test_pythonpath_above_a_mounted_dag_folder_is_its_parent(tmp_path: Path) -> None:
    write(tmp_path / "airflow" / "dags" / "utils" / "s3.py", 'BUCKET = "raw"\n')
    write(tmp_path / "airflow" / "dags" / "load.py", "from dags.utils.s3 import BUCKET\n")
    compose = write(
        tmp_path / "docker-compose.yaml",
        """
        x-airflow-common: &airflow-common
          image: apache/airflow:3.0.2
          environment:
            AIRFLOW__CORE__EXECUTOR: CeleryExecutor
            PYTHONPATH: /opt/airflow
          volumes:
            - ./airflow/dags:/opt/airflow/dags
            - ./airflow/logs:/opt/airflow/logs
            - airflow-data:/opt/airflow/data
        services:
          airflow-scheduler: {<<: *airflow-common, command: scheduler}
          airflow-worker: {<<: *airflow-common, command: celery worker}
        volumes:
          airflow-data:
        """,
    )
    (found,) = notes(compose)
    assert found.startswith('dagroute-lint: NOTE add `roots = ["airflow"]` to [tool.dagroute-lint]')
    assert "puts airflow/ as /opt/airflow (" in found
    assert "services.airflow-scheduler.environment.PYTHONPATH" in found


def test_the_quick_start_layout_needs_no_root(tmp_path: Path) -> None:
    for folder in ("dags", "plugins", "config"):
        (tmp_path / folder).mkdir()
    compose = write(
        tmp_path / "compose.yaml",
        """
        services:
          scheduler:
            image: apache/airflow:3.0.2
            command: scheduler
            environment:
              PYTHONPATH: /opt/airflow/dags:/opt/airflow
            volumes:
              - ./dags:/opt/airflow/dags
              - ./plugins:/opt/airflow/plugins
              - ./config:/opt/airflow/config
        """,
    )
    # /opt/airflow is the project folder, /opt/airflow/dags the DAG folder: roots already.
    assert notes(compose) == []


def test_a_folder_the_build_copies_and_its_env(tmp_path: Path) -> None:
    write(tmp_path / "deploy" / "lib" / "etl" / "__init__.py", "")
    (tmp_path / "dags").mkdir()
    write(
        tmp_path / "deploy" / "Dockerfile",
        """
        FROM apache/airflow:2.10.5
        COPY lib/ /opt/lib/
        ENV PYTHONPATH=/opt/lib:relative/dir
        """,
    )
    compose = write(
        tmp_path / "compose.yaml",
        """
        services:
          scheduler:
            build: ./deploy
            command: scheduler
            environment:
              AIRFLOW__CORE__DAGS_FOLDER: /srv/dags
            volumes:
              - ./dags:/srv/dags
        """,
    )
    (found,) = notes(compose)
    assert '`roots = ["deploy/lib"]`' in found
    assert "deploy/lib/ as /opt/lib (" in found and "Dockerfile:3 ENV" in found


def test_pythonpath_that_is_the_dag_folder_is_no_note(tmp_path: Path) -> None:
    (tmp_path / "src" / "dags").mkdir(parents=True)
    compose = write(
        tmp_path / "compose.yaml",
        """
        services:
          scheduler:
            image: apache/airflow:3.0.2
            command: scheduler
            environment:
              PYTHONPATH: /opt/airflow/dags
            volumes:
              - ./src/dags:/opt/airflow/dags
        """,
    )
    assert notes(compose) == []


def test_the_charts_env_and_the_folders_the_pushed_image_copies(tmp_path: Path) -> None:
    write(tmp_path / "airflow" / "include" / "warehouse" / "__init__.py", "")
    write(tmp_path / "airflow" / "dags" / "nightly.py", "from warehouse import load\n")
    dockerfile = write(
        tmp_path / "airflow" / "Dockerfile",
        """
        FROM apache/airflow:2.10.5-python3.11
        COPY dags/ /opt/airflow/dags/
        COPY include/ /opt/airflow/include/
        """,
    )
    values = write(
        tmp_path / "k8s" / "values.yaml",
        """
        executor: KubernetesExecutor
        images:
          airflow:
            repository: ghcr.io/acme/airflow
            tag: "2024.06.1"
        env:
          - name: PYTHONPATH
            value: /opt/airflow/include:/opt/airflow/dags
        """,
    )
    code, _, err = invoke("--helm-values", str(values), "--dockerfile", str(dockerfile))
    assert code == 0, err
    (found,) = [line for line in err.splitlines() if "NOTE" in line]
    # /opt/airflow/dags is the DAG folder, a root already; include/ is not.
    assert '`roots = ["airflow/include"]`' in found
    assert "airflow/include/ as /opt/airflow/include (" in found and "env[0]" in found
