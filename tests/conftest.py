"""What the whole test run shares: where Hypothesis keeps its files.

Hypothesis keeps its example database and its caches in ``.hypothesis/`` of the current folder,
the repository root: they go to the test environment's cache instead (``cache_root()``, inside
the virtual environment running the tests), with the conformance suite's venvs and downloads.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis.configuration import set_hypothesis_home_dir

from tests.conformance.airflow_env import cache_root


def _hypothesis_home() -> Path:
    try:
        return cache_root() / "hypothesis"
    except RuntimeError:  # no virtual environment and no $DAGROUTE_CONFORMANCE_CACHE
        return Path(tempfile.gettempdir()) / "dagroute-lint-hypothesis"


set_hypothesis_home_dir(_hypothesis_home())

CONFORMANCE = Path(__file__).resolve().parent / "conformance"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The conformance suite compares the linter with Airflow, which it installs."""
    for item in items:
        if item.path.is_relative_to(CONFORMANCE):
            item.add_marker(pytest.mark.installs)
