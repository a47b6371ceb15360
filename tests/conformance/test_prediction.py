"""The parse-boundary diagnostics predict, file by file, the import errors of Airflow's DagBag.

On real DAG files (the providers' system tests, Airflow's example DAGs; ``predict.py``), with an
inventory written by ``inventory init --python`` from the venv Airflow runs in: at least 97% of
the files DagBag rejects for a missing module get a diagnostic naming that module, and no file
that loads gets one.
"""

from __future__ import annotations

import pytest
from airflow_env import ORACLES, ensure_airflow_venv
from conftest import ReportSink
from predict import Prediction, predict, table, total

pytestmark = pytest.mark.conformance

RECALL = 0.97


@pytest.fixture(scope="module", params=sorted(ORACLES, reverse=True))
def prediction(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[list[Prediction], Prediction]:
    env = ensure_airflow_venv(oracle=ORACLES[request.param])
    results = predict(env, tmp_path_factory.mktemp(f"predict-{env.version}"))
    return results, total(results)


def test_files_that_load_get_no_parse_boundary_diagnostic(
    prediction: tuple[list[Prediction], Prediction], conformance_reports: ReportSink
) -> None:
    results, combined = prediction
    conformance_reports.add(
        {
            "corpus": "prediction",
            "version": combined.version,
            "files": combined.files,
            "false_alarms": len(combined.false_alarms),
            "text": f"prediction of DagBag's import errors, Airflow {combined.version}:\n"
            + table(results),
        }
    )
    assert combined.loaded > 50, "too few files load for the check to mean anything"
    assert not combined.false_alarms, combined.false_alarms


def test_files_rejected_for_a_missing_module_are_predicted(
    prediction: tuple[list[Prediction], Prediction],
) -> None:
    _, combined = prediction
    row = combined.rows["missing module"]
    assert row.files > 300, "the system-test corpus did not reach DagBag"
    assert row.named >= RECALL * row.files, (row, combined.misses)


def test_the_counts_are_the_files_of_the_corpora(
    prediction: tuple[list[Prediction], Prediction],
) -> None:
    """Every file DagBag imports is in exactly one row."""
    results, combined = prediction
    rejected = sum(row.files for row in combined.rows.values())
    assert rejected + combined.loaded == combined.files
    assert {r.corpus for r in results} >= {"system-tests"}
    assert all(result.files > 0 for result in results), [(r.corpus, r.files) for r in results]
