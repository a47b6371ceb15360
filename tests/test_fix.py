"""The fixer: what ``--fix`` writes for DRL204's imports and for keyword fixes, through the real
pipeline and on source text."""

from __future__ import annotations

import ast
import io
import os
import stat
import textwrap
import tokenize
from collections import Counter
from pathlib import Path

import pytest

from dagroute_lint.diagnostics import ImportFix, KeywordFix
from dagroute_lint.fix import fix_files, fix_source
from dagroute_lint.model import Position
from dagroute_lint.records import replace
from tests.helpers import lint_repo


def comments(source: str) -> Counter[str]:
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return Counter(token.string for token in tokens if token.type == tokenize.COMMENT)


def fixed(tmp_path: Path, source: str) -> str:
    """The file after one ``--fix``, checked to parse, keep its comments, and be a fixed point."""
    source = textwrap.dedent(source).lstrip("\n")
    path = tmp_path / "dags" / "dag.py"
    report = lint_repo(tmp_path, {"dags/dag.py": source}, inventory=None)
    fix_files(report.diagnostics, write=True)
    after = path.read_text()
    ast.parse(after)
    assert comments(after) == comments(source)
    again = lint_repo(tmp_path, {"dags/dag.py": after}, inventory=None)
    assert fix_files(again.diagnostics, write=False).files == []
    return after


def test_moves_the_module_and_keeps_the_line_comment(tmp_path: Path) -> None:
    assert fixed(
        tmp_path, "from airflow.operators.bash import BashOperator  # runs the report\n"
    ) == ("from airflow.providers.standard.operators.bash import BashOperator  # runs the report\n")


def test_renamed_class_keeps_its_local_name(tmp_path: Path) -> None:
    source = """
    from airflow.operators.dummy import DummyOperator
    from airflow.operators.dummy_operator import DummyOperator as Noop
    DummyOperator(task_id="a")
    """
    assert fixed(tmp_path, source) == textwrap.dedent("""\
        from airflow.providers.standard.operators.empty import EmptyOperator as DummyOperator
        from airflow.providers.standard.operators.empty import EmptyOperator as Noop
        DummyOperator(task_id="a")
        """)


def test_aliases_are_kept(tmp_path: Path) -> None:
    assert fixed(tmp_path, "from airflow.operators.python import PythonOperator as PO\n") == (
        "from airflow.providers.standard.operators.python import PythonOperator as PO\n"
    )


def test_names_going_to_different_modules_split_the_statement(tmp_path: Path) -> None:
    source = """
    # the operators we use
    from airflow.operators.python import PythonOperator, get_current_context, ShortCircuitOperator
    """
    assert fixed(tmp_path, source) == textwrap.dedent("""\
        # the operators we use
        from airflow.providers.standard.operators.python import PythonOperator, ShortCircuitOperator
        from airflow.sdk import get_current_context
        """)


def test_parenthesised_multiline_import_keeps_every_comment(tmp_path: Path) -> None:
    source = """
    from airflow.operators.python import (  # opening
        PythonOperator,  # the classic one
        # a comment line of its own
        get_current_context,  # moved to the SDK
        ShortCircuitOperator as Gate,
    )  # closing
    """
    assert fixed(tmp_path, source) == textwrap.dedent("""\
        from airflow.providers.standard.operators.python import (  # opening
            PythonOperator,  # the classic one
            # a comment line of its own
            ShortCircuitOperator as Gate,
        )  # closing
        from airflow.sdk import (
            get_current_context,  # moved to the SDK
        )
        """)


def test_unmoved_names_keep_the_statement_and_moved_ones_follow(tmp_path: Path) -> None:
    source = """
    from airflow.models.dag import DAG, DagModel, DagTag
    """
    assert fixed(tmp_path, source) == textwrap.dedent("""\
        from airflow.models.dag import DagModel, DagTag
        from airflow.sdk import DAG
        """)


def test_last_name_moving_away_closes_the_remaining_statement(tmp_path: Path) -> None:
    source = """
    from airflow.models.dag import (
        DagModel,
        DAG,
    )
    """
    assert fixed(tmp_path, source) == textwrap.dedent("""\
        from airflow.models.dag import (
            DagModel,
        )
        from airflow.sdk import DAG
        """)


def test_statements_in_blocks_and_after_semicolons(tmp_path: Path) -> None:
    source = """
    import os; from airflow.operators.python import PythonOperator, get_current_context
    def build():
        from airflow.operators.bash import BashOperator
        return BashOperator
    if os.environ.get("X"): from airflow.models.dag import DAG, DagModel
    """
    assert fixed(tmp_path, source) == textwrap.dedent("""\
        import os; from airflow.providers.standard.operators.python import PythonOperator; from airflow.sdk import get_current_context
        def build():
            from airflow.operators.bash import BashOperator
            return BashOperator
        if os.environ.get("X"): from airflow.models.dag import DagModel; from airflow.sdk import DAG
        """)  # noqa: E501


def test_relative_star_and_module_imports_are_untouched(tmp_path: Path) -> None:
    source = """
    from .operators.bash import BashOperator
    from airflow.operators.bash import *
    import airflow.operators.bash_operator
    import airflow.operators.bash_operator as bash_operator
    """
    assert fixed(tmp_path, source) == textwrap.dedent(source).lstrip("\n")


def test_fixing_is_idempotent(tmp_path: Path) -> None:
    source = "from airflow.operators.python import PythonOperator, get_current_context\n"
    once = fixed(tmp_path, source)
    assert once != source
    assert fixed(tmp_path, once) == once


def test_a_fix_that_does_not_match_the_content_is_refused() -> None:
    fix = ImportFix("airflow.operators.bash", "BashOperator", "x.y", "BashOperator")
    source = b"import os\nfrom airflow.operators.bash import BashOperator\n"
    assert fix_source(source, [(Position(1, 1), fix)]) is None  # the statement moved down
    assert fix_source(source, [(Position(2, 1), fix)]) == (
        b"import os\nfrom x.y import BashOperator\n"
    )
    other = ImportFix("airflow.operators.bash", "BashSensor", "x.y", "BashSensor")
    assert fix_source(source, [(Position(2, 1), other)]) is None


def test_encoding_and_file_mode_survive(tmp_path: Path) -> None:
    source = "# -*- coding: latin-1 -*-\nfrom airflow.operators.bash import BashOperator\nX = 'é'\n"
    path = tmp_path / "dags" / "dag.py"
    path.parent.mkdir()
    path.write_bytes(source.encode("latin-1"))
    os.chmod(path, 0o640)
    report = lint_repo(tmp_path, {}, inventory=None)
    fix_files(report.diagnostics, write=True)
    assert path.read_bytes() == source.replace(
        "airflow.operators.bash", "airflow.providers.standard.operators.bash"
    ).encode("latin-1")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_file_changed_since_linting_is_not_fixed(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path, {"dags/dag.py": "from airflow.operators.bash import BashOperator\n"}, None
    )
    path = tmp_path / "dags" / "dag.py"
    path.write_text("import os\nfrom airflow.operators.bash import BashOperator\n")
    outcome = fix_files(report.diagnostics, write=True)
    assert outcome.stale == [str(path)] and outcome.files == []
    assert path.read_text() == "import os\nfrom airflow.operators.bash import BashOperator\n"


def test_file_changed_while_fixing_is_not_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = lint_repo(
        tmp_path, {"dags/dag.py": "from airflow.operators.bash import BashOperator\n"}, None
    )
    path = tmp_path / "dags" / "dag.py"
    real = fix_source

    def edit_meanwhile(data: bytes, fixes: list[tuple[Position, ImportFix]]) -> bytes | None:
        result = real(data, fixes)
        path.write_text("# someone saved this meanwhile\n")
        return result

    monkeypatch.setattr("dagroute_lint.fix.fix_source", edit_meanwhile)
    outcome = fix_files(report.diagnostics, write=True)
    assert outcome.changed_on_disk == [str(path)] and outcome.files == []
    assert path.read_text() == "# someone saved this meanwhile\n"


def test_windows_line_endings_and_byte_order_mark_survive(tmp_path: Path) -> None:
    source = b"\xef\xbb\xbfimport os\r\nfrom airflow.models.dag import DAG, DagModel\r\n"
    path = tmp_path / "dags" / "dag.py"
    path.parent.mkdir()
    path.write_bytes(source)
    fix_files(lint_repo(tmp_path, {}, inventory=None).diagnostics, write=True)
    assert path.read_bytes() == (
        b"\xef\xbb\xbfimport os\r\nfrom airflow.models.dag import DagModel\r\n"
        b"from airflow.sdk import DAG\r\n"
    )


# --- keyword fixes (the hybrid executors' executor=; their rules in tests/test_hybrid_fix.py) ---

TO_PODS = KeywordFix(
    2, 5, "executor", "CeleryKubernetesExecutor", "executor", "KubernetesExecutor",
    ((3, 5, "queue", "kubernetes"),),
)  # fmt: skip
CALL = b"""Op(
    executor="CeleryKubernetesExecutor",
    queue="kubernetes",  # the pods
    task_id="t",
)
"""


def test_a_keyword_dropped_between_others_takes_its_comma_with_it() -> None:
    assert fix_source(CALL, [(Position(1, 1), TO_PODS)]) == (
        b'Op(\n    executor="KubernetesExecutor",\n    task_id="t",\n)\n'
    )


def test_a_keyword_fix_that_does_not_match_the_content_is_refused() -> None:
    moved = CALL.replace(b"Op(\n", b"Op(\n    pool='p',\n")
    assert fix_source(moved, [(Position(1, 1), TO_PODS)]) is None  # the keywords moved down
    other = CALL.replace(b'queue="kubernetes"', b'queue="gpu"')
    assert fix_source(other, [(Position(1, 1), TO_PODS)]) is None  # the value changed
    variable = CALL.replace(b'"CeleryKubernetesExecutor"', b"HYBRID")
    assert fix_source(variable, [(Position(1, 1), TO_PODS)]) is None  # no longer a literal
    celery = replace(TO_PODS, new_value="CeleryExecutor", drop=())
    assert fix_source(CALL, [(Position(1, 1), TO_PODS), (Position(1, 1), celery)]) is None


def test_a_keyword_fix_and_an_import_fix_of_one_file_both_apply() -> None:
    source = b"from airflow.operators.bash import BashOperator\n" + CALL.replace(
        b"Op(", b"BashOperator("
    )
    moved = ImportFix(
        "airflow.operators.bash", "BashOperator",
        "airflow.providers.standard.operators.bash", "BashOperator",
    )  # fmt: skip
    fixes = [
        (Position(1, 1), moved),
        (Position(2, 1), replace(TO_PODS, line=3, drop=((4, 5, "queue", "kubernetes"),))),
    ]
    after = fix_source(source, fixes)
    assert after == (
        b"from airflow.providers.standard.operators.bash import BashOperator\n"
        b'BashOperator(\n    executor="KubernetesExecutor",\n    task_id="t",\n)\n'
    )
