"""Every table of the inventory rejects a key it does not know, naming the file and the key path.

A misspelt key would otherwise be ignored and its table read as if the key were absent: for
``dag_processor`` that means parse-time checks against a runtime nobody meant.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.linting import invoke

VALID = """\
[deployment]
executors = ["CeleryExecutor"]
dag_processor = { runtime = "base" }
triggerer = { runtime = "base" }

[[workers]]
name = "celery"
runtime = "base"

[runtimes.base]
providers = ["standard"]

[connections]
ids = ["aws_default"]
"""

CASES = [
    pytest.param(
        ("[deployment]", "[deployment]\nflavour = 1"),
        "deployment.flavour: unknown key 'flavour' (allowed: airflow_version, executors, "
        "default_queue, dag_processor, triggerer, local_settings)",
        id="deployment",
    ),
    pytest.param(
        ('{ runtime = "base" }\ntrig', '{ runtime = "base", replicas = 2 }\ntrig'),
        "deployment.dag_processor.replicas: unknown key 'replicas' (allowed: runtime)",
        id="dag_processor",
    ),
    pytest.param(
        ('dag_processor = { runtime = "base" }', 'dag_processor = { runtime = "base" }'),
        None,
        id="dag_processor_valid",
    ),
    pytest.param(
        ('triggerer = { runtime = "base" }', 'triggerer = { runtime = "base", runtimes = 1 }'),
        "deployment.triggerer.runtimes: unknown key 'runtimes' (did you mean 'runtime'?)",
        id="triggerer",
    ),
    pytest.param(
        ('name = "celery"', 'name = "celery"\nqueue = ["a"]'),
        "workers[0].queue: unknown key 'queue' (did you mean 'queues'?)",
        id="worker",
    ),
    pytest.param(
        ('providers = ["standard"]', 'providers = ["standard"]\nimages = "x"'),
        "runtimes.base.images: unknown key 'images' (did you mean 'image'?)",
        id="runtime",
    ),
    pytest.param(
        ('ids = ["aws_default"]', 'ids = ["aws_default"]\nid = "x"'),
        "connections.id: unknown key 'id' (did you mean 'ids'?)",
        id="connections",
    ),
    pytest.param(
        ("[connections]", "[pool]\n[connections]"),
        "pool: unknown key 'pool' (did you mean 'pools'?)",
        id="top_level",
    ),
]


@pytest.mark.parametrize(("edit", "message"), CASES)
def test_inventory_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: tuple[str, str], message: str | None
) -> None:
    old, new = edit
    assert VALID.count(old) == 1
    (tmp_path / "dagroute.toml").write_text(VALID.replace(old, new), encoding="utf-8")
    outcome = invoke(tmp_path, ["inventory", "check", "dagroute.toml"], monkeypatch)
    if message is None:
        assert outcome.exit_code == 0, outcome.stderr
        assert outcome.stderr == ""
        return
    assert outcome.stderr == f"dagroute-lint: dagroute.toml: {message}\n"
    assert outcome.exit_code == 2
    assert outcome.stdout == ""


def test_lint_refuses_the_inventory_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = VALID.replace('dag_processor = { runtime = "base" }', 'dag_processor = { image = "x" }')
    (tmp_path / "dagroute.toml").write_text(text, encoding="utf-8")
    (tmp_path / "dags").mkdir()
    (tmp_path / "dags" / "dag.py").write_text("from airflow.sdk import DAG\n", encoding="utf-8")
    outcome = invoke(tmp_path, ["dags", "--inventory", "dagroute.toml"], monkeypatch)
    assert outcome.stderr == (
        f"dagroute-lint: {tmp_path / 'dagroute.toml'}: deployment.dag_processor.image: "
        "unknown key 'image' (allowed: runtime)\n"
    )
    assert outcome.exit_code == 2
