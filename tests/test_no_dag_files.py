"""A file the DAG processor imports and in which no DAG is found is never silent (DRL106).

Airflow imports every file of its DAG folders whose text mentions "airflow" and "dag" (3.x: or
"asset"). Such a file with no DAG seen read as "0 places where tasks could not be seen", a clean
result over a file that may define DAGs. It is a DRL106 place, counted in every summary, unless
another file of the repository imports it (a helper), another place of it already says why, or
the walk followed it to its end and only its strings and comments name "airflow" or "dag".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dagroute_lint.api import lint_buffer
from dagroute_lint.extract.module import extract_module
from tests.helpers import lint_files, write_repo
from tests.linting import invoke

NO_DAG_ITEM = "dag"
DAG_FILE = """\
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("report", schedule=None):
    BashOperator(task_id="render", bash_command="make report")
"""
HELPER = (
    '"""Slack messages for failed Airflow DAG runs."""\n\nCHANNEL = "#data"\n\n\n'
    "def failed(context):\n"
    "    return context['dag'].dag_id\n"
)
UNKNOWN_FACTORY = (
    '"""The nightly Airflow DAG."""\n\n'
    "from team_tooling.dags import build_dag\n\n"
    'dag = build_dag("nightly")\n'
)


def no_dag_reports(files: dict[str, str | bytes], inventory: str | None = None) -> list[str]:
    """``path:line`` of each DRL106 saying no DAG is found, in output order."""
    found = lint_files(files, inventory, select=("DRL106",))
    return [f"{d.path}:{d.line}" for d in found if d.facts.item == NO_DAG_ITEM]


def test_a_helper_no_file_imports_is_reported_at_its_first_line() -> None:
    found = lint_files({"dags/report.py": DAG_FILE, "dags/notify.py": HELPER}, select=("DRL106",))
    assert [(d.path, d.line, d.column, d.facts.kind) for d in found] == [
        ("dags/notify.py", 1, 1, "unmodelled")
    ]
    assert "list it in .airflowignore" in found[0].message


def test_a_file_whose_code_names_neither_word_is_known_to_define_none() -> None:
    # Only its strings and comments mention "airflow" and "dag": nothing can build one in it.
    links = (
        "# Link checks for the airflow-dags repository.\n"
        "from urllib.parse import urlparse\n\n"
        'HOST = urlparse("https://github.com/example/airflow-dags").netloc\n'
    )
    assert no_dag_reports({"dags/report.py": DAG_FILE, "dags/links.py": links}) == []


def test_a_call_the_walk_cannot_follow_is_reported_though_no_code_names_a_dag() -> None:
    built = (
        "# The airflow dag of the nightly export, built by the team's library.\n"
        "from team_tooling import build\n\n"
        'build("nightly")\n'
    )
    assert no_dag_reports({"dags/report.py": DAG_FILE, "dags/nightly.py": built}) == [
        "dags/nightly.py:4"
    ]


@pytest.mark.parametrize(
    "importing",
    [
        "import notify",
        "from notify import CHANNEL",
        "from common import notify",  # a submodule, by ``from package import module``
        "from dags.common import notify",  # by its name from the repository root
    ],
)
def test_a_helper_a_dag_file_imports_is_not_reported(importing: str) -> None:
    helper = "dags/common/notify.py" if "common" in importing else "dags/notify.py"
    files: dict[str, str | bytes] = {
        "dags/report.py": f"{importing}\n{DAG_FILE}",
        helper: HELPER,
        "dags/common/__init__.py": "",
        "dags/__init__.py": "",
    }
    assert no_dag_reports(files) == []


def test_a_file_importing_itself_is_not_excused() -> None:
    files: dict[str, str | bytes] = {
        "dags/report.py": DAG_FILE,
        "dags/common/__init__.py": (
            '"""Airflow DAG helpers."""\n\nfrom common import notify\n\nDAG_OWNER = "data"\n'
        ),
        "dags/common/notify.py": HELPER,
    }
    # The package's own ``from common import ...`` reads ``common``: no other file imports it.
    # Its module ``notify`` is imported by the package, another file.
    assert no_dag_reports(files) == ["dags/common/__init__.py:1"]


def test_the_call_that_may_build_the_dags_is_named() -> None:
    found = lint_files({"dags/nightly.py": UNKNOWN_FACTORY}, select=("DRL106",))
    assert [(d.line, d.column) for d in found] == [(5, 7)]
    assert "build_dag() (team_tooling.dags.build_dag) is not followed" in found[0].message


def test_a_call_named_like_a_dag_builder_is_preferred() -> None:
    source = (
        "from platform_tools import configure, make_pipeline, create_dag\n\n"
        'configure("x")\nmake_pipeline("x")\nexports = create_dag("x")\n'
    )
    module = extract_module(source.encode(), "dags/x.py", "x")
    assert module.no_dag_cause is not None
    assert module.no_dag_cause.position.line == 5
    assert module.no_dag_cause.message.startswith("create_dag()")


def test_no_cause_is_kept_where_a_dag_is_found() -> None:
    source = UNKNOWN_FACTORY + 'from airflow.sdk import DAG\nDAG("other")\n'
    assert extract_module(source.encode(), "dags/x.py", "x").no_dag_cause is None


def test_one_cause_is_one_line_when_a_place_already_says_why() -> None:
    source = DAG_FILE.replace("from airflow.sdk import DAG", "from team_tooling.compat import DAG")
    found = lint_files({"dags/report.py": source}, select=("DRL106",))
    assert len(found) == 1
    assert found[0].facts.item is None  # the DAG(...) call nobody can follow says it
    assert "is not known to be Airflow's DAG" in found[0].message


def test_a_file_without_the_words_is_not_the_dag_processors() -> None:
    variables = 'from airflow.sdk import Variable\n\nBUCKET = Variable.get("bucket")\n'
    assert no_dag_reports({"dags/settings.py": variables, "dags/report.py": DAG_FILE}) == []


def test_asset_is_the_word_of_airflow_3_only() -> None:
    source = 'from airflow.sdk import Asset\n\nORDERS = Asset("s3://orders")\n'
    assert no_dag_reports({"dags/assets.py": source}) == ["dags/assets.py:1"]
    airflow_2 = '[deployment]\nairflow_version = "2.10"\nexecutors = ["LocalExecutor"]\n'
    assert no_dag_reports({"dags/assets.py": source}, airflow_2) == []


def test_without_the_dags_setting_it_says_how_to_name_the_dag_folders() -> None:
    files: dict[str, str | bytes] = {"dags/notify.py": HELPER}
    (unnamed,) = lint_files(files, select=("DRL106",))
    assert unnamed.message.endswith(
        "name the DAG folders in the `dags` setting if it lies outside them"
    )
    files["pyproject.toml"] = '[tool.dagroute-lint]\ndags = ["dags"]\n'
    (named,) = lint_files(files, select=("DRL106",))
    assert named.message.endswith("so that Airflow skips it too")


def test_a_file_outside_the_dags_setting_is_not_judged() -> None:
    files: dict[str, str | bytes] = {
        "pyproject.toml": '[tool.dagroute-lint]\ndags = ["dags/pipelines"]\n',
        "dags/pipelines/report.py": DAG_FILE,
        "dags/notify.py": HELPER,
    }
    assert no_dag_reports(files) == []


def test_noqa_on_the_first_line_suppresses_it() -> None:
    helper = "# noqa: DRL106\n" + HELPER
    assert lint_files({"dags/notify.py": helper}, select=("DRL106",)) == []


def test_a_buffer_is_not_judged(tmp_path: Path) -> None:
    write_repo(tmp_path, {"dags/report.py": DAG_FILE, "pyproject.toml": "[tool.dagroute-lint]\n"})
    found = lint_buffer(tmp_path / "dags" / "notify.py", HELPER.encode())
    assert [d for d in found.diagnostics if d.code == "DRL106"] == []


def test_the_summary_counts_it_in_a_lint_run_and_in_routes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_repo(tmp_path, {"dags/report.py": DAG_FILE, "dags/notify.py": HELPER})
    summary = "1 task in 1 DAG checked; 1 place where tasks could not be seen"
    for args in (["dags", "--no-cache"], ["routes", "dags", "--no-cache"]):
        outcome = invoke(tmp_path, args, monkeypatch)
        assert summary in outcome.stderr.splitlines(), outcome.stderr


def test_a_warm_run_follows_who_imports_the_helper(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The result of a helper depends on the other files' imports: a cached result goes stale
    when its last importer drops it, and again when one imports it back."""
    importing = "from common import notify\n" + DAG_FILE
    write_repo(
        tmp_path,
        {
            "dags/report.py": importing,
            "dags/common/__init__.py": "",
            "dags/common/notify.py": HELPER,
        },
    )
    args = ["dags", "--select", "DRL106", "--format", "json", "--cache-dir", str(tmp_path / "c")]

    def reported() -> list[str]:
        return [d["file"] for d in invoke(tmp_path, args, monkeypatch).diagnostics]

    assert reported() == []
    assert reported() == []  # warm
    (tmp_path / "dags" / "report.py").write_text(DAG_FILE, encoding="utf-8")
    assert reported() == ["dags/common/notify.py"]
    assert reported() == ["dags/common/notify.py"]  # warm
    (tmp_path / "dags" / "report.py").write_text(importing, encoding="utf-8")
    assert reported() == []
