"""``--add-noqa[=REASON]`` through the command line, and the ``# noqa`` grammar it shares with
the reader."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dagroute_lint.extract import extract_module
from dagroute_lint.noqa import insertion, read_comment, reason_problem
from tests.helpers import CELERY_K8S, write_repo
from tests.test_baseline import REPORT
from tests.test_cli import invoke

MIXED = """\
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("mixed"):
    BashOperator(task_id="a", bash_command="x", queue="lost")  # the old queue
    BashOperator(task_id="b", bash_command="x", queue="lost")  # noqa: E501
    BashOperator(task_id="c", bash_command="x", queue="lost", flavour="x")
    BashOperator(task_id="d", queue="lost", bash_command=\"\"\"
        echo "# noqa: DRL101 inside the string"
    \"\"\")
    BashOperator(task_id="e", bash_command="x", queue=\\
        "lost")
    BashOperator(
        task_id="f",  # its id
        queue="lost",
    )
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_repo(tmp_path, {"dagroute.toml": CELERY_K8S, "dags/mixed.py": MIXED})
    monkeypatch.chdir(tmp_path)
    return tmp_path


def source(repo: Path) -> str:
    return (repo / "dags/mixed.py").read_text()


def test_add_noqa_comments_each_line_and_a_plain_run_then_reports_only_what_it_could_not(
    repo: Path,
) -> None:
    code, out, err = invoke("dags", "--add-noqa")
    assert (code, out) == (0, "")
    lines = source(repo).splitlines()
    assert lines[4].endswith('queue="lost")  # the old queue  # noqa: DRL101')
    assert lines[5].endswith('queue="lost")  # noqa: E501, DRL101')
    assert lines[6].endswith('flavour="x")  # noqa: DRL004, DRL101')
    assert lines[12] == "    BashOperator(  # noqa: DRL101"
    assert lines[13] == '        task_id="f",  # its id'
    # The line a diagnostic is on ends inside a string, or continues: nothing written there.
    assert lines[7] == '    BashOperator(task_id="d", queue="lost", bash_command="""'
    assert lines[10] == '    BashOperator(task_id="e", bash_command="x", queue=\\'
    assert (
        "dagroute-lint: dags/mixed.py:8: no `# noqa` written for DRL101: the line ends inside a "
        "multi-line string"
    ) in err
    assert (
        "dags/mixed.py:11: no `# noqa` written for DRL101: the line continues with a backslash"
        in err
    )
    assert "Added `# noqa` for 5 problems in 1 file." in err
    ast.parse(source(repo))  # still Python
    code, out, _ = invoke("dags", "--format", "json")
    assert code == 1
    assert [(item["line"], item["code"]) for item in json.loads(out)] == [
        (8, "DRL101"),
        (11, "DRL101"),
    ]


@pytest.mark.parametrize("output_format", ["text", "json", "sarif", "github"])
def test_after_add_noqa_nothing_is_reported_in_any_format(repo: Path, output_format: str) -> None:
    (repo / "dags/report.py").write_text(REPORT)
    invoke("dags/report.py", "--add-noqa")
    code, out, _ = invoke("dags/report.py", "--format", output_format)
    assert code == 0
    if output_format in ("json",):
        assert json.loads(out) == []
    elif output_format == "sarif":
        assert json.loads(out)["runs"][0]["results"] == []
    else:
        assert out == ""


def test_a_second_run_changes_nothing(repo: Path) -> None:
    invoke("dags", "--add-noqa")
    first = source(repo)
    code, _, err = invoke("dags", "--add-noqa")
    assert code == 0 and source(repo) == first
    assert "Added `# noqa` for 0 problems in 0 files." in err


def test_a_reason_follows_the_codes_of_each_new_comment(repo: Path) -> None:
    code, _, _ = invoke("dags", "--add-noqa=queue moves in the next release")
    assert code == 0
    lines = source(repo).splitlines()
    assert lines[4].endswith("# the old queue  # noqa: DRL101 queue moves in the next release")
    # An existing comment keeps its own words: the reason is not attributed to its codes.
    assert lines[5].endswith("# noqa: E501, DRL101")


def test_a_bare_add_noqa_never_takes_the_next_argument_as_its_reason(repo: Path) -> None:
    (repo / "dags/report.py").write_text(REPORT)
    code, _, err = invoke("--add-noqa", "dags/report.py")
    assert code == 0, err
    assert source(repo) == MIXED  # only the file named was linted
    assert (repo / "dags/report.py").read_text().count("  # noqa: DRL10") == 2


def test_a_reason_the_reader_would_misread_is_refused_before_anything_is_written(
    repo: Path,
) -> None:
    code, _, err = invoke("dags", "--add-noqa=py3 migration")
    assert code == 2
    assert "the reason cannot be written: `# noqa` would read PY3 in it as a code" in err
    assert source(repo) == MIXED
    code, _, err = invoke("dags", "--add-noqa=two\nlines")
    assert code == 2 and "it holds a line break or another control character" in err


@pytest.mark.parametrize(
    "args", [["--fix"], ["--diff"], ["-", "--stdin-filename", "dags/mixed.py"]]
)
def test_add_noqa_refuses_flags_that_contradict_it(repo: Path, args: list[str]) -> None:
    code, _, err = invoke("--add-noqa", *args, input=MIXED)
    assert code == 2 and ("cannot be used together" in err or "cannot read stdin" in err)
    assert source(repo) == MIXED


def test_with_a_baseline_only_what_is_reported_gets_a_comment(repo: Path) -> None:
    invoke("dags", "--write-baseline", "baseline.json")
    (repo / "dags/report.py").write_text(REPORT)
    code, _, err = invoke("dags", "--baseline", "baseline.json", "--add-noqa")
    assert code == 0 and "Added `# noqa` for 2 problems in 1 file." in err
    assert source(repo) == MIXED
    assert invoke("dags", "--baseline", "baseline.json")[:2] == (0, "")


def test_line_breaks_and_the_declared_encoding_are_kept(repo: Path) -> None:
    text = "# -*- coding: latin-1 -*-\r\n# caf\xe9\r\n" + REPORT.replace("\n", "\r\n")
    (repo / "dags/report.py").write_bytes(text.encode("latin-1"))
    assert invoke("dags/report.py", "--add-noqa")[0] == 0
    data = (repo / "dags/report.py").read_bytes()
    assert b"# caf\xe9\r\n" in data
    assert data.count(b"  # noqa: DRL10") == 2 and b"\n" not in data.replace(b"\r\n", b"")
    assert invoke("dags/report.py")[0] == 0


# --- the grammar: what is written is what is read ------------------------------------------

_CODES = st.lists(st.from_regex(r"\A[A-Z]{1,4}[0-9]{1,4}\Z"), min_size=1, max_size=3)
_REASONS = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)


@settings(max_examples=50, deadline=None)  # each example extracts a file
@given(_CODES, _REASONS)
def test_an_accepted_reason_is_never_read_as_codes(codes: list[str], reason: str) -> None:
    if reason_problem(reason) is not None:
        return
    found = insertion("x = f()", codes, reason, comment_at=len("x = f()"))
    assert found is not None
    at, text = found
    line = "x = f()"[:at] + text
    comment = read_comment(line)
    assert comment is not None and comment.codes == frozenset(codes)
    # And extraction, which reads whole files, reads the same.
    module = extract_module(f"{line}\n".encode(), "dag.py", "dag")
    assert module.noqa == {1: frozenset(codes)}


def written(line: str, comment_at: int) -> str | None:
    found = insertion(line, ["DRL101"], comment_at=comment_at)
    return None if found is None else line[: found[0]] + found[1] + line[found[0] :]


def test_a_comment_is_merged_only_into_a_list_the_reader_reads() -> None:
    assert written("x = f()  # noqa: W291  ", 9) == "x = f()  # noqa: W291, DRL101  "
    # A list inside a string is never extended (that would change the string), and a comment
    # after it would not be read: the reader takes a line's first noqa marker.
    assert written('f("# noqa: E501")', len('f("# noqa: E501")')) is None
    assert written('f("# noqa: E501")  # noqa: W291', 19) is None
    # A file-level comment on the line: a line's own marker is not read there either.
    assert written("x = 1  # dagroute-lint: noqa: DRL3", 7) is None
