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
RECALL = 0.0
# DagBag builds the tasks of at least this many files' worth of DAGs: the oracle really loads the
# system tests (a broken tests_common or a missing provider would fall far below).
MIN_TASKS = 2500


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
    wrong = {result.provider: result.report.wrong for result in results if result.report.wrong}
    assert not wrong, wrong


def test_no_task_is_missed_without_a_diagnostic(results: list[ProviderRecall]) -> None:
    missing = {r.provider: r.report.missing for r in results if r.report.missing}
    assert not missing, missing


def test_recall_does_not_fall(results: list[ProviderRecall]) -> None:
    assert total_recall(results) >= RECALL, table(results)
