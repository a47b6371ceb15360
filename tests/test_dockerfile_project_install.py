"""A Dockerfile that installs the project itself: its dependencies are read as the build reads
them (``pyproject.toml``, Poetry, ``setup.cfg``); what cannot be read leaves the runtime open."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from dagroute_lint.deployment.init.dockerfile import read_dockerfile
from dagroute_lint.deployment.toml import toml

DEPLOYMENTS = Path(__file__).parent / "data" / "deployments"
AIRFLOW = "FROM apache/airflow:3.0.2-python3.12\n"


@pytest.fixture(autouse=True)
def clean_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith(("AIRFLOW", "_PIP_", "COMPOSE_")):
            monkeypatch.delenv(name)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


PYPROJECT = """
    [project]
    name = "warehouse-jobs"
    version = "1.3.0"
    requires-python = ">=3.10"
    dependencies = [
        "pymarc>=5",
        "s3path==0.5.8",
        "python-magic ; sys_platform != 'win32'",
        "apache-airflow-providers-amazon>=8.20",
    ]

    [project.optional-dependencies]
    excel = ["openpyxl>=3.1"]
    docs = ["mkdocs"]

    [dependency-groups]
    dev = ["pytest>=8"]
    lint = ["ruff"]
    """


def requirements(tmp_path: Path, dockerfile: str) -> list[str | None]:
    path = write(tmp_path / "Dockerfile", dockerfile)
    return [item.requirement for item in read_dockerfile(path, tmp_path, {}).installed]


def test_pip_install_of_the_project_reads_its_pyproject(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", PYPROJECT)
    found = requirements(
        tmp_path, AIRFLOW + "COPY . /opt/airflow/jobs\nRUN pip install '/opt/airflow/jobs[excel]'\n"
    )
    # The marker is not evaluated (counted as installed); the extra named is, the other not.
    assert found == [
        "pymarc>=5",
        "s3path==0.5.8",
        "python-magic",
        "apache-airflow-providers-amazon>=8.20",
        "openpyxl>=3.1",
    ]


def test_uv_sync_takes_the_dev_group_unless_told_otherwise(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", PYPROJECT)
    copy = AIRFLOW + "WORKDIR /app\nCOPY pyproject.toml uv.lock ./\n"
    write(tmp_path / "uv.lock", "version = 1\n")
    assert requirements(tmp_path, copy + "RUN uv sync --frozen\n")[-1] == "pytest>=8"
    no_dev = requirements(tmp_path, copy + "RUN uv sync --frozen --no-dev --group lint\n")
    assert no_dev[-2:] == ["apache-airflow-providers-amazon>=8.20", "ruff"]


def test_setup_cfg_and_a_no_deps_install(tmp_path: Path) -> None:
    write(
        tmp_path / "setup.cfg",
        """
        [metadata]
        name = plugins

        [options]
        packages = find:
        install_requires =
            requests>=2.31
            tenacity  # retries
        """,
    )
    write(tmp_path / "setup.py", "from setuptools import setup\nsetup()\n")
    assert requirements(tmp_path, AIRFLOW + "COPY . .\nRUN pip install -e .\n") == [
        "requests>=2.31",
        "tenacity",
    ]
    assert requirements(tmp_path, AIRFLOW + "COPY . .\nRUN pip install --no-deps .\n") == []


@pytest.mark.parametrize(
    ("files", "run", "reason"),
    [
        ({"setup.py": "setup(install_requires=REQS)\n"}, "pip install .", "setup.py declares"),
        ({"dist/jobs-1.0-py3-none-any.whl": ""}, "pip install dist/*.whl", "built distribution"),
        ({"Pipfile": "[packages]\n"}, "pipenv install --system --deploy", "`pipenv install`"),
        ({}, "pip install /src", "no folder the Dockerfile copies"),
    ],
)
def test_what_cannot_be_read_leaves_the_image_open(
    tmp_path: Path, files: dict[str, str], run: str, reason: str
) -> None:
    for name, text in files.items():
        write(tmp_path / name, text)
    path = write(tmp_path / "Dockerfile", AIRFLOW + f"COPY . .\nRUN {run}\n")
    image = read_dockerfile(path, tmp_path, {})
    assert image.installed == ()
    assert len(image.open) == 1 and reason in image.open[0]
    assert image.open[0].startswith(f"{path}:3 RUN: ")


def test_an_open_install_only_in_a_build_stage_does_not_count(tmp_path: Path) -> None:
    write(tmp_path / "setup.py", "setup()\n")
    path = write(
        tmp_path / "Dockerfile",
        "FROM python:3.12 AS build\nCOPY . /src\nRUN pip install /src\n" + AIRFLOW,
    )
    assert read_dockerfile(path, tmp_path, {}).open == ()


def init(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    output = tmp_path / "dagroute.toml"
    result = CliRunner().invoke(
        main, ["inventory", "init", *args, "--output", str(output), "--force"]
    )
    assert result.exit_code == 0, result.output
    return result.exit_code, output.read_text(encoding="utf-8"), result.stderr


def test_a_poetry_project_image_lists_its_dependencies_and_lints_clean(tmp_path: Path) -> None:
    project = DEPLOYMENTS / "project-image"
    _, text, _ = init(tmp_path, "--compose", str(project / "docker-compose.yaml"))
    runtime = toml.loads(text)["runtimes"]["base"]
    assert runtime["image"] == "apache/airflow:2.10.2-python3.11"
    assert runtime["providers"] == ["sftp>=4.10"]
    # ^5.2 and ~2.32 as PEP 440; the dev group (--without dev) and the optional boto3 left out.
    assert runtime["packages"] == ["poetry==1.8.3", "pymarc>=5.2,<6.0", "requests>=2.32,<2.33"]
    lint = CliRunner().invoke(
        main, [str(project / "dags"), "--inventory", str(tmp_path / "dagroute.toml"), "--no-cache"]
    )
    assert lint.exit_code == 0, lint.output


def test_an_unreadable_install_is_left_to_fill_in_and_strict_check_fails(tmp_path: Path) -> None:
    project = tmp_path / "project"
    write(
        project / "setup.py",
        "from setuptools import setup\nsetup(install_requires=open('r').read().split())\n",
    )
    write(
        project / "Dockerfile",
        AIRFLOW
        + "COPY --chown=airflow . /opt/airflow/src\n"
        + "RUN pip install --no-cache-dir /opt/airflow/src\n",
    )
    write(
        project / "compose.yaml",
        """
        services:
          scheduler:
            build: .
            command: scheduler
            environment:
              AIRFLOW__CORE__EXECUTOR: LocalExecutor
        """,
    )
    _, text, err = init(tmp_path, "--compose", str(project / "compose.yaml"))
    runtime = toml.loads(text)["runtimes"]["base"]
    assert "image" not in runtime and "packages" not in runtime and "providers" not in runtime
    assert runtime["python"] == "3.12"
    assert '# image = "apache/airflow:3.0.2-python3.12"' in text
    assert "FILL IN [runtimes.base] packages: what it holds is not all known: " in err
    assert "installs a project whose requirements cannot be read" in err
    strict = CliRunner().invoke(
        main, ["inventory", "check", str(tmp_path / "dagroute.toml"), "--strict"]
    )
    assert strict.exit_code == 1


POETRY_PROJECT = """
    [tool.poetry]
    name = "catalog-pipes"
    version = "0.4.0"
    description = "Library catalogue loads"
    authors = ["Data Team <data@example.org>"]

    [tool.poetry.dependencies]
    python = "^3.11"
    pymarc = "^5.1"
    psycopg2-binary = "2.9.9"

    [tool.poetry.group.dev.dependencies]
    pytest = "^8"

    [build-system]
    requires = ["poetry-core"]
    build-backend = "poetry.core.masonry.api"
    """


def test_a_wheel_built_in_the_same_stage_is_the_project(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", PYPROJECT)
    write(tmp_path / "warehouse_jobs" / "__init__.py", "")
    found = requirements(
        tmp_path,
        AIRFLOW
        + "COPY pyproject.toml warehouse_jobs ./\n"
        + "RUN uv build && uv pip install --no-cache 'dist/*.whl[excel]'\n",
    )
    assert found == [
        "pymarc>=5",
        "s3path==0.5.8",
        "python-magic",
        "apache-airflow-providers-amazon>=8.20",
        "openpyxl>=3.1",
    ]


def test_a_wheel_a_builder_stage_made_and_copied_over(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", POETRY_PROJECT)
    write(tmp_path / "catalog_pipes" / "__init__.py", "")
    path = write(
        tmp_path / "Dockerfile",
        """
        FROM python:3.12-slim AS builder
        WORKDIR /src
        RUN pip install poetry==1.8.3
        COPY pyproject.toml poetry.lock* ./
        COPY catalog_pipes/ ./catalog_pipes/
        RUN poetry build --format=wheel

        FROM apache/airflow:2.10.5-python3.12
        COPY --from=builder /src/dist/*.whl /tmp/wheels/
        RUN pip install --no-cache-dir /tmp/wheels/*.whl && rm -rf /tmp/wheels
        """,
    )
    image = read_dockerfile(path, tmp_path, {})
    assert image.open == ()
    # The wheel has the main dependencies only: groups are Poetry's, not the wheel's.
    assert [item.requirement for item in image.installed] == [
        "pymarc>=5.1,<6.0",
        "psycopg2-binary==2.9.9",
    ]
    assert image.installed[0].where.startswith(f"{path}:10 RUN (")


def test_python_m_build_into_an_output_folder_copied_whole(tmp_path: Path) -> None:
    write(tmp_path / "jobs" / "pyproject.toml", PYPROJECT)
    path = write(
        tmp_path / "Dockerfile",
        """
        FROM python:3.12 AS wheels
        COPY jobs /build/jobs
        RUN python -m pip install build && python -m build --wheel -o /out /build/jobs

        FROM apache/airflow:3.0.2-python3.12
        COPY --from=wheels /out /opt/wheels
        RUN pip install --no-deps /opt/wheels/*.whl
        RUN pip install /opt/wheels/*.whl
        """,
    )
    image = read_dockerfile(path, tmp_path, {})
    assert image.open == ()
    assert [item.requirement for item in image.installed][:2] == ["pymarc>=5", "s3path==0.5.8"]
    assert all(item.where.startswith(f"{path}:8 RUN") for item in image.installed)


def test_a_wheel_no_build_made_stays_open(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", PYPROJECT)
    write(tmp_path / "vendor" / "jobs-1.0-py3-none-any.whl", "")
    path = write(
        tmp_path / "Dockerfile",
        AIRFLOW + "COPY pyproject.toml ./\nRUN uv build\nCOPY vendor /vendor\n"
        "RUN pip install /vendor/*.whl\n",
    )
    image = read_dockerfile(path, tmp_path, {})
    assert image.installed == ()
    assert len(image.open) == 1 and "/vendor/*.whl is a built distribution" in image.open[0]


def test_a_compose_build_of_the_wheel_leaves_nothing_to_fill_in(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", PYPROJECT)
    write(tmp_path / "warehouse_jobs" / "__init__.py", "")
    write(
        tmp_path / "Dockerfile",
        AIRFLOW
        + "COPY pyproject.toml warehouse_jobs ./\nRUN uv build\nRUN pip install dist/*.whl\n",
    )
    compose = write(
        tmp_path / "compose.yaml",
        """
        x-common: &common
          build: .
          environment:
            AIRFLOW__CORE__EXECUTOR: CeleryExecutor
        services:
          scheduler: {<<: *common, command: scheduler}
          worker: {<<: *common, command: celery worker}
        """,
    )
    result = CliRunner().invoke(main, ["inventory", "init", "--compose", str(compose)])
    assert result.exit_code == 0, result.stderr
    assert "FILL IN" not in result.stderr
    runtime = toml.loads(result.stdout)["runtimes"]["base"]
    assert runtime["image"] == "apache/airflow:3.0.2-python3.12"
    assert "pymarc>=5" in runtime["packages"]
    assert "amazon>=8.20" in runtime["providers"]
