"""Property test: any TOML document is either a valid inventory or one clear line, exit 2.

Documents are built around the real keys (so validation gets deep) with values of every TOML
type in every place; ``load_inventory`` may only return an ``Inventory`` or raise
``ConfigError``. Written to disk as TOML, so the reader and the validator both take part.
"""

from __future__ import annotations

import json
import math
import re
from datetime import date, datetime, time
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from dagroute_lint.deployment.inventory import Inventory, load_inventory
from dagroute_lint.errors import ConfigError

NAMES = st.sampled_from(["base", "pods", "default", "imports", "", "a b", "Base", "x\ny"])
EXECUTORS = st.sampled_from(
    [
        "CeleryExecutor",
        "KubernetesExecutor",
        "LocalExecutor",
        "SequentialExecutor",
        "CeleryKubernetesExecutor",
        "k8s:KubernetesExecutor",
        "my.module.Executor",
        "a:b:c",
        ":",
        "",
        "celeryexecutor",
    ]
)
REQUIREMENTS = st.sampled_from(
    ["standard", "amazon>=9", "amazon>>9", "pandas==2.*", "pandas>=2.*", "x; y", "-e .", ""]
)
SCALARS = st.one_of(
    st.text(max_size=12),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(),
    st.booleans(),
    st.datetimes(),
    st.dates(),
    st.times(),
    NAMES,
    EXECUTORS,
    REQUIREMENTS,
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NAMES, inner, max_size=3),
    max_leaves=6,
)


def anything_or(strategy: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    return st.one_of(strategy, VALUES)


RUNTIME = st.fixed_dictionaries(
    {},
    optional={
        "python": anything_or(st.sampled_from(["3.11", "3", "py3"])),
        "providers": anything_or(st.lists(REQUIREMENTS, max_size=3)),
        "packages": anything_or(st.lists(REQUIREMENTS, max_size=3)),
        "code_version": VALUES,
        "pyton": VALUES,
    },
)
WORKER = st.fixed_dictionaries(
    {},
    optional={
        "name": anything_or(NAMES),
        "executor": anything_or(EXECUTORS),
        "queues": anything_or(st.lists(NAMES, max_size=3)),
        "runtime": anything_or(NAMES),
        "queue": VALUES,
    },
)
DEPLOYMENT = st.fixed_dictionaries(
    {},
    optional={
        "airflow_version": anything_or(st.sampled_from(["3.3", "2.10.5", "1.10", "three"])),
        "executors": anything_or(st.lists(EXECUTORS, max_size=3)),
        "default_queue": anything_or(NAMES),
        "dag_processor": anything_or(st.fixed_dictionaries({"runtime": anything_or(NAMES)})),
        "triggerer": anything_or(st.fixed_dictionaries({"runtime": anything_or(NAMES)})),
    },
)
DOCUMENTS = st.fixed_dictionaries(
    {},
    optional={
        "deployment": anything_or(DEPLOYMENT),
        "workers": anything_or(st.lists(WORKER, max_size=3)),
        "runtimes": anything_or(st.dictionaries(NAMES, anything_or(RUNTIME), max_size=3)),
        "pools": anything_or(st.dictionaries(NAMES, anything_or(st.integers(-2, 9)))),
        "connections": anything_or(st.fixed_dictionaries({"ids": anything_or(st.lists(NAMES))})),
        "worker": VALUES,
    },
)


def toml_value(value: object) -> str:
    """Inline TOML for a value (enough of a writer for generated documents)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, (date, time)):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    assert isinstance(value, dict)
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(DOCUMENTS)
def test_any_document_loads_or_fails_in_one_line(
    tmp_path_factory: object, document: dict[str, object]
) -> None:
    folder = tmp_path_factory.mktemp("inventory")  # type: ignore[attr-defined]
    path = Path(folder) / "dagroute.toml"
    text = "".join(f"{json.dumps(key)} = {toml_value(value)}\n" for key, value in document.items())
    path.write_text(text, encoding="utf-8")
    try:
        inventory = load_inventory(path)
    except ConfigError as error:
        message = str(error)
        assert message.startswith(str(path)) and "\n" not in message
        where = re.split(r"[.\[:]", message[len(str(path)) + 2 :], maxsplit=1)[0]
        event(f"rejected at {where}")
    else:
        assert isinstance(inventory, Inventory)
        event("valid")
