"""The optional-feature table (``data/optional_features.tsv``) against a real Airflow venv.

The wheels of the providers the table names (at its versions) are extracted beside the 3.3.2
venv and every listed module is imported there: a module must not raise
``AirflowOptionalProviderFeatureException`` when the venv has everything the table says it
needs (amazon's EKS executor, with cncf.kubernetes installed), and a module that raises it must
lack something the table names. A module that stops earlier (another provider dependency the
venv lacks, ``boto3``) tells nothing and is left out.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest
from airflow_env import airflow_home, download_wheel, ensure_airflow_venv

from dagroute_lint.catalog.data_files import read_table
from dagroute_lint.catalog.optional_features import OPTIONAL_FEATURES_FILE

pytestmark = pytest.mark.conformance

REPO_ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import importlib, json, sys
sys.path.insert(0, sys.argv[2])
table = json.loads(sys.argv[1])
out = {}
for module, needs in table.items():
    lacking = []
    for need in needs:
        try:  # what the guard does: import it (a provider module may fail on its own needs)
            importlib.import_module(need)
        except Exception:
            lacking.append(need)
    try:
        importlib.import_module(module)
        raised = None
    except Exception as error:  # what the module raises is the point
        raised = type(error).__name__
    out[module] = {"raised": raised, "lacking": lacking}
print(json.dumps(out))
"""
FEATURE = "AirflowOptionalProviderFeatureException"


def _rows() -> list[list[str]]:
    columns = ("module", "needs", "provider", "version")
    return [[str(cell) for cell in row] for row in read_table(OPTIONAL_FEATURES_FILE, columns)]


def test_modules_raise_only_when_what_they_need_is_missing(tmp_path: Path) -> None:
    env = ensure_airflow_venv()
    providers = tmp_path / "providers"
    table: dict[str, list[str]] = {}
    for module, needs, provider, version in _rows():
        table.setdefault(module, []).append(needs)
        wheel = download_wheel(f"{provider}=={version}", env.python)
        with zipfile.ZipFile(wheel) as archive:
            members = [n for n in archive.namelist() if n.startswith("airflow/providers/")]
            archive.extractall(providers, members)
    completed = subprocess.run(
        [str(env.python), "-c", PROBE, json.dumps(table), str(providers)],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
        env={**airflow_home(tmp_path / "home"), "PATH": "/usr/bin:/bin"},
    )
    probed = json.loads(completed.stdout.strip().splitlines()[-1])
    raised = {m for m, r in probed.items() if r["raised"] == FEATURE}
    wrong = {m: probed[m] for m in raised if not probed[m]["lacking"]}
    assert not wrong, wrong
    assert len(raised) >= 10, probed
    # Not vacuous: a module whose needs the venv has imports (amazon's EKS executor).
    loaded = {m for m, r in probed.items() if r["raised"] is None}
    assert loaded and all(not probed[m]["lacking"] for m in loaded), probed


def _generator() -> ModuleType:
    scripts = REPO_ROOT / "scripts"
    sys.path.insert(0, str(scripts))
    try:
        spec = importlib.util.spec_from_file_location(
            "generate_optional_features", scripts / "generate_optional_features.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(scripts))


def test_the_generator_finds_the_guard_in_real_provider_source() -> None:
    """The scan of one real module: amazon's transfer that needs microsoft.azure."""
    generator = _generator()
    source = (
        "from airflow.providers.common.compat.sdk import AirflowOptionalProviderFeatureException\n"
        "try:\n"
        "    from airflow.providers.microsoft.azure.hooks.wasb import WasbHook\n"
        "except ModuleNotFoundError as e:\n"
        "    raise AirflowOptionalProviderFeatureException(e)\n"
        "from airflow.providers.amazon.aws.hooks.s3 import S3Hook\n"
    )
    optional, plain = generator.scan(
        source, "airflow.providers.amazon.aws.transfers.azure_blob_to_s3", False
    )
    assert generator._outermost(optional) == {"airflow.providers.microsoft.azure.hooks.wasb"}
    assert "airflow.providers.amazon.aws.hooks.s3" in plain
    rows = {(module, needs) for module, needs, _, _ in _rows()}
    assert (
        "airflow.providers.amazon.aws.transfers.azure_blob_to_s3",
        "airflow.providers.microsoft.azure.hooks.wasb",
    ) in rows
