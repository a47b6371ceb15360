"""Pytest wiring for the conformance suite: the marker and the printed report."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
# The suite's helper modules sit beside the tests; make them importable under any import mode.
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

REPORTS_KEY = pytest.StashKey[list[dict[str, Any]]]()
REPORT_FILE_KEY = pytest.StashKey[Path]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "conformance: compares `dagroute-lint routes` with Airflow's own parsed tasks "
        "(needs PyPI once to build the cached Airflow venv)",
    )
    config.addinivalue_line(
        "markers",
        "legacy_corpus: the corpora the conformance suite had before it was made strict "
        "(idioms, airflow-core, providers-standard, against Airflow 3.3.2)",
    )
    config.stash[REPORTS_KEY] = []


class ReportSink:
    """Collects each corpus report: printed at the end of the run, and kept as one JSON file."""

    def __init__(self, reports: list[dict[str, Any]], path: Path) -> None:
        self.reports = reports
        self.path = path

    def add(self, entry: dict[str, Any]) -> None:
        """Record ``entry`` (its ``text`` is what the terminal summary prints)."""
        self.reports.append(entry)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        plain = [{k: v for k, v in r.items() if k != "text"} for r in self.reports]
        self.path.write_text(json.dumps(plain, indent=2) + "\n", encoding="utf-8")


@pytest.fixture(scope="session")
def conformance_reports(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> ReportSink:
    """The run's report sink; the JSON goes to ``$DAGROUTE_CONFORMANCE_REPORT`` or pytest's tmp."""
    env = os.environ.get("DAGROUTE_CONFORMANCE_REPORT")
    path = Path(env) if env else tmp_path_factory.getbasetemp() / "conformance-report.json"
    request.config.stash[REPORT_FILE_KEY] = path
    return ReportSink(request.config.stash[REPORTS_KEY], path)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    reports = config.stash.get(REPORTS_KEY, [])
    if not reports:
        return
    terminalreporter.section("dagroute-lint routes vs Airflow (conformance)")
    for report in reports:
        terminalreporter.write_line(report["text"])
    path = config.stash.get(REPORT_FILE_KEY, None)
    if path is not None:
        terminalreporter.write_line(f"JSON report: {path}")
