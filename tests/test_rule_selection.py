"""Which rules count as having run on a file, and where an unknown selector is said to come from.

DRL901 judges only the codes of rules that ran on the file: a deployment rule does not run
without an inventory, so its ``# noqa`` cannot be called unused there. An unknown selector is
rejected naming its layer and key (``extend-select`` as well as ``select`` and ``ignore``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dagroute_lint.config import Settings, load_settings
from dagroute_lint.errors import ConfigError
from tests.helpers import CELERY_K8S, lint_source

# DRL101 (a deployment rule) would report the first task: its queue is served by no worker.
SOURCE = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("lab", schedule=None):
    BashOperator(task_id="t", bash_command="x", queue="reports")  # noqa: DRL101
    BashOperator(task_id="u", bash_command="x")  # noqa: DRL004
"""

UNUSED_DRL004 = (
    "DRL901",
    6,
    "unused `# noqa` code DRL004: no DRL004 diagnostic is reported on this line",
)


def found(inventory: str | None) -> list[tuple[str, int, str]]:
    return [(d.code, d.line, d.message) for d in lint_source(SOURCE, inventory)]


def test_a_deployment_rules_noqa_is_not_judged_without_an_inventory() -> None:
    """Without an inventory DRL101 does not run, so its comment may well be needed: only the
    DRL004 code, of a rule that ran and found nothing, is unused."""
    assert found(None) == [UNUSED_DRL004]


def test_with_an_inventory_the_deployment_rules_noqa_is_used() -> None:
    assert found(CELERY_K8S) == [UNUSED_DRL004]


def test_an_unknown_extend_select_in_the_settings_file_is_named_so(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.dagroute-lint]\nextend-select = ["DRL99"]\n')
    with pytest.raises(ConfigError) as raised:
        load_settings(None, tmp_path)
    assert str(raised.value) == (
        f"unknown rule selector 'DRL99' in {tmp_path / 'pyproject.toml'}: tool.dagroute-lint "
        "extend-select (see `dagroute-lint rules`); did you mean DRL901?"
    )


def test_an_unknown_extend_select_on_the_command_line_is_named_so(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as raised:
        Settings(root=tmp_path).with_overrides(extend_select=["DRL1O1"])
    assert str(raised.value) == (
        "unknown rule selector 'DRL1O1' in the command line extend-select "
        "(see `dagroute-lint rules`); did you mean DRL101?"
    )


def test_settings_built_in_code_reject_an_unknown_selector_when_resolved(tmp_path: Path) -> None:
    """Settings made in code rather than read from a file are not checked when made; resolving
    their selection rejects the selector, naming the layer (no file: "the defaults")."""
    settings = Settings(root=tmp_path, select=("DRL1O1",))
    with pytest.raises(ConfigError) as raised:
        settings.selected_codes()
    assert str(raised.value) == (
        "unknown rule selector 'DRL1O1' in the defaults (see `dagroute-lint rules`); "
        "did you mean DRL101?"
    )
