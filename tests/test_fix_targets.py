"""The paths ``--fix`` may write for each Airflow major version (``fix_targets``): each imports
without a warning on that version by the shipped verdicts, the drop-in successors are there, and
a successor that is not the same object is not.

The conformance suite imports every target in real Airflow; this pins which ones there are."""

from __future__ import annotations

import pytest

from dagroute_lint.catalog.import_verdicts import WORKS, import_verdict
from dagroute_lint.rules.airflow_imports import fix_targets

# The shipped tables give these counts; regenerating them changes the counts, and the
# conformance run (tests/conformance/test_import_moves.py) then checks the new targets.
COUNTS = {3: 512, 2: 49}
PRESENT = {
    3: [
        ("airflow.providers.standard.operators.bash", "BashOperator"),
        ("airflow.providers.amazon.aws.hooks.base_aws", "AwsBaseHook"),
        # reached only through a "*" row (airflow.datasets -> airflow.sdk) and a tried path
        ("airflow.sdk", "AssetAlias"),
    ],
    2: [
        ("airflow.operators.bash", "BashOperator"),
        ("airflow", "DAG"),
        ("airflow.decorators", "task"),
    ],
}
ABSENT = {
    # DatasetOrTimeSchedule became AssetOrTimeSchedule, a new name the moves table does not mark
    # as a drop-in: DRL204 names the successor, --fix never writes it ...
    3: [("airflow.timetables.assets", "AssetOrTimeSchedule")],
    # ... and airflow.utils.types.NOTSET moved under another name (ArgNotSet): on Airflow 2 the
    # Airflow 2 spelling of that successor is no fix for it either.
    2: [("airflow.utils.types", "ArgNotSet")],
}


@pytest.mark.parametrize("major", sorted(COUNTS))
def test_fix_targets(major: int) -> None:
    targets = fix_targets(major)
    assert len(targets) == COUNTS[major]
    failing = [
        (module, name)
        for module, name in sorted(targets)
        if (verdict := import_verdict(module, name, major)) is None or verdict.kind != WORKS
    ]
    assert failing == []
    assert [pair for pair in PRESENT[major] if pair not in targets] == []
    assert [pair for pair in ABSENT[major] if pair in targets] == []
