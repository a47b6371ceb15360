"""The tables DRL203 relies on agree with a real Airflow 3.3.2 environment.

``airflow_dependencies.tsv`` says which imports every Airflow worker can satisfy without the
inventory listing them; if it claimed too much, DRL203 would miss real failures, and if it
claimed too little, it would report working DAGs.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
from pathlib import Path
from types import ModuleType

import pytest
from airflow_env import AirflowEnv, ensure_airflow_venv

from dagroute_lint.catalog import distributions

pytestmark = pytest.mark.conformance

REPO_ROOT = Path(__file__).resolve().parents[2]
GENERATOR = REPO_ROOT / "scripts" / "generate_runtime_data.py"
DATA = REPO_ROOT / "dagroute_lint" / "catalog" / "data"


@pytest.fixture(scope="module")
def airflow_env() -> AirflowEnv:
    return ensure_airflow_venv()


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_runtime_data", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _ask(env: AirflowEnv, code: str) -> object:
    done = subprocess.run(
        [str(env.python), "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return json.loads(done.stdout)


def test_shipped_dependency_table_is_what_airflow_installs(airflow_env: AirflowEnv) -> None:
    purelib = _ask(
        airflow_env, "import json, sysconfig; print(json.dumps(sysconfig.get_paths()['purelib']))"
    )
    version = _ask(
        airflow_env, "import json, sys; print(json.dumps('%d.%d' % sys.version_info[:2]))"
    )
    expected = _generator().airflow_dependencies_table(Path(str(purelib)), str(version))
    shipped = (DATA / distributions.AIRFLOW_DEPENDENCIES_FILE).read_text(encoding="utf-8")
    assert shipped == expected


def test_every_import_the_table_grants_is_importable_in_airflow(airflow_env: AirflowEnv) -> None:
    # scikit-learn is not an Airflow dependency: the one name that must come back missing.
    names = [*sorted(distributions.airflow_import_names()), "sklearn"]
    code = (
        "import importlib.util, json, sys\n"
        f"names = {names!r}\n"
        "print(json.dumps([n for n in names if importlib.util.find_spec(n) is None]))"
    )
    assert _ask(airflow_env, code) == ["sklearn"]


def test_shipped_stdlib_list_covers_the_airflow_interpreter(airflow_env: AirflowEnv) -> None:
    names = _ask(
        airflow_env, "import json, sys; print(json.dumps(sorted(sys.stdlib_module_names)))"
    )
    assert isinstance(names, list)
    assert [name for name in names if not distributions.is_stdlib(name)] == []
