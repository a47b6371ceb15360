"""Dockerfiles read as BuildKit builds them: build context, stages, ARG and pip installs."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dagroute_lint.deployment.init.dockerfile import read_dockerfile
from dagroute_lint.errors import ConfigError


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def test_copy_above_the_context_is_clamped_inside_it(tmp_path: Path) -> None:
    """`COPY ../shared/requirements.txt` builds: BuildKit resolves `..` within the context."""
    context = tmp_path / "build"
    write(context / "shared" / "requirements.txt", "pandas==2.2.3\n")
    dockerfile = write(
        context / "image" / "Dockerfile",
        """
        FROM apache/airflow:2.10.2
        COPY ../shared/requirements.txt /requirements.txt
        RUN pip install --no-cache-dir -r /requirements.txt
        """,
    )
    image = read_dockerfile(dockerfile, context, {})
    assert image.base == "apache/airflow:2.10.2"
    assert [item.file for item in image.installed] == [context / "shared" / "requirements.txt"]
    assert image.installed[0].where == f"{dockerfile}:3 RUN"


def test_arguments_stages_and_copies_between_stages(tmp_path: Path) -> None:
    write(tmp_path / "requirements" / "base.txt", "requests==2.32.3\n")
    dockerfile = write(
        tmp_path / "Dockerfile",
        """
        # syntax=docker/dockerfile:1
        ARG AIRFLOW_IMAGE=apache/airflow
        ARG AIRFLOW_TAG=2.10.5
        FROM python:3.12-slim AS wheels
        WORKDIR /src
        COPY requirements/ ./requirements/
        RUN pip wheel -r requirements/base.txt -w /wheels

        FROM ${AIRFLOW_IMAGE}:${AIRFLOW_TAG} AS base
        ARG EXTRA_PROVIDER=apache-airflow-providers-slack
        COPY --from=wheels /src/requirements/base.txt /opt/airflow/base.txt
        RUN pip install --no-cache-dir \\
              "apache-airflow==${AIRFLOW_VERSION}" \\
              ${EXTRA_PROVIDER} \\
              -r base.txt \\
         && python -m pip check
        ENV AIRFLOW__OPERATORS__DEFAULT_QUEUE=etl \\
            OTHER=1

        FROM base AS final
        RUN uv pip install --system 'polars>=1' /wheels/*.whl

        FROM base AS test
        RUN pip install pytest
        """,
    )
    image = read_dockerfile(
        dockerfile, tmp_path, {"AIRFLOW_TAG": "2.10.2-python3.11"}, target="final"
    )
    assert image.base == "apache/airflow:2.10.2-python3.11"
    assert image.base_where == f"{dockerfile}:9 FROM"
    installed = [(item.requirement, item.file) for item in image.installed]
    assert installed == [
        ("apache-airflow==2.10.2", None),  # the official image's ENV AIRFLOW_VERSION
        ("apache-airflow-providers-slack", None),
        (None, tmp_path / "requirements" / "base.txt"),  # found through COPY --from=wheels
        ("polars>=1", None),
    ]  # `pytest` is in the `test` stage, which the target leaves out
    assert image.env["AIRFLOW__OPERATORS__DEFAULT_QUEUE"][0] == "etl"
    assert any("/wheels/*.whl is a built distribution" in reason for reason in image.open)
    last = read_dockerfile(dockerfile, tmp_path, {})
    assert last.base == "apache/airflow:2.10.5"  # the ARG default
    assert last.installed[-1].requirement == "pytest"  # without a target: the last stage


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("RUN pip install x\n", ":1 RUN: only ARG may come before the first FROM"),
        ("FROM apache/airflow:2.10.2\nRUN pip install 'x\n", ":2 RUN: cannot split"),
        ("FROM a\nCOPY onlyone\n", ":2 COPY: expected sources and a destination"),
        ("FROM a\nFROM b AS c\n", "build target 'missing' is no stage"),
        (
            "FROM apache/airflow:2.10.2\nCOPY r.txt /r.txt\nRUN pip install -r /r.txt\n",
            ":3 RUN: ",
        ),
    ],
)
def test_broken_dockerfiles_name_file_and_line(tmp_path: Path, text: str, message: str) -> None:
    dockerfile = write(tmp_path / "Dockerfile", text)
    with pytest.raises(ConfigError) as caught:
        read_dockerfile(dockerfile, tmp_path, {}, target="missing" if "AS c" in text else None)
    assert str(caught.value).startswith(str(dockerfile))
    assert message in str(caught.value)


def test_a_requirements_file_bind_mounted_for_one_run(tmp_path: Path) -> None:
    """BuildKit's cache-friendly form: the file is mounted for the RUN, never copied."""
    write(tmp_path / "requirements.txt", "apache-airflow-providers-github==2.7.0\n")
    dockerfile = write(
        tmp_path / "Dockerfile",
        """
        FROM apache/airflow:3.0.2
        RUN --mount=type=cache,target=/home/airflow/.cache/pip \\
            --mount=type=bind,source=requirements.txt,target=/tmp/requirements.txt \\
            pip install -r /tmp/requirements.txt
        RUN pip install -r /tmp/requirements.txt
        """,
    )
    image = read_dockerfile(dockerfile, tmp_path, {})
    assert [item.file for item in image.installed] == [tmp_path / "requirements.txt"]
    # The mount is gone for the next RUN: that -r reads no file of the context.
    assert any(
        "-r /tmp/requirements.txt is no file the Dockerfile copies" in n for n in image.notes
    )
