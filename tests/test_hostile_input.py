"""Any file in, a diagnostic or a clear skip out: broken, binary, huge, nested and vanishing files.

One bad file never stops the others, and none of them is an internal error (exit code 2).
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from dagroute_lint.config import Settings, load_settings
from dagroute_lint.deployment.inventory import load_inventory
from dagroute_lint.errors import ConfigError
from dagroute_lint.extract import extract_module
from dagroute_lint.extract.source import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES
from dagroute_lint.model import Const
from dagroute_lint.pipeline import analysis
from dagroute_lint.pipeline.runner import Report, run
from dagroute_lint.sources.discovery import SourceFile
from dagroute_lint.sources.files import DEFAULT_MAX_FILE_BYTES
from tests.helpers import CELERY_K8S, write_repo
from tests.test_cli import invoke

AIRFLOW_FAILS = "; Airflow records an import error and loads no DAG from this file"
SKIPPED = "; skipped, its tasks are not checked"

HEADER = (
    "from airflow.providers.standard.operators.bash import BashOperator\n"
    "from airflow.sdk import DAG\n"
)
DAG = HEADER + 'with DAG("lab"):\n    BashOperator(task_id="t", bash_command="x", queue="q")\n'


def lint_bytes(root: Path, files: dict[str, bytes], inventory: str | None = None) -> Report:
    """Lint the files as named on the command line (as pre-commit passes them): a file found in
    a folder is read only when it mentions Airflow or a DAG, as Airflow's own heuristic does."""
    for name, data in files.items():
        path = root / "dags" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    deployment = None
    if inventory is not None:
        (root / "dagroute.toml").write_text(inventory, encoding="utf-8")
        deployment = load_inventory(root / "dagroute.toml")
    paths = [str(root / "dags" / name) for name in files]
    return run(paths, Settings(root=root, select=("ALL",)), deployment)


def lint_folder(root: Path) -> Report:
    return run([str(root / "dags")], Settings(root=root, select=("ALL",)), None)


def assert_unreadable(report: Report, name: str, reason: str, dag_ids: list[str]) -> None:
    """``name`` is the one file reported, as unreadable; the others were linted as usual."""
    assert found(report) == [(name, 1, 1, "DRL001", f"cannot read file: {reason}" + SKIPPED)]
    assert [task.dag_id for task in report.tasks] == dag_ids


def found(report: Report) -> list[tuple[str, int, int, str, str]]:
    return [(Path(d.path).name, d.line, d.column, d.code, d.message) for d in report.diagnostics]


def only_problem(root: Path, data: bytes) -> tuple[int, int, str]:
    report = lint_bytes(root, {"bad.py": data})
    [(_, line, column, code, message)] = found(report)
    assert code == "DRL001"
    return line, column, message


def routed(root: Path, data: bytes) -> dict[str, object]:
    """Queue and line of each task of one file, which must raise no DRL001."""
    report = lint_bytes(root, {"dag.py": data})
    assert [d for d in report.diagnostics if d.code == "DRL001"] == []
    return {t.task_id or "?": (t.fields["queue"].value, t.task.position.line) for t in report.tasks}


# --- what CPython refuses: Airflow refuses it too ------------------------------------------------


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        pytest.param(b"def f(:\n", (1, 7, "syntax error: invalid syntax"), id="syntax"),
        pytest.param(
            b'x = "\xff\xfe"\n',
            (1, 1, "cannot decode file: invalid or missing encoding declaration"),
            id="invalid_utf8",
        ),
        pytest.param(
            b"# -*- coding: klingon -*-\nx = 1\n",
            (1, 1, "cannot decode file: unknown encoding: klingon"),
            id="unknown_pep263_encoding",
        ),
        pytest.param(
            b"\xef\xbb\xbf# coding: latin-1\nx = 1\n",
            (1, 1, "cannot decode file: encoding problem: utf-8"),
            id="bom_contradicts_declaration",
        ),
        pytest.param(
            b"x = 1\x00\n", (1, 1, "source code cannot contain null bytes"), id="nul_byte"
        ),
        pytest.param(
            bytes(range(256)) * 8,
            (
                1,
                1,
                "cannot decode file: 'utf-8' codec can't decode byte 0x80 in position 128: "
                "invalid start byte",
            ),
            id="binary",
        ),
        pytest.param(
            "x = 1\n".encode("utf-16"),
            (1, 1, "cannot decode file: invalid or missing encoding declaration"),
            id="utf16",
        ),
        pytest.param(
            b"x = " + b"(" * 5000 + b")" * 5000 + b"\n",
            (1, 205, "syntax error: too many nested parentheses"),
            id="parentheses_5000_deep",
        ),
        pytest.param(
            b"x = " + b"1 + " * 100_000 + b"1\n",
            (1, 1, "syntax error: too deeply nested for Python to parse"),
            id="operator_chain_100000",
            # Python 3.10's parser takes the chain and only its compiler refuses it, which the
            # linter never runs: there the file is skipped (the test below), not judged.
            marks=pytest.mark.skipif(
                sys.version_info < (3, 11), reason="3.10 parses it: see the skipped case"
            ),
        ),
        pytest.param(
            b"x = " + b"-" * 100_000 + b"1\n",
            (1, 1, "syntax error: too deeply nested for Python to parse"),
            id="unary_chain_100000",
        ),
        pytest.param(
            b"".join(b" " * i + b"if x:\n" for i in range(120)) + b" " * 120 + b"pass\n",
            (101, 1, "syntax error: too many levels of indentation"),
            id="indentation_120_deep",
        ),
    ],
)
def test_files_python_refuses_are_reported_as_airflow_would_fail(
    tmp_path: Path, data: bytes, expected: tuple[int, int, str]
) -> None:
    line, column, message = expected
    assert only_problem(tmp_path, data) == (line, column, message + AIRFLOW_FAILS)


# --- what loads fine in Airflow but is too much to analyse: skipped, and said so ---------------


@pytest.mark.skipif(sys.version_info >= (3, 11), reason="3.11 and later refuse it to parse")
def test_a_chain_python_3_10_parses_but_cannot_compile_is_skipped(tmp_path: Path) -> None:
    data = b"x = " + b"1 + " * 100_000 + b"1\n"
    assert only_problem(tmp_path, data) == (
        1,
        1,
        "nested 100003 levels deep, deeper than the 200 analysed" + SKIPPED,
    )


def test_file_over_the_size_limit_is_skipped(tmp_path: Path) -> None:
    data = b"x = 1\n" * (5 * 1024 * 1024 // 6)  # 5 MB of valid Python
    assert only_problem_within(tmp_path, data, 4 * 1024 * 1024) == (
        1,
        1,
        "file is larger than max-file-size (4,194,304 bytes; raise the setting to lint it)"
        + SKIPPED,
    )


def only_problem_within(root: Path, data: bytes, limit: int) -> tuple[int, int, str]:
    """``only_problem`` with ``max-file-size`` set to ``limit``."""
    path = root / "dags" / "bad.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    report = run([str(path)], Settings(root=root, select=("ALL",), max_file_size=limit), None)
    [(_, line, column, code, message)] = found(report)
    assert code == "DRL001"
    return line, column, message


def test_dag_file_over_a_megabyte_is_linted(tmp_path: Path) -> None:
    """A valid DAG file of 1.2 MB, most of it one embedded SQL string, is linted by default."""
    sql = b"select 1;\n" * 120_000
    data = DAG.encode() + b"SQL = '''\n" + sql + b"'''\n"
    assert len(data) > 1024 * 1024
    assert routed(tmp_path, data) == {"t": ("q", DAG.count("\n"))}


def test_file_with_too_many_syntax_nodes_is_skipped(tmp_path: Path) -> None:
    # 400 KB, well under the size limit, but dense: libcst would need about 4 KB per node.
    data = b"x = [" + b",".join([b"1"] * MAX_NODES) + b"]\n"
    assert len(data) < MAX_FILE_BYTES
    assert only_problem(tmp_path, data) == (
        1,
        1,
        f"{MAX_NODES + 6} syntax nodes, more than the {MAX_NODES} analysed" + SKIPPED,
    )


def test_nesting_python_accepts_but_libcst_cannot_take_is_skipped(tmp_path: Path) -> None:
    # 180 nested lists are fine for CPython; libcst's native parser slows quadratically
    # and overflows its stack a little deeper, so such files are not handed to it.
    data = b"x = " + b"[" * 180 + b"]" * 180 + b"\n" + b"y = " + b"-" * 300 + b"1\n"
    assert only_problem(tmp_path, data) == (
        1,
        1,
        f"nested 303 levels deep, deeper than the {MAX_DEPTH} analysed" + SKIPPED,
    )


@pytest.mark.parametrize(
    "value",
    [
        pytest.param('"q"' + ' + ""' * 150, id="operator_chain"),
        pytest.param("[" * 95 + '"q"' + "]" * 95 + "[0]" * 95, id="nested_lists"),
        pytest.param('{"k": ' * 95 + '"q"' + "}" * 95 + '["k"]' * 95, id="nested_dicts"),
    ],
)
def test_deep_but_analysable_values_resolve_or_say_why_not(tmp_path: Path, value: str) -> None:
    source = HEADER + f'Q = {value}\nwith DAG("lab"):\n    BashOperator(task_id="t", queue=Q)\n'
    report = lint_bytes(tmp_path, {"dag.py": source.encode()})
    [task] = report.tasks
    queue = task.fields["queue"]
    assert queue.value == "q" or queue.reason == "expression nested too deeply"


# --- encodings and line breaks Python accepts: read exactly as Python reads them ---------------


def test_pep263_declaration_decodes_routing_values(tmp_path: Path) -> None:
    data = ("# -*- coding: latin-1 -*-\n" + DAG.replace('"q"', '"files-é"')).encode("latin-1")
    assert routed(tmp_path, data) == {"t": ("files-é", 5)}


def test_byte_order_mark(tmp_path: Path) -> None:
    assert routed(tmp_path, b"\xef\xbb\xbf" + DAG.encode()) == {"t": ("q", 4)}


@pytest.mark.parametrize(
    "newline", [pytest.param(b"\r\n", id="crlf"), pytest.param(b"\r", id="lone_cr")]
)
def test_line_numbers_and_noqa_with_other_line_breaks(tmp_path: Path, newline: bytes) -> None:
    source = (
        DAG + '    BashOperator(task_id="u", queue="q")  # noqa: DRL101\n'
        '    BashOperator(task_id="v", queue="q")\n'
    )
    data = source.encode().replace(b"\n", newline)
    report = lint_bytes(tmp_path, {"dag.py": data}, CELERY_K8S)
    assert [(d.line, d.code) for d in report.diagnostics] == [(4, "DRL101"), (6, "DRL101")]


def test_form_feeds_do_not_shift_line_numbers_or_noqa(tmp_path: Path) -> None:
    # str.splitlines() breaks at a form feed, Python does not: line 5 must stay line 5.
    source = (
        HEADER + "\x0c\n"
        'with DAG("lab"):\n'
        '    BashOperator(task_id="t", queue="q")  # noqa: DRL101\n'
        '\x0c    BashOperator(task_id="u", queue="q")\n'
    )
    report = lint_bytes(tmp_path, {"dag.py": source.encode()}, CELERY_K8S)
    assert [(d.line, d.code) for d in report.diagnostics] == [(6, "DRL101")]


def test_empty_file(tmp_path: Path) -> None:
    report = lint_bytes(tmp_path, {"empty.py": b"", "blank.py": b"\n\n  \n"})
    assert report.files == 2 and report.diagnostics == [] and report.tasks == []


# --- the file system: unreadable, not a file, looping, vanishing -------------------------------


def test_unreadable_file_is_skipped_and_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "dags" / "secret.py"
    write_repo(tmp_path, {"dags/secret.py": DAG, "dags/ok.py": DAG.replace("lab", "ok")})
    path.chmod(0)
    real_open = os.open

    def refusing_open(file: str | Path, flags: int, *args: int) -> int:
        # Root opens a mode-000 file anyway: refuse as the kernel would for anyone else.
        if Path(file).name == "secret.py":
            raise PermissionError(13, "Permission denied")
        return real_open(file, flags, *args)

    monkeypatch.setattr(os, "open", refusing_open)
    assert_unreadable(lint_folder(tmp_path), "secret.py", "Permission denied", ["ok"])


def test_directory_named_like_a_python_file_is_a_folder(tmp_path: Path) -> None:
    write_repo(tmp_path, {"dags/pkg.py/inner.py": DAG})
    for target in ("dags", "dags/pkg.py"):
        report = run([str(tmp_path / target)], Settings(root=tmp_path, select=("ALL",)), None)
        assert (report.files, report.diagnostics, len(report.tasks)) == (1, [], 1)


def test_symlink_loops_and_dangling_links(tmp_path: Path) -> None:
    write_repo(tmp_path, {"dags/ok.py": DAG})
    dags = tmp_path / "dags"
    (dags / "loop.py").symlink_to("loop.py")
    (dags / "a.py").symlink_to("b.py")
    (dags / "b.py").symlink_to("a.py")
    (dags / "gone.py").symlink_to("nowhere.py")
    (dags / "up").symlink_to("..")  # a folder loop: os.walk does not follow it
    report = lint_folder(tmp_path)
    loop = "cannot read file: Too many levels of symbolic links" + SKIPPED
    assert found(report) == [
        ("a.py", 1, 1, "DRL001", loop),
        ("b.py", 1, 1, "DRL001", loop),
        ("gone.py", 1, 1, "DRL001", "cannot read file: No such file or directory" + SKIPPED),
        ("loop.py", 1, 1, "DRL001", loop),
    ]
    assert len(report.tasks) == 1


def test_symlink_loop_named_on_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Not "no such file" with exit 2: the link exists, it cannot be read.
    (tmp_path / "loop.py").symlink_to("loop.py")
    (tmp_path / "gone.py").symlink_to("nowhere.py")
    monkeypatch.chdir(tmp_path)
    code, out, _ = invoke("loop.py", "gone.py", "--quiet")
    assert code == 1
    assert out == (
        "gone.py:1:1: DRL001 [error] cannot read file: No such file or directory" + SKIPPED + "\n"
        "loop.py:1:1: DRL001 [error] cannot read file: Too many levels of symbolic links"
        + SKIPPED
        + "\n"
    )


def test_fifos_and_devices_named_like_python_files(tmp_path: Path) -> None:
    # A FIFO would block the read until a writer came, /dev/zero would never end.
    write_repo(tmp_path, {"dags/ok.py": DAG})
    dags = tmp_path / "dags"
    os.mkfifo(dags / "pipe.py")
    (dags / "zero.py").symlink_to("/dev/zero")
    report = lint_folder(tmp_path)
    refused = "cannot read file: not a regular file" + SKIPPED
    assert found(report) == [
        ("pipe.py", 1, 1, "DRL001", refused),
        ("zero.py", 1, 1, "DRL001", refused),
    ]
    assert len(report.tasks) == 1


def test_file_deleted_while_the_run_is_under_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_repo(tmp_path, {"dags/a.py": DAG, "dags/b.py": DAG.replace("lab", "b")})
    real_discover = analysis.discover

    def discover_then_delete(*args: Any, **options: Any) -> list[SourceFile]:
        sources = real_discover(*args, **options)
        (tmp_path / "dags" / "a.py").unlink()
        return sources

    monkeypatch.setattr(analysis, "discover", discover_then_delete)
    assert_unreadable(lint_folder(tmp_path), "a.py", "No such file or directory", ["b"])


# --- all of it at once, through the command line -----------------------------------------------


def test_one_bad_file_never_stops_the_others(tmp_path: Path) -> None:
    # Each mentions a DAG, so that the folder walk reads it (Airflow's heuristic too).
    dag = b"# a DAG\n"
    hostile = {
        "syntax.py": dag + b"def f(:\n",
        "binary.py": dag + bytes(range(256)) * 4,
        "nul.py": dag + b"\x00\x00",
        "deep.py": dag + b"x = " + b"(" * 3000 + b")" * 3000,
        "huge.py": dag + b"#" * DEFAULT_MAX_FILE_BYTES,
        "empty.py": b"",
        "zz_good.py": DAG.encode(),
    }
    lint_bytes(tmp_path, hostile)
    (tmp_path / "dags" / "loop.py").symlink_to("loop.py")
    (tmp_path / "dags" / "folder.py").mkdir()
    write_repo(tmp_path, {"dagroute.toml": CELERY_K8S})
    result = subprocess.run(
        [sys.executable, "-m", "dagroute_lint", "dags"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    expected = [
        ("dags/binary.py", "DRL001 [error] cannot decode file: 'utf-8' codec"),
        ("dags/deep.py", "DRL001 [error] syntax error: too many nested parentheses"),
        ("dags/huge.py", "DRL001 [error] file is larger than max-file-size (10,485,760 bytes"),
        ("dags/loop.py", "DRL001 [error] cannot read file: Too many levels of symbolic links"),
        ("dags/nul.py", "DRL001 [error] source code cannot contain null bytes"),
        ("dags/syntax.py", "DRL001 [error] syntax error: invalid syntax"),
        ("dags/zz_good.py", "DRL101 [error] task 't' in dag 'lab' routes to queue 'q'"),
    ]
    lines = result.stdout.splitlines()
    assert len(lines) == len(expected)
    for line, (path, start) in zip(lines, expected):
        assert line.startswith(path + ":") and line.split(": ", 1)[1].startswith(start), line
    # empty.py mentions no DAG: passed over, as Airflow passes over it
    assert result.stderr.strip().endswith("Found 7 problems in 7 files.")


def test_warnings_about_the_linted_code_are_neither_printed_nor_fatal() -> None:
    # Invalid escapes warn when compiled (SyntaxWarning on 3.12+); `-W error` turns warnings
    # into exceptions. Neither may leak out of extraction.
    source = HEADER + 'x = 1()\nwith DAG("l\\d"):\n    BashOperator(task_id="t\\q", queue="\\d")\n'
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        module = extract_module(source.encode(), "dags/dag.py", "dag")
    assert module.syntax_error is None
    assert [task.task_id for task in module.tasks] == [Const("t\\q")]


# --- the size limit is a setting -----------------------------------------------------------------


@pytest.mark.parametrize("value", ["0", "true", '"10MB"', str(MAX_FILE_BYTES + 1)])
def test_max_file_size_must_be_a_number_of_bytes_in_range(tmp_path: Path, value: str) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.dagroute-lint]\nmax-file-size = {value}\n")
    with pytest.raises(ConfigError, match=r"tool.dagroute-lint.max-file-size: expected a number"):
        load_settings(None, tmp_path)


def test_max_file_size_from_the_settings_file_skips_larger_files(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.dagroute-lint]\nmax-file-size = 100\n")
    settings = load_settings(None, tmp_path)
    assert settings.max_file_size == 100
    path = tmp_path / "dags" / "dag.py"
    path.parent.mkdir()
    path.write_text(DAG)
    report = run([str(path)], settings, None)
    assert [(d.code, d.message.split(";")[0]) for d in report.diagnostics] == [
        ("DRL001", "file is larger than max-file-size (100 bytes")
    ]
