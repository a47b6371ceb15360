"""``inventory init`` on deployments that run a pushed image (``--dockerfile``) and on Helm values
copied from the chart's defaults, whose templates decide nothing the inventory needs."""

from __future__ import annotations

from pathlib import Path

import pytest

from dagroute_lint.deployment.toml import toml
from tests.init_files import clear_shell, invoke, write


@pytest.fixture(autouse=True)
def clean_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_shell(monkeypatch)


@pytest.fixture
def repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose CI builds docker/airflow/Dockerfile and pushes it as
    registry.example.com/data/airflow:production, which compose runs."""
    write(
        tmp_path / "docker" / "airflow" / "Dockerfile",
        """
        FROM apache/airflow:2.9.0-python3.11
        COPY requirements.txt /requirements.txt
        RUN pip install --no-cache-dir -r /requirements.txt
        """,
    )
    write(
        tmp_path / "docker" / "airflow" / "requirements.txt",
        "apache-airflow-providers-docker==3.10.0\nsmartsheet-python-sdk==3.0.2\n",
    )
    write(
        tmp_path / "docker-compose.yaml",
        """
        x-airflow-common: &airflow-common
          image: registry.example.com/data/airflow:production
          environment:
            AIRFLOW__CORE__EXECUTOR: CeleryExecutor
            AIRFLOW__CELERY__BROKER_URL: redis://:@redis:6379/0
        services:
          redis:
            image: redis:7.2-bookworm
          airflow-scheduler:
            <<: *airflow-common
            command: scheduler
          airflow-worker:
            <<: *airflow-common
            command: celery worker
        """,
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_version_left_open_names_the_dockerfile_to_pass(repository: Path) -> None:
    code, _, err = invoke("--compose", "docker-compose.yaml")
    assert code == 0
    version = next(line for line in err.splitlines() if "airflow_version" in line)
    assert (
        "the repository's docker/airflow/Dockerfile (FROM apache/airflow:2.9.0-python3.11) likely "
        "builds the image: pass --dockerfile docker/airflow/Dockerfile"
    ) in version


@pytest.mark.parametrize(
    "option",
    [
        "docker/airflow/Dockerfile",
        "registry.example.com/data/airflow=docker/airflow/Dockerfile",  # the tag left out
        "registry.example.com/data/airflow:production=docker/airflow/Dockerfile",
    ],
)
def test_dockerfile_builds_the_pushed_image(repository: Path, option: str) -> None:
    code, out, err = invoke("--compose", "docker-compose.yaml", "--dockerfile", option)
    assert code == 0, err
    assert "FILL IN" not in err
    document = toml.loads(out)
    assert document["deployment"]["airflow_version"] == "2.9.0"
    assert document["runtimes"]["base"] == {
        "image": "apache/airflow:2.9.0-python3.11",
        "providers": ["docker==3.10.0"],
        "packages": ["smartsheet-python-sdk==3.0.2"],
        "runtime_version": "registry.example.com/data/airflow:production",
    }


def test_a_dockerfile_alone_is_the_runtime(repository: Path) -> None:
    code, out, _ = invoke("--dockerfile", "docker/airflow/Dockerfile")
    assert code == 0
    assert toml.loads(out)["runtimes"]["base"]["image"] == "apache/airflow:2.9.0-python3.11"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--dockerfile", "myorg/other=docker/airflow/Dockerfile"],
            "--dockerfile myorg/other=docker/airflow/Dockerfile: no source runs the image "
            "myorg/other (the images they run: registry.example.com/data/airflow:production)",
        ),
        (["--dockerfile", "missing/Dockerfile"], "--dockerfile missing/Dockerfile: no such file"),
    ],
)
def test_a_dockerfile_that_builds_nothing_is_refused(
    repository: Path, args: list[str], message: str
) -> None:
    code, _, err = invoke("--compose", "docker-compose.yaml", *args)
    assert code == 2 and message in err


def test_helm_image_built_by_the_dockerfile(repository: Path) -> None:
    values = write(
        repository / "k8s" / "values.yaml",
        """
        executor: KubernetesExecutor
        images:
          airflow:
            repository: registry.example.com/data/airflow
            tag: "2024.06.1"
        """,
    )
    code, out, err = invoke(
        "--helm-values", str(values), "--dockerfile", "docker/airflow/Dockerfile"
    )
    assert code == 0, err
    document = toml.loads(out)
    assert document["deployment"]["airflow_version"] == "2.9.0"
    assert document["runtimes"]["base"]["providers"] == ["docker==3.10.0"]


CHART_DEFAULTS = """
    # Copied from the chart's values.yaml, as many deployments do.
    executor: "CeleryExecutor"
    airflowVersion: "2.9.3"
    defaultAirflowRepository: apache/airflow
    defaultAirflowTag: "2.9.3"
    config:
      core:
        dags_folder: '{{ include "airflow_dags" . }}'
        load_examples: 'False'
        executor: '{{ .Values.executor }}'
      logging:
        remote_logging: '{{- ternary "True" "False" .Values.elasticsearch.enabled }}'
      kubernetes_executor:
        namespace: '{{ .Release.Namespace }}'
        pod_template_file: '{{ include "airflow_pod_template_file" . }}/pod_template_file.yaml'
        worker_container_repository: '{{ REPOSITORY }}'
        worker_container_tag: '{{ .Values.images.airflow.tag | default .Values.defaultAirflowTag }}'
        multi_namespace_mode: '{{ ternary "True" "False" .Values.multiNamespaceMode }}'
      kubernetes:
        airflow_configmap: '{{ include "airflow_config" . }}'
        namespace: '{{ .Release.Namespace }}'
""".replace(
    "REPOSITORY", ".Values.images.airflow.repository | default .Values.defaultAirflowRepository"
)


def test_chart_default_templates_that_decide_nothing_are_passed_over(tmp_path: Path) -> None:
    values = write(tmp_path / "values.yaml", CHART_DEFAULTS)
    code, out, err = invoke("--helm-values", str(values))
    assert code == 0, err
    assert "FILL IN" not in err
    document = toml.loads(out)
    assert document["deployment"]["executors"] == ["CeleryExecutor"]
    assert document["runtimes"]["base"]["image"] == "apache/airflow:2.9.3-python3.12"
    assert "namespace" not in out and "airflow_configmap" not in out


def test_a_templated_pod_image_leaves_the_pod_runtime_open(tmp_path: Path) -> None:
    values = write(
        tmp_path / "values.yaml",
        CHART_DEFAULTS.replace(
            'executor: "CeleryExecutor"', 'executor: "KubernetesExecutor"'
        ).replace(
            ".Values.images.airflow.repository | default .Values.defaultAirflowRepository",
            ".Values.podRepository",
        ),
    )
    code, out, err = invoke("--helm-values", str(values))
    assert code == 0, err
    assert "FILL IN [runtimes.pod-template] packages: what it holds is not all known: " in err
    assert "config.kubernetes_executor.worker_container_repository is a template" in err
    assert toml.loads(out)["workers"] == [{"name": "kubernetes", "runtime": "pod-template"}]
