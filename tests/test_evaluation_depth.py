"""Where the value folder's depth bound falls, for the chains that reach it: ``**`` spreads of
spreads and ``dict.get`` defaults of defaults fold for 62 levels and stop at 63, with the reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.linting import invoke

LEVELS = (62, 63)
TOO_DEEP = "a dict key is not a constant: expression nested too deeply"
CHAINS = {
    "spreads": (
        ['S0 = {"a": "q"}'] + [f"S{i} = {{**S{i - 1}}}" for i in range(1, 64)],
        'S{n}["a"]',
    ),
    "get_defaults": (
        ['G0 = {"a": "q"}'] + [f'G{i} = {{}}.get("x", G{i - 1})' for i in range(1, 64)],
        'G{n}["a"]',
    ),
}


@pytest.mark.parametrize("chain", sorted(CHAINS))
def test_the_depth_bound_falls_at_the_same_level(
    chain: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    definitions, use = CHAINS[chain]
    calls = "".join(
        f'    BashOperator(task_id="t{n}", bash_command="x", queue={use.format(n=n)})\n'
        for n in LEVELS
    )
    (tmp_path / "dags").mkdir()
    (tmp_path / "dags" / "dag.py").write_text(
        "from airflow.providers.standard.operators.bash import BashOperator\n"
        "from airflow.sdk import DAG\n\n" + "\n".join(definitions) + f'\n\nwith DAG("d"):\n{calls}',
        encoding="utf-8",
    )
    outcome = invoke(tmp_path, ["routes", "dags", "--no-cache", "--format", "json"], monkeypatch)
    assert outcome.exit_code == 0, outcome.stderr
    tasks = json.loads(outcome.stdout)["tasks"]
    assert [(task["task_id"], task["queue"], task["reasons"]) for task in tasks] == [
        ("t62", "q", {}),
        ("t63", None, {"queue": TOO_DEEP}),
    ]
