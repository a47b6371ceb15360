"""``--fix`` over Airflow 2.10's own example DAGs, for an Airflow 3 deployment.

The wheel is downloaded once (``pip download --no-deps``) into the cache the conformance suite
uses (``<cache_root()>/wheels``, inside the test environment) and reused from there. The files
are only parsed, never imported: each fixed file must still parse (libcst and CPython's
compiler), keep every comment, and be left alone by a second ``--fix``.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections import Counter
from pathlib import Path

import libcst as cst
import pytest

from tests.conformance.airflow_env import _locked, cache_root, download_wheel, extract_folder
from tests.helpers import CELERY_K8S
from tests.test_cli import invoke

pytestmark = pytest.mark.installs

AIRFLOW_2 = "apache-airflow==2.10.5"
EXAMPLES = "airflow/example_dags/"


@pytest.fixture(scope="module")
def airflow2_examples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    with _locked(cache_root() / ".wheels.lock"):
        wheel = download_wheel(AIRFLOW_2)
    folder = tmp_path_factory.mktemp("airflow2") / "dags"
    extract_folder(wheel, EXAMPLES, folder)
    return folder


def comments(source: bytes) -> Counter[str]:
    tokens = tokenize.tokenize(io.BytesIO(source).readline)
    return Counter(token.string for token in tokens if token.type == tokenize.COMMENT)


def test_fix_rewrites_airflow_2_examples_into_parseable_airflow_3_files(
    airflow2_examples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = airflow2_examples.parent
    (repo / "dagroute.toml").write_text(CELERY_K8S)  # airflow_version = "3.3"
    monkeypatch.chdir(repo)
    before = {path: path.read_bytes() for path in sorted(airflow2_examples.rglob("*.py"))}

    code, _, err = invoke("dags", "--fix", "--select", "DRL204")
    assert code in (0, 1), err
    match = re.search(r"Fixed (\d+) problems? in (\d+) files?\.", err)
    assert match is not None, err
    rewritten, changed_files = int(match.group(1)), int(match.group(2))

    after = {path: path.read_bytes() for path in before}
    changed = [path for path in before if after[path] != before[path]]
    for path in changed:
        cst.parse_module(after[path])
        compile(after[path], str(path), "exec", dont_inherit=True)
        assert comments(after[path]) == comments(before[path]), path
    assert len(changed) == changed_files
    # Most of the 2.10 examples import a moved operator, decorator or DAG class.
    assert len(before) >= 60 and len(changed) >= 40 and rewritten >= 100

    # A fixed point: the second run finds nothing left to fix and writes nothing.
    _, _, err = invoke("dags", "--fix", "--select", "DRL204")
    assert "Fixed" not in err
    assert {path: path.read_bytes() for path in before} == after
    print(
        f"\nround-trip over {AIRFLOW_2} example DAGs: {len(before)} files, "
        f"{len(changed)} changed, {rewritten} imports rewritten"
    )
