"""The paths ``--fix`` may write for the newest checked release of each Airflow major version that
the conformance suite has a venv of (``fix_targets``): each imports without a warning on that
release by the shipped verdicts, the drop-in successors are there, and
a successor that is not the same object is not.

The conformance suite imports every target in real Airflow; this pins which ones there are."""

from __future__ import annotations

import pytest

from dagroute_lint.catalog.import_verdicts import WORKS, Checked, import_verdict
from dagroute_lint.rules.airflow_imports import fix_targets

# The shipped tables give these counts; regenerating them changes the counts, and the
# conformance run (tests/conformance/test_import_moves.py) then checks the new targets.
COUNTS = {"3.3.2": 514, "2.10.5": 49}
PRESENT = {
    "3.3.2": [
        ("airflow.providers.standard.operators.bash", "BashOperator"),
        ("airflow.providers.amazon.aws.hooks.base_aws", "AwsBaseHook"),
        # reached only through a "*" row (airflow.datasets -> airflow.sdk) and a tried path
        ("airflow.sdk", "AssetAlias"),
    ],
    "2.10.5": [
        ("airflow.operators.bash", "BashOperator"),
        ("airflow", "DAG"),
        ("airflow.decorators", "task"),
    ],
}
ABSENT = {
    # DatasetOrTimeSchedule became AssetOrTimeSchedule, a new name the moves table does not mark
    # as a drop-in: DRL204 names the successor, --fix never writes it ...
    "3.3.2": [("airflow.timetables.assets", "AssetOrTimeSchedule")],
    # ... and airflow.utils.types.NOTSET moved under another name (ArgNotSet): on Airflow 2 the
    # Airflow 2 spelling of that successor is no fix for it either.
    "2.10.5": [("airflow.utils.types", "ArgNotSet")],
}


@pytest.mark.parametrize("version", sorted(COUNTS))
def test_fix_targets(version: str) -> None:
    checked = Checked(version)
    targets = fix_targets(checked)
    assert len(targets) == COUNTS[version]
    failing = [
        (module, name)
        for module, name in sorted(targets)
        if (verdict := import_verdict(module, name, checked)) is None or verdict.kind != WORKS
    ]
    assert failing == []
    assert [pair for pair in PRESENT[version] if pair not in targets] == []
    assert [pair for pair in ABSENT[version] if pair in targets] == []
