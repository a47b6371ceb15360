"""Property tests: extraction never raises, whatever program or bytes it is given.

hypothesmith generates syntactically valid Python from CPython's grammar and from libcst's node
types; plain bytes cover the undecodable. Generating programs is slow (about a second each for
libcst nodes), so the suite runs a bounded number; ``DAGROUTE_PROPERTY_EXAMPLES=1000`` scales a
longer local run. The corpus run over a whole Airflow installation is
``benchmarks/extract_corpus.py``.
"""

from __future__ import annotations

import os

import hypothesmith
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dagroute_lint.extract import extract_module
from dagroute_lint.model import Module
from dagroute_lint.resolve.tasks import Resolver
from dagroute_lint.resolve.values import SymbolTable

# hypothesmith compiles what it generates; CPython's SyntaxWarnings about it are noise here.
pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")

EXAMPLES = int(os.environ.get("DAGROUTE_PROPERTY_EXAMPLES", "100"))


def bounded(examples: int) -> settings:
    return settings(
        max_examples=max(examples, 1),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


def extract_and_resolve(data: bytes) -> Module:
    module = extract_module(data, "dags/generated.py", "generated")
    resolver = Resolver(SymbolTable(lambda _name: None), "default", 3)
    for task in resolver.tasks(module):
        assert task.task_id is None or isinstance(task.task_id, str)
    return module


@bounded(EXAMPLES)
@given(hypothesmith.from_grammar())
def test_programs_from_the_grammar_never_raise(source: str) -> None:
    module = extract_and_resolve(source.encode("utf-8"))
    assert module.path == "dags/generated.py"


@bounded(EXAMPLES // 6)
@given(hypothesmith.from_node())
def test_programs_from_libcst_nodes_never_raise(source: str) -> None:
    module = extract_and_resolve(source.encode("utf-8"))
    assert module.path == "dags/generated.py"


@bounded(EXAMPLES * 2)
@given(st.binary(max_size=2000))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    module = extract_and_resolve(data)
    assert module.path == "dags/generated.py"


DAG_PREFIX = """\
from airflow.sdk import DAG, task
from airflow.providers.standard.operators.bash import BashOperator
"""


@bounded(EXAMPLES // 4)
@given(hypothesmith.from_grammar(auto_target=False))
def test_generated_code_inside_a_dag_never_raises(source: str) -> None:
    indented = "".join(f"    {line}\n" for line in source.splitlines()) or "    pass\n"
    wrapped = f'{DAG_PREFIX}with DAG("generated"):\n    BashOperator(task_id="t")\n{indented}'
    module = extract_and_resolve(wrapped.encode("utf-8"))
    assert module.path == "dags/generated.py"
