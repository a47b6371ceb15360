"""Deployment files written for ``inventory init`` tests, and init run on them."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main

# Variables of the shell that would decide what init reads, cleared for each test.
SHELL_PREFIXES = ("AIRFLOW", "_PIP_", "COMPOSE_", "PYTHONPATH")


def clear_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith(SHELL_PREFIXES):
            monkeypatch.delenv(name)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def invoke(*args: str) -> tuple[int, str, str]:
    """``inventory init ARGS``: exit code, stdout, stderr."""
    result = CliRunner().invoke(main, ["inventory", "init", *args])
    return result.exit_code, result.stdout, result.stderr
