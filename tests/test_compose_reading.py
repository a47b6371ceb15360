"""Compose files as docker compose reads them: interpolation, .env, merging, extends, profiles."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dagroute_lint.deployment.init.compose_project import load_compose, merge_service
from dagroute_lint.deployment.init.dotenv import read_dotenv
from dagroute_lint.deployment.init.interpolation import (
    VALUE_USED,
    InterpolationError,
    interpolate,
)
from dagroute_lint.errors import ConfigError


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


# --- interpolation -------------------------------------------------------------------------------

SHELL = {"SET": "value", "EMPTY": ""}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$SET and ${SET}", "value and value"),
        ("${UNSET:-fallback} ${EMPTY:-fallback}", "fallback fallback"),  # :- also for empty
        ("${UNSET-fallback} [${EMPTY-fallback}]", "fallback []"),  # - only for unset
        ("${SET:+other} [${EMPTY:+other}] ${EMPTY+other}", "other [] other"),
        ("$$SET costs $$5", "$SET costs $5"),  # $$ is a literal $
        ("${UNSET:-${SET}}", "value"),  # a default may hold another variable
        ("${UNSET:-apache/airflow:2.10.2}", "apache/airflow:2.10.2"),
        ("[$UNSET]", "[]"),  # unset without a default: the empty string, as compose does
        ("100$", "100$"),
    ],
)
def test_interpolation_forms(text: str, expected: str) -> None:
    assert interpolate(text, SHELL) == expected


def test_interpolation_says_which_variables_the_shell_would_decide() -> None:
    heard: list[tuple[str, str | None]] = []
    interpolate(
        "${IMAGE:-apache/airflow:3.0.2} $QUEUE ${SET:-x}", SHELL, lambda *a: heard.append(a)
    )
    # A default taken, a variable with no value at all, and one used with its value.
    assert heard == [("IMAGE", "apache/airflow:3.0.2"), ("QUEUE", None), ("SET", VALUE_USED)]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("${BROKER:?set the broker URL}", "required variable BROKER is missing a value: set the"),
        ("${EMPTY:?}", "required variable EMPTY is missing a value"),
        ("${SET", "is not closed"),
        ("${SET!}", "unknown form"),
    ],
)
def test_interpolation_errors(text: str, message: str) -> None:
    with pytest.raises(InterpolationError, match=message.replace("?", r"\?")):
        interpolate(text, SHELL)
    assert interpolate("${EMPTY?}", SHELL) == ""  # `?` without `:` accepts an empty value


# --- .env ----------------------------------------------------------------------------------------


def test_dotenv_as_compose_reads_it(tmp_path: Path) -> None:
    path = write(
        tmp_path / ".env",
        """
        # written by the quick start's set-up step
        AIRFLOW_UID=50000
        export AIRFLOW_IMAGE_NAME=apache/airflow:2.10.2   # the team's pin
        QUOTED='literal $AIRFLOW_UID # not a comment'
        DOUBLE="uid ${AIRFLOW_UID}\\tend"
        _PIP_ADDITIONAL_REQUIREMENTS="apache-airflow-providers-github==2.7.0 pandas"
        FROM_SHELL
        """,
    )
    found = read_dotenv(path, {"FROM_SHELL": "shell value"})
    assert found == {
        "AIRFLOW_UID": "50000",
        "AIRFLOW_IMAGE_NAME": "apache/airflow:2.10.2",
        "QUOTED": "literal $AIRFLOW_UID # not a comment",
        "DOUBLE": "uid 50000\tend",
        "_PIP_ADDITIONAL_REQUIREMENTS": "apache-airflow-providers-github==2.7.0 pandas",
        "FROM_SHELL": "shell value",
    }


def test_dotenv_takes_the_yaml_like_lines_compose_takes(tmp_path: Path) -> None:
    # compose-go's dotenv parser splits a line at its first "=" or ":" ("yaml-style value
    # declaration"): a .env a README tells users to write so starts the stack.
    path = write(
        tmp_path / ".env",
        """
        AIRFLOW_UID=50000
        AIRFLOW_VAR_HOST: 'reports.example.org'
        AIRFLOW_VAR_LIMIT: 1000
        AIRFLOW_VAR_NOTE:see the team's wiki
        """,
    )
    assert read_dotenv(path, {}) == {
        "AIRFLOW_UID": "50000",
        "AIRFLOW_VAR_HOST": "reports.example.org",
        "AIRFLOW_VAR_LIMIT": "1000",
        "AIRFLOW_VAR_NOTE": "see the team's wiki",
    }


def test_a_broken_dotenv_line_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path / ".env", "A=1\nthis is not an assignment\n")
    with pytest.raises(ConfigError, match=r"\.env:2: expected NAME=value"):
        read_dotenv(path, {})


# --- merging several files -----------------------------------------------------------------------


def test_merge_rules_of_the_compose_specification() -> None:
    base = {
        "image": "apache/airflow:2.10.2",
        "command": ["celery", "worker", "-q", "default"],
        "environment": ["AIRFLOW__CORE__EXECUTOR=CeleryExecutor", "KEEP=1"],
        "env_file": ["airflow.env"],
        "build": {"context": ".", "args": {"TAG": "2.10.2"}},
    }
    override = {
        "command": "celery worker -q etl",
        "environment": {"AIRFLOW__CORE__EXECUTOR": "LocalExecutor", "NEW": None},
        "env_file": ["airflow.env", "workers.env"],
        "build": {"args": ["EXTRA=yes"]},
    }
    assert merge_service(base, override) == {
        "image": "apache/airflow:2.10.2",
        "command": "celery worker -q etl",  # replaced whole, not appended
        "environment": {"AIRFLOW__CORE__EXECUTOR": "LocalExecutor", "KEEP": "1", "NEW": None},
        "env_file": ["airflow.env", "workers.env"],  # appended without repeats
        "build": {"context": ".", "args": {"TAG": "2.10.2", "EXTRA": "yes"}},
    }


def test_two_files_env_and_shell_merge_as_docker_compose_does(tmp_path: Path) -> None:
    first = write(
        tmp_path / "docker-compose.yaml",
        """
        services:
          scheduler:
            image: ${AIRFLOW_IMAGE_NAME:-apache/airflow:2.10.2}
            command: scheduler
            environment:
              AIRFLOW__CORE__EXECUTOR: ${EXECUTOR}
          worker:
            image: ${AIRFLOW_IMAGE_NAME:-apache/airflow:2.10.2}
            command: celery worker
        """,
    )
    second = write(
        tmp_path / "override" / "workers.yaml",
        """
        services:
          worker:
            command: celery worker -q ${QUEUES:-default}
          triggerer:
            extends: worker
            command: triggerer
        """,
    )
    write(tmp_path / ".env", "AIRFLOW_IMAGE_NAME=apache/airflow:2.10.5\nEXECUTOR=LocalExecutor\n")
    # The shell wins over .env, as in compose.
    project = load_compose([first, second], {"EXECUTOR": "CeleryExecutor"})
    services = project.services
    assert list(services) == ["scheduler", "worker", "triggerer"]
    assert services["scheduler"].body == {
        "image": "apache/airflow:2.10.5",
        "command": "scheduler",
        "environment": {"AIRFLOW__CORE__EXECUTOR": "CeleryExecutor"},
    }
    assert services["worker"].body["command"] == "celery worker -q default"
    assert services["triggerer"].body == {
        "image": "apache/airflow:2.10.5",
        "command": "triggerer",
    }
    assert project.directory == tmp_path  # paths are relative to the first file's folder
    assert any("QUEUES is set neither in the shell nor in .env" in n for n in project.notes)


def test_extends_another_file_and_refuses_a_cycle(tmp_path: Path) -> None:
    write(
        tmp_path / "common.yaml",
        """
        services:
          airflow:
            image: apache/airflow:3.0.2
            environment: {AIRFLOW__CORE__EXECUTOR: CeleryExecutor}
        """,
    )
    main = write(
        tmp_path / "compose.yaml",
        """
        services:
          scheduler:
            extends: {file: common.yaml, service: airflow}
            command: scheduler
            environment: {AIRFLOW__OPERATORS__DEFAULT_QUEUE: main}
        """,
    )
    body = load_compose([main], {}).services["scheduler"].body
    assert body == {
        "image": "apache/airflow:3.0.2",
        "environment": {
            "AIRFLOW__CORE__EXECUTOR": "CeleryExecutor",
            "AIRFLOW__OPERATORS__DEFAULT_QUEUE": "main",
        },
        "command": "scheduler",
    }
    cycle = write(
        tmp_path / "cycle.yaml",
        "services:\n  a: {extends: b, command: scheduler}\n  b: {extends: a}\n",
    )
    with pytest.raises(ConfigError, match="extends itself"):
        load_compose([cycle], {})


def test_profiles_leave_services_out_unless_enabled(tmp_path: Path) -> None:
    path = write(
        tmp_path / "docker-compose.yaml",
        """
        services:
          scheduler: {image: apache/airflow:2.10.2, command: scheduler}
          flower: {image: apache/airflow:2.10.2, command: celery flower, profiles: [flower]}
          gpu-worker:
            image: apache/airflow:2.10.2
            command: celery worker -q gpu
            profiles: [gpu]
        """,
    )
    project = load_compose([path], {})
    assert list(project.services) == ["scheduler"]
    assert "flower (flower), gpu-worker (gpu) (enable one with --profile)" in project.notes[-1]
    assert list(load_compose([path], {}, ["gpu"]).services) == ["scheduler", "gpu-worker"]
    assert "gpu-worker" in load_compose([path], {"COMPOSE_PROFILES": "gpu,x"}).services


def test_a_required_variable_names_file_line_and_key(tmp_path: Path) -> None:
    path = write(
        tmp_path / "docker-compose.yaml",
        """
        services:
          worker:
            image: apache/airflow:2.10.2
            command: celery worker
            environment:
              AIRFLOW__CELERY__BROKER_URL: ${BROKER_URL:?set it in .env}
        """,
    )
    with pytest.raises(ConfigError) as caught:
        load_compose([path], {})
    assert str(caught.value) == (
        f"{path}:6: services.worker.environment.AIRFLOW__CELERY__BROKER_URL: required variable "
        "BROKER_URL is missing a value: set it in .env"
    )


def test_anchors_and_merge_keys_of_the_quick_start() -> None:
    path = Path(__file__).parent / "data" / "deployments" / "quickstart-2" / "docker-compose.yaml"
    project = load_compose([path], {"AIRFLOW_IMAGE_NAME": "apache/airflow:2.10.4"})
    worker = project.services["airflow-worker"].body
    assert worker["image"] == "apache/airflow:2.10.4"
    assert worker["command"] == "celery worker"
    # The worker's own environment merges over the common one through `<<: *airflow-common-env`.
    assert worker["environment"]["DUMB_INIT_SETSID"] == "0"
    assert worker["environment"]["AIRFLOW__CORE__EXECUTOR"] == "CeleryExecutor"
    assert worker["environment"]["_PIP_ADDITIONAL_REQUIREMENTS"] == (
        "apache-airflow-providers-github==2.7.0"
    )
    # The health check's $${HOSTNAME} is the container shell's variable, left for it.
    assert "celery@${HOSTNAME}" in worker["healthcheck"]["test"][1]
    assert "airflow-cli" not in project.services and "flower" not in project.services
