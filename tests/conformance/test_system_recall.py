"""routes sees the tasks DagBag builds from the providers' system-test DAGs, and never silently.

Each provider's system tests are their own project with the import roots Airflow's CI gives them
(``system_recall.py``), loaded by DagBag in the system-tests oracle. No value routes gives may be
wrong, no task Airflow builds may be missing from a file without a diagnostic there, and the
share of tasks routes reports may not fall below what it is today (issue 27's target is 99%).
"""

from __future__ import annotations

import pytest
from airflow_env import AIRFLOW_3_SYSTEM_TESTS, ensure_airflow_venv
from conftest import ReportSink
from system_recall import ProviderRecall, measure, table, total_recall

pytestmark = pytest.mark.conformance

# The share of Airflow's tasks routes reports, measured (a ratchet: raise it as it rises).
RECALL = 0.997
# DagBag builds at least this many tasks: the oracle really loads the system tests (a broken
# tests_common or a missing provider would fall far below).
MIN_TASKS = 2500

# The known failures, an exact ratchet like open_gaps.json: one not listed fails (a regression),
# and so does a listed one that is gone (remove the entry). Provider -> file -> tasks. None today:
# databricks' DatabricksWorkflowTaskGroup and the ``launch`` task it adds on exit are modelled
# (``names.GROUP_EXIT_TASKS``).
KNOWN_SILENT: dict[str, dict[str, int]] = {}
# Provider -> (file, task_id, field). None today: an operator imported from ``tests_common``'s
# ``compat`` (a try/except ImportError re-export) is the class compat imported.
KNOWN_WRONG: dict[str, set[tuple[str, str, str]]] = {}


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> list[ProviderRecall]:
    env = ensure_airflow_venv(oracle=AIRFLOW_3_SYSTEM_TESTS)
    return measure(env, tmp_path_factory.mktemp("system-recall"))


def test_dagbag_builds_the_system_test_dags(
    results: list[ProviderRecall], conformance_reports: ReportSink
) -> None:
    conformance_reports.add(
        {
            "corpus": "system-test recall",
            "version": AIRFLOW_3_SYSTEM_TESTS.version,
            "recall": total_recall(results),
            "text": "system-test DAGs, each provider its own project, Airflow 3.3.2:\n"
            + table(results),
        }
    )
    assert sum(result.counts["tasks"] for result in results) >= MIN_TASKS, table(results)


def test_no_value_is_wrong(results: list[ProviderRecall]) -> None:
    wrong = {
        result.provider: {(e["file"], e["task_id"], e["field"]) for e in result.report.wrong}
        for result in results
        if result.report.wrong
    }
    assert wrong == KNOWN_WRONG


def test_no_task_is_missed_without_a_diagnostic(results: list[ProviderRecall]) -> None:
    silent: dict[str, dict[str, int]] = {}
    for result in results:
        for entry in result.report.missing:
            files = silent.setdefault(result.provider, {})
            files[entry["file"]] = files.get(entry["file"], 0) + 1
    assert silent == KNOWN_SILENT


def test_recall_does_not_fall(results: list[ProviderRecall]) -> None:
    assert total_recall(results) >= RECALL, table(results)
