"""``inventory init`` from the deployment's own files: Helm, compose, requirements, contract."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from dagroute_lint.deployment.init.commands import component
from dagroute_lint.deployment.inventory import load_inventory
from dagroute_lint.deployment.toml import toml

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "deploy"


@pytest.fixture(autouse=True)
def no_airflow_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    """The developer's or CI's own AIRFLOW__* settings must not leak into these tests."""
    for name in list(os.environ):
        if name.startswith("AIRFLOW__"):
            monkeypatch.delenv(name)


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["inventory", "init", *args])
    return result.exit_code, result.stdout, result.stderr


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def generated(*args: str) -> tuple[dict[str, object], str]:
    """The inventory ``init`` prints, parsed, after checking it validates as written."""
    code, out, err = invoke(*args)
    assert code == 0, err
    return toml.loads(out), out


def unwrapped(text: str) -> str:
    return text.replace("\n#   ", " ")


# --- Helm values ---------------------------------------------------------------------------------

# A team's values for the official chart, as `helm -f values.yaml -f override.yaml` takes them.
HELM_VALUES = """
airflowVersion: "3.0.3"
defaultAirflowRepository: ghcr.io/acme/airflow
defaultAirflowTag: "v42"
executor: "CeleryExecutor,KubernetesExecutor"
images:
  airflow:
    tag: "v43"
  pod_template:
    repository: ghcr.io/acme/airflow-pods
    tag: "v43"
config:
  operators:
    default_queue: main
  core:
    default_pool_task_slot_count: 64
  webserver:
    expose_config: "True"
workers:
  replicas: 4
  command: ["bash", "-c"]
  args:
    - |-
      exec \\
      airflow celery worker --queues main,etl
triggerer:
  enabled: false
dagProcessor:
  enabled: true
"""
HELM_OVERRIDE = """
# production: a triggerer after all, and the env that wins over config:
triggerer:
  enabled: true
env:
  - name: AIRFLOW__OPERATORS__DEFAULT_QUEUE
    value: primary
  - name: AIRFLOW__CORE__FERNET_KEY
    valueFrom:
      secretKeyRef: {name: fernet, key: key}
  - name: AIRFLOW__CORE__DEFAULT_POOL_TASK_SLOT_COUNT
    valueFrom:
      configMapKeyRef: {name: pools, key: default}
extraEnv: |
  - name: AIRFLOW__CORE__EXECUTOR
    value: "CeleryExecutor,KubernetesExecutor"
workers:
  args: ["bash", "-c", "exec airflow celery worker -q primary,etl"]
"""


def test_helm_values_with_an_override(tmp_path: Path) -> None:
    values = write(tmp_path / "values.yaml", HELM_VALUES)
    override = write(tmp_path / "prod.yaml", HELM_OVERRIDE)
    document, text = generated("--helm-values", str(values), "--helm-values", str(override))
    deployment = document["deployment"]
    assert deployment == {
        "airflow_version": "3.0.3",
        "executors": ["CeleryExecutor", "KubernetesExecutor"],
        "default_queue": "primary",  # env wins over config, as in Airflow
        "dag_processor": {"runtime": "base"},
        "triggerer": True,  # the later file wins
    }
    assert document["workers"] == [
        {
            "name": "celery-workers",  # replicas are copies of one worker
            "executor": "CeleryExecutor",
            "queues": ["primary", "etl"],
            "runtime": "base",
        },
        {"name": "kubernetes", "executor": "KubernetesExecutor", "runtime": "pod-template"},
    ]
    runtimes = document["runtimes"]
    assert runtimes == {
        "base": {"runtime_version": "ghcr.io/acme/airflow:v43"},
        "pod-template": {"runtime_version": "ghcr.io/acme/airflow-pods:v43"},
    }
    # The pool size in config: is overridden by an env entry only the cluster knows (valueFrom).
    assert "pools" not in document
    plain = unwrapped(text)
    assert (
        "# FILL IN [pools] default_pool: its size is known only at deploy time "
        f"({override}: env[2] takes AIRFLOW__CORE__DEFAULT_POOL_TASK_SLOT_COUNT from a secret or "
        "config map)"
    ) in plain
    assert f"# from {override}: env[0] AIRFLOW__OPERATORS__DEFAULT_QUEUE" in plain
    assert f"# a triggerer runs: {override}: triggerer.enabled" in plain
    assert f"# from {override}: workers.args" in plain
    assert f"{values}: dagProcessor.enabled: a standalone DAG processor" in plain
    assert (
        f"{override}: env[2] takes AIRFLOW__CORE__DEFAULT_POOL_TASK_SLOT_COUNT from a secret"
        in plain
    )
    assert f"# from {override}: extraEnv[0] AIRFLOW__CORE__EXECUTOR" in plain
    # What the chart values cannot say is left to fill in, never guessed.
    assert plain.count("] providers: its image ghcr.io/acme/airflow") == 2
    assert "is not an official apache/airflow image, so what it holds is not known" in plain
    assert "# providers = []" in text


def test_helm_chart_defaults_apply_to_what_values_leave_out(tmp_path: Path) -> None:
    values = write(tmp_path / "values.yaml", "airflowVersion: 3.0.2\nredis:\n  enabled: true\n")
    document, text = generated("--helm-values", str(values))
    assert document["deployment"]["executors"] == ["CeleryExecutor"]  # type: ignore[index]
    assert document["deployment"]["triggerer"] is True  # type: ignore[index]
    assert document["workers"] == [
        {"name": "celery-workers", "queues": ["default"], "runtime": "base"}
    ]
    plain = unwrapped(text)
    assert "executor not set, the chart's default" in plain
    assert "no -q in workers.args / workers.command" in plain
    assert "the image is the chart's default" in plain  # no runtime_version guessed
    assert "runtime_version" not in document["runtimes"]["base"]  # type: ignore[index]


def test_helm_values_copied_whole_from_the_chart(tmp_path: Path) -> None:
    """Teams often start from the chart's own values.yaml, whose config: refers to other values."""
    repository = (
        "{{ .Values.images.airflow.repository | default .Values.defaultAirflowRepository }}"
    )
    tag = "{{ .Values.images.airflow.tag | default .Values.defaultAirflowTag }}"
    values = write(
        tmp_path / "values.yaml",
        """
        executor: "KubernetesExecutor"
        defaultAirflowRepository: apache/airflow
        defaultAirflowTag: "3.0.2"
        images:
          airflow: {repository: ~, tag: ~}
        config:
          core:
            executor: '{{ .Values.executor }}'
          kubernetes_executor:
            worker_container_repository: 'REPOSITORY'
            worker_container_tag: 'TAG'
        """.replace("REPOSITORY", repository).replace("TAG", tag),
    )
    document, text = generated("--helm-values", str(values))
    assert document["deployment"]["executors"] == ["KubernetesExecutor"]  # type: ignore[index]
    assert document["deployment"]["airflow_version"] == "3.0.2"  # type: ignore[index]
    # The pod image is the Airflow image, so the pods run in the same runtime.
    assert document["workers"] == [{"name": "kubernetes", "runtime": "base"}]
    assert document["runtimes"] == {
        "base": {
            "image": "apache/airflow:3.0.2-python3.12",  # the release's default Python
            "runtime_version": "apache/airflow:3.0.2",
        }
    }
    assert "not rendered here" not in text


def test_helm_templates_are_never_replaced_by_defaults(tmp_path: Path) -> None:
    values = write(
        tmp_path / "values.yaml",
        """
        executor: CeleryExecutor
        config:
          operators:
            default_queue: '{{ .Values.queue }}'
        workers:
          args: ["bash", "-c", "exec airflow celery worker -q {{ .Values.queues }}"]
        """,
    )
    # The default queue decides every task's queue: it is left open, never assumed "default".
    code, out, err = invoke("--helm-values", str(values))
    assert code == 0
    assert (
        f"FILL IN [deployment] default_queue: {values}: config.operators.default_queue is a "
        "template: [operators] default_queue is known only at deploy time; give it with "
        "--airflow-cfg or AIRFLOW__OPERATORS__DEFAULT_QUEUE"
    ) in err
    assert '# default_queue = "default"' in out and "\ndefault_queue" not in out

    cfg = write(tmp_path / "airflow.cfg", "[operators]\ndefault_queue = main\n")
    document, text = generated("--helm-values", str(values), "--airflow-cfg", str(cfg))
    plain = unwrapped(text)
    assert "config.operators.default_queue is a template ({{ .Values.queue }})" in plain
    assert document["deployment"]["default_queue"] == "main"  # type: ignore[index]
    # The worker's queues are unknown: its block is commented, to fill in.
    assert (
        "FILL IN worker 'celery-workers' queues: -q {{.Values.queues}} is known only at deploy time"
    ) in plain
    assert "# [[workers]]" in text
    assert "workers" not in document


def test_helm_environment_wins_over_config_per_component(tmp_path: Path) -> None:
    """The scheduler's env decides the executor over config: and airflow.cfg; the DAG processor
    reads its own default queue; only sources of one precedence can contradict each other."""
    values = write(
        tmp_path / "values.yaml",
        """
        defaultAirflowRepository: apache/airflow
        defaultAirflowTag: "2.10.2"
        config:
          core: {executor: LocalExecutor}
        scheduler:
          env: [{name: AIRFLOW__CORE__EXECUTOR, value: CeleryExecutor}]
        dagProcessor:
          enabled: true
          env: [{name: AIRFLOW__OPERATORS__DEFAULT_QUEUE, value: parsed}]
        workers:
          env: [{name: AIRFLOW__OPERATORS__DEFAULT_QUEUE, value: parsed}]
        """,
    )
    cfg = write(tmp_path / "airflow.cfg", "[core]\nexecutor = LocalExecutor\n")
    document, text = generated("--helm-values", str(values), "--airflow-cfg", str(cfg))
    deployment = document["deployment"]
    assert deployment["executors"] == ["CeleryExecutor"]  # type: ignore[index]
    assert deployment["default_queue"] == "parsed"  # type: ignore[index]
    assert document["workers"] == [
        {"name": "celery-workers", "queues": ["parsed"], "runtime": "base"}
    ]
    assert f"from {values}: scheduler.env[0] AIRFLOW__CORE__EXECUTOR" in unwrapped(text)
    # Two files of the same precedence that disagree still stop.
    other = write(tmp_path / "other.yaml", "executor: KubernetesExecutor\n")
    code, _, err = invoke("--helm-values", str(other), "--airflow-cfg", str(cfg))
    assert code == 2 and "contradicts" in err


def test_the_chart_version_gives_the_default_image(tmp_path: Path) -> None:
    values = write(tmp_path / "values.yaml", "executor: KubernetesExecutor\n")
    document, text = generated("--helm-values", str(values))
    assert "no --helm-chart-version says which chart's default it is" in unwrapped(text)
    assert "airflow_version" not in document["deployment"]  # type: ignore[operator]
    document, text = generated("--helm-values", str(values), "--helm-chart-version", "1.15.0")
    assert document["deployment"]["airflow_version"] == "2.9.3"  # type: ignore[index]
    assert document["runtimes"]["base"]["image"] == "apache/airflow:2.9.3-python3.12"  # type: ignore[index]
    assert "chart 1.15.0's defaultAirflowRepository and defaultAirflowTag" in unwrapped(text)
    code, out, _ = invoke("--helm-values", str(values), "--helm-chart-version", "1.99.0")
    assert code == 0
    assert "--helm-chart-version 1.99.0 is not one whose defaults" in unwrapped(out)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- a\n- b\n", "expected the chart's values (a mapping), got a list"),
        ("services:\n  web: {}\n", "none of the apache-airflow chart's keys"),
        ("executor: [CeleryExecutor]\n", "values.yaml:1: executor: expected a string"),
        ("executor: CeleryExecuter\n", "values.yaml:1: executor: 'CeleryExecuter'"),
        (
            "workers:\n  args: exec airflow celery worker\n",
            "values.yaml:2: workers.args: expected a list",
        ),
        ("config:\n  operators: default\n", "values.yaml: config.operators: expected a mapping"),
        (
            "executor: CeleryExecutor\nworkers:\n  args: [airflow, celery, worker, -q]\n",
            "-q is not followed by the queues",
        ),
        ("executor: 'x\n", "values.yaml:2:1: invalid YAML: found unexpected end of stream"),
        ("airflowVersion: !!python/object:os.system x\n", "invalid YAML"),
    ],
)
def test_unrecognised_helm_values_exit_2_naming_file_and_key(
    tmp_path: Path, text: str, message: str
) -> None:
    values = write(tmp_path / "values.yaml", text)
    code, out, err = invoke("--helm-values", str(values))
    assert (code, out) == (2, "")
    assert err.startswith("dagroute-lint: ") and err.count("\n") == 1
    assert message in err


def test_without_pyyaml_the_message_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    values = write(tmp_path / "values.yaml", "executor: CeleryExecutor\n")
    monkeypatch.setitem(sys.modules, "yaml", None)  # what an environment without PyYAML imports
    code, _, err = invoke("--helm-values", str(values))
    assert code == 2
    assert "pip install 'dagroute-lint[deploy]'" in err


# --- docker-compose ------------------------------------------------------------------------------

COMPOSE = """
x-airflow-common:
  &airflow-common
  image: ${AIRFLOW_IMAGE_NAME:-apache/airflow:3.0.2}
  environment:
    &airflow-common-env
    AIRFLOW__CORE__EXECUTOR: CeleryExecutor
    AIRFLOW__CELERY__BROKER_URL: redis://:@redis:6379/0
    AIRFLOW__CORE__LOAD_EXAMPLES: 'true'
    _PIP_ADDITIONAL_REQUIREMENTS: ${_PIP_ADDITIONAL_REQUIREMENTS:-}
  depends_on:
    redis:
      condition: service_healthy

services:
  redis:
    image: redis:7.2-bookworm
  airflow-scheduler:
    <<: *airflow-common
    command: scheduler
  airflow-dag-processor:
    <<: *airflow-common
    command: dag-processor
  airflow-worker:
    <<: *airflow-common
    command: celery worker
    environment:
      <<: *airflow-common-env
      DUMB_INIT_SETSID: "0"
  etl-worker:
    build:
      context: ./etl-image
    environment:
      - AIRFLOW__CORE__EXECUTOR=CeleryExecutor
      - _PIP_ADDITIONAL_REQUIREMENTS=apache-airflow-providers-http==5.3.0 polars==1.9.0
    command: ["airflow", "celery", "worker", "-q", "etl,bulk"]
  airflow-init:
    <<: *airflow-common
    entrypoint: /bin/bash
    command: ["-c", "exec /entrypoint airflow version"]
"""


def test_compose_services_become_workers_components_and_runtimes(tmp_path: Path) -> None:
    compose = write(tmp_path / "docker-compose.yaml", COMPOSE)
    write(
        tmp_path / "etl-image" / "Dockerfile",
        """
        FROM apache/airflow:3.0.2-python3.12
        COPY --chown=airflow:root requirements-etl.txt /tmp/
        RUN pip install -r /tmp/requirements-etl.txt
        """,
    )
    write(
        tmp_path / "etl-image" / "requirements-etl.txt",
        """
        apache-airflow-providers-amazon==9.8.0
        boto3==1.38.0 --hash=sha256:0123
        """,
    )
    document, text = generated("--compose", str(compose))
    assert document["deployment"] == {
        "airflow_version": "3.0.2",
        "executors": ["CeleryExecutor"],
        "default_queue": "default",
        "dag_processor": {"runtime": "base"},
        "triggerer": False,  # no service runs the triggerer
    }
    assert document["workers"] == [
        {"name": "airflow-worker", "queues": ["default"], "runtime": "base"},
        {"name": "etl-worker", "queues": ["etl", "bulk"], "runtime": "etl-worker"},
    ]
    runtimes = document["runtimes"]
    assert isinstance(runtimes, dict)
    # ${AIRFLOW_IMAGE_NAME:-...} unset in the shell: its default, as compose takes it. The
    # tag names no Python: the release's default image.
    assert runtimes["base"] == {
        "image": "apache/airflow:3.0.2-python3.12",
        "runtime_version": "apache/airflow:3.0.2",
    }
    # The Dockerfile's base image, the requirements file it copies and installs, and what the
    # quick start's _PIP_ADDITIONAL_REQUIREMENTS installs at start-up, on top of the image.
    assert runtimes["etl-worker"] == {
        "image": "apache/airflow:3.0.2-python3.12",
        "providers": ["amazon==9.8.0", "http==5.3.0"],
        "packages": ["boto3==1.38.0", "polars==1.9.0"],
        "runtime_version": "apache/airflow:3.0.2-python3.12",
    }
    plain = unwrapped(text)
    assert "the official image, holding its" in plain
    assert "Airflow providers added to the image, from" in plain
    assert "no service runs `airflow triggerer`" in plain
    assert "AIRFLOW_IMAGE_NAME is set neither in the shell nor in .env, so its default" in plain


def test_compose_env_files_and_shell_variables(tmp_path: Path) -> None:
    write(
        tmp_path / "airflow.env",
        "# the team's settings\nAIRFLOW__OPERATORS__DEFAULT_QUEUE='main'\n",
    )
    compose = write(
        tmp_path / "docker-compose.yaml",
        """
        services:
          scheduler:
            image: apache/airflow:3.0.2
            command: scheduler
            env_file: [airflow.env, {path: missing.env, required: false}]
            environment:
              AIRFLOW__CORE__EXECUTOR: ${EXECUTOR}
          worker:
            image: apache/airflow:3.0.2
            command: celery worker
            env_file: airflow.env
        """,
    )
    # The executor is whatever the shell says at start-up: left open, not assumed; what the
    # file says meanwhile is what the Celery worker it runs needs.
    code, out, err = invoke("--compose", str(compose))
    assert code == 0
    assert (
        "FILL IN [deployment] executors: "
        f"{compose}: services.scheduler.environment.AIRFLOW__CORE__EXECUTOR is taken from the shell"
    ) in err
    assert '# executors = ["CeleryExecutor"]' in out
    cfg = write(tmp_path / "airflow.cfg", "[core]\nexecutor = CeleryExecutor\n")
    document, _ = generated("--compose", str(compose), "--airflow-cfg", str(cfg))
    assert document["deployment"]["default_queue"] == "main"  # type: ignore[index]
    assert document["workers"] == [{"name": "worker", "queues": ["main"], "runtime": "base"}]
    # A default in the file is what compose uses when the shell leaves the variable unset: it
    # is used, and said.
    compose.write_text(
        compose.read_text().replace("${EXECUTOR}", "${EXECUTOR:-CeleryExecutor}"), "utf-8"
    )
    document, text = generated("--compose", str(compose))
    assert document["deployment"]["executors"] == ["CeleryExecutor"]  # type: ignore[index]
    assert "EXECUTOR is set neither in the shell nor in .env, so its default" in unwrapped(text)
    # A required env_file that is missing fails compose itself, so it fails here too.
    (tmp_path / "airflow.env").unlink()
    code, _, err = invoke("--compose", str(compose))
    assert code == 2
    assert "services.scheduler.env_file[0]:" in err and "cannot be read" in err


def test_a_worker_of_a_profile_runs_only_when_the_profile_is_enabled(tmp_path: Path) -> None:
    compose = write(
        tmp_path / "docker-compose.yaml",
        """
        x-airflow: &airflow
          image: apache/airflow:2.10.2
          environment: {AIRFLOW__CORE__EXECUTOR: CeleryExecutor}
        services:
          scheduler: {<<: *airflow, command: scheduler}
          worker: {<<: *airflow, command: celery worker}
          gpu-worker:
            <<: *airflow
            command: [airflow, celery, worker, -q, gpu]
            profiles: [gpu]
        """,
    )
    document, text = generated("--compose", str(compose))
    assert [worker["name"] for worker in document["workers"]] == ["worker"]  # type: ignore[union-attr]
    assert "gpu-worker (gpu) (enable one with --profile)" in unwrapped(text)
    document, _ = generated("--compose", str(compose), "--profile", "gpu")
    assert document["workers"][1] == {  # type: ignore[index]
        "name": "gpu-worker",
        "queues": ["gpu"],
        "runtime": "base",
    }


def test_each_component_reads_its_own_options(tmp_path: Path) -> None:
    """The scheduler decides the executor; a worker's own default queue is what it consumes;
    two services of one component that disagree are a contradiction."""
    compose = write(
        tmp_path / "docker-compose.yaml",
        """
        services:
          scheduler:
            image: apache/airflow:3.0.2
            command: scheduler
            environment: {AIRFLOW__CORE__EXECUTOR: CeleryExecutor}
          worker:
            image: apache/airflow:3.0.2
            command: celery worker
            environment:
              AIRFLOW__CORE__EXECUTOR: LocalExecutor
              AIRFLOW__OPERATORS__DEFAULT_QUEUE: etl
        """,
    )
    document, text = generated("--compose", str(compose))
    assert document["deployment"]["executors"] == ["CeleryExecutor"]  # type: ignore[index]
    # Tasks get the default queue where DAG files are parsed; the worker consumes its own.
    assert document["deployment"]["default_queue"] == "default"  # type: ignore[index]
    assert document["workers"] == [{"name": "worker", "queues": ["etl"], "runtime": "base"}]
    plain = unwrapped(text)
    assert (
        "services.worker.environment.AIRFLOW__CORE__EXECUTOR is 'LocalExecutor', but the "
        "scheduler, which decides [core] executor here, reads 'CeleryExecutor'"
    ) in plain
    assert (
        "AIRFLOW__OPERATORS__DEFAULT_QUEUE is 'etl', but the scheduler, which decides "
        "[operators] default_queue here, does not set it"
    ) in plain
    second = (
        "  second-scheduler:\n    image: apache/airflow:3.0.2\n    command: scheduler\n"
        "    environment: {AIRFLOW__CORE__EXECUTOR: LocalExecutor}\n  worker:"
    )
    compose.write_text(compose.read_text().replace("  worker:", second), "utf-8")
    code, out, err = invoke("--compose", str(compose))
    assert (code, out) == (2, "")
    assert "services.second-scheduler.environment.AIRFLOW__CORE__EXECUTOR" in err
    assert "'LocalExecutor' contradicts 'CeleryExecutor'" in err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("version: '3'\n", "services: expected a compose file with a services mapping"),
        ("services:\n  db:\n    image: postgres\n", "no service runs an Airflow component"),
        (
            "services:\n  w:\n    command: celery worker -q 'a\n",
            "docker-compose.yaml:3: services.w.command: cannot split",
        ),
        ("services:\n  w:\n    command: celery worker -q a,,b\n", "holds an empty queue name"),
        ("services:\n  w:\n    command: scheduler\n    environment: 3\n", "services.w.environment"),
        (
            "services:\n  w:\n    command: {a: 1}\n",
            "services.w.command: expected a string or a list",
        ),
    ],
)
def test_unrecognised_compose_files_exit_2(tmp_path: Path, text: str, message: str) -> None:
    compose = write(tmp_path / "docker-compose.yaml", text)
    code, _, err = invoke("--compose", str(compose))
    assert code == 2
    assert message in err


# --- requirements --------------------------------------------------------------------------------


def test_requirements_constraints_and_freeze_output(tmp_path: Path) -> None:
    write(
        tmp_path / "constraints.txt",
        """
        # pinned by the image build
        pandas==2.2.3
        """,
    )
    requirements = write(
        tmp_path / "requirements.txt",
        """
        --index-url https://pypi.org/simple
        -c constraints.txt
        apache-airflow-core==3.0.2
        apache-airflow-providers-cncf-kubernetes==10.5.0 \\
            --hash=sha256:abc
        pandas
        Requests_OAuthlib==2.0.0 ; python_version >= "3.9"
        my-lib @ file:///build/my_lib-1.0-py3-none-any.whl
        """,
    )
    freeze = write(
        tmp_path / "worker-freeze.txt", "apache-airflow-providers-celery==3.11.0\nsix==1.17.0\n"
    )
    document, text = generated(
        "--requirements",
        str(requirements),
        "--requirements",
        f"worker={freeze}",
        "--worker",
        "w=default",
        "--airflow-cfg",
        str(write(tmp_path / "airflow.cfg", "[core]\nexecutor = CeleryExecutor\n")),
    )
    assert document["deployment"]["airflow_version"] == "3.0.2"  # type: ignore[index]
    runtimes = document["runtimes"]
    assert isinstance(runtimes, dict)
    assert runtimes["base"] == {
        "providers": ["cncf.kubernetes==10.5.0"],
        "packages": ["my-lib", "pandas==2.2.3", "requests-oauthlib==2.0.0"],
    }
    assert "worker" not in runtimes  # no worker runs in it: said, not written
    assert "Runtime 'worker'" in unwrapped(text) and "left out" in unwrapped(text)
    assert "marker 'python_version >= \"3.9\"', which is not evaluated" in unwrapped(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("pandas==2\nnot a requirement!\n", "requirements.txt:2: not a requirement"),
        ("pandas==2.0\npandas==2.1\n", "'pandas==2.1' contradicts 'pandas==2.0'"),
        ("-r requirements.txt\n", "included again from itself"),
        (
            "apache-airflow==3.0.1\napache-airflow-core==3.0.2\n",
            "Airflow is pinned to several versions",
        ),
    ],
)
def test_bad_requirements_exit_2_with_file_and_line(
    tmp_path: Path, text: str, message: str
) -> None:
    requirements = write(tmp_path / "requirements.txt", text)
    code, _, err = invoke("--requirements", str(requirements))
    assert code == 2
    assert message in err


# --- the runtime contract -------------------------------------------------------------------------

SEED_CONTRACT = (
    '{"code_version":"lab-report-v3","runtime_version":"lab-runtime-2",'
    '"required_providers":["standard"],"artifact_contract":"immutable-manifest-v1",'
    '"credential_source":"approved-runtime-lookup"}'
)


def test_the_runtime_contract_record_is_a_runtime(tmp_path: Path) -> None:
    contract = write(tmp_path / "contract.json", SEED_CONTRACT)
    requirements = write(
        tmp_path / "requirements.txt", "pandas==2.2.3\napache-airflow-providers-postgres==6.2.0\n"
    )
    document, text = generated("--contract", str(contract), "--requirements", str(requirements))
    assert document["runtimes"] == {
        "base": {
            "providers": ["postgres==6.2.0", "standard"],
            "packages": ["pandas==2.2.3"],
            "code_version": "lab-report-v3",
            "runtime_version": "lab-runtime-2",
            "artifact_contract": "immutable-manifest-v1",
            "credential_source": "approved-runtime-lookup",
        }
    }
    assert f"# from {contract} credential_source" in unwrapped(text)
    loaded = load_inventory_from(text, tmp_path)
    assert loaded.runtimes["base"].labels["runtime_version"] == "lab-runtime-2"


def load_inventory_from(text: str, folder: Path):  # type: ignore[no-untyped-def]
    path = folder / "dagroute.toml"
    path.write_text(text, encoding="utf-8")
    return load_inventory(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"code_version": "x", "image": "y"}', "image: unknown key in a runtime contract"),
        ('{"required_providers": "standard"}', "required_providers: expected a list"),
        ('{"code_version": ""}', "code_version: expected a non-empty string"),
        ('["standard"]', "expected a JSON object"),
        ('{"code_version": ', "contract.json:1:18: invalid JSON: Expecting value"),
    ],
)
def test_bad_contracts_exit_2(tmp_path: Path, text: str, message: str) -> None:
    contract = write(tmp_path / "contract.json", text)
    code, _, err = invoke("--contract", str(contract))
    assert code == 2
    assert message in err


# --- sources together ----------------------------------------------------------------------------


def test_sources_combine_and_contradictions_exit_2(tmp_path: Path) -> None:
    values = write(tmp_path / "values.yaml", "executor: CeleryExecutor\nairflowVersion: '3.0.2'\n")
    requirements = write(tmp_path / "requirements.txt", "apache-airflow==3.0.2\npandas==2.2.3\n")
    document, _ = generated("--helm-values", str(values), "--requirements", str(requirements))
    assert document["runtimes"]["base"]["packages"] == ["pandas==2.2.3"]  # type: ignore[index]

    newer = write(tmp_path / "newer.txt", "apache-airflow==3.1.0\n")
    code, _, err = invoke("--helm-values", str(values), "--requirements", str(newer))
    assert code == 2
    assert f"{newer}:1 apache-airflow==3.1.0: airflow version '3.1.0' contradicts '3.0.2'" in err
    assert f"{values}: airflowVersion" in err

    cfg = write(tmp_path / "airflow.cfg", "[core]\nexecutor = LocalExecutor\n")
    code, _, err = invoke("--helm-values", str(values), "--airflow-cfg", str(cfg))
    assert code == 2
    assert "[core] executor 'CeleryExecutor' contradicts 'LocalExecutor'" in err


@pytest.mark.parametrize(
    "args",
    [
        [
            "--helm-values",
            str(EXAMPLES / "values.yaml"),
            "--helm-values",
            str(EXAMPLES / "values-prod.yaml"),
        ],
        ["--compose", str(EXAMPLES / "docker-compose.yaml")],
        ["--requirements", str(EXAMPLES / "requirements.txt")],
        ["--contract", str(EXAMPLES / "runtime-contract.json")],
    ],
    ids=["helm", "compose", "requirements", "contract"],
)
def test_each_example_source_writes_an_inventory_that_checks(
    tmp_path: Path, args: list[str]
) -> None:
    output = tmp_path / "dagroute.toml"
    code, _, err = invoke(*args, "--output", str(output))
    assert code == 0, err
    result = CliRunner().invoke(main, ["inventory", "check", str(output)])
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(
    ("command", "queues"),
    [
        ("celery worker", None),
        ("airflow celery worker -q a,b", ("a", "b")),
        (["airflow", "celery", "worker", "--queues=a"], ("a",)),
        ("airflow celery worker -qa -q b,c", ("b", "c")),  # the last one wins, as argparse does
        (["bash", "-c", "exec \\\nairflow celery worker -q x"], ("x",)),
        (
            "celery -A airflow.providers.celery.executors.celery_executor.app worker -Q etl",
            ("etl",),
        ),
    ],
)
def test_worker_commands(command: object, queues: tuple[str, ...] | None) -> None:
    found = component(command)
    assert found is not None and found.kind == "celery-worker"
    assert found.queues == queues


@pytest.mark.parametrize(
    ("command", "kind"),
    [("triggerer", "triggerer"), ("airflow dag-processor", "dag-processor"),
     ("bash -c 'airflow db migrate'", None), ("celery -A other.app worker -Q x", None)],
)  # fmt: skip
def test_component_commands(command: str, kind: str | None) -> None:
    found = component(command)
    assert (found.kind if found is not None else None) == kind
