"""The language server, as an editor drives it: the real ``dagroute-lint server`` process over
stdio, talked to by pygls's own ``LanguageClient``."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from dagroute_lint.deployment.toml import toml
from dagroute_lint.diagnostics import Diagnostic, Facts
from dagroute_lint.errors import ConfigError
from dagroute_lint.formatters.json import facts_object
from dagroute_lint.model import Position
from dagroute_lint.noqa import layout
from dagroute_lint.server.projects import Projects
from dagroute_lint.server.protocol import (
    lines_of,
    lsp_diagnostic,
    lsp_position,
    noqa_edit,
    replacement,
)
from tests.helpers import CELERY_K8S, dag_repository

DAG_FILE = """\
from airflow.operators.bash import BashOperator
from airflow.sdk import DAG
from common.routing import REPORTS_QUEUE

with DAG("lab"):
    BashOperator(task_id="build", bash_command="x", queue=REPORTS_QUEUE)
    BashOperator(task_id="load", bash_command="x", queue="imports")
"""
MODERN = "from airflow.providers.standard.operators.bash import BashOperator\n"
SERVING_REPORTS = CELERY_K8S.replace(
    'queues = ["default", "imports"]', 'queues = ["imports", "reports"]'
)
WAIT = 120.0  # seconds: the first lint of a session imports libcst and reads the imported module


class Editor:
    """An editor's side of the session: documents it opened, and what the server published."""

    def __init__(self, client: LanguageClient) -> None:
        self.client = client
        self.published: dict[str, list[types.PublishDiagnosticsParams]] = {}
        self.registrations: list[types.Registration] = []
        self.changed = asyncio.Condition()
        self.versions: dict[str, int] = {}
        self.texts: dict[str, str] = {}
        self.seen: dict[str, int] = {}
        self.pid = 0  # the server process's, once started

    async def diagnostics(
        self, uri: str, wanted: Callable[[list[types.Diagnostic]], bool] = lambda _: True
    ) -> list[types.Diagnostic]:
        """The next diagnostics published for the document's current version that satisfy
        ``wanted`` (publications seen by an earlier call are passed over); fails after
        ``WAIT`` seconds."""

        def found() -> int | None:
            published = self.published.get(uri, [])
            for index in range(self.seen.get(uri, 0), len(published)):
                params = published[index]
                if params.version == self.versions[uri] and wanted(params.diagnostics):
                    return index
            return None

        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(lambda: found() is not None), WAIT)
        index = found()
        assert index is not None
        self.seen[uri] = index + 1
        return list(self.published[uri][index].diagnostics)

    def open(self, path: Path) -> str:
        uri = from_fs_path(str(path))
        assert uri is not None
        self.versions[uri], self.texts[uri] = 1, path.read_text(encoding="utf-8")
        document = types.TextDocumentItem(uri, "python", 1, self.texts[uri])
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(document))
        return uri

    def replace_text(self, uri: str, text: str) -> None:
        """A full-text change, as an editor sends it after an edit."""
        self.versions[uri] += 1
        self.texts[uri] = text
        identifier = types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri])
        change = types.TextDocumentContentChangeWholeDocument(text=text)
        params = types.DidChangeTextDocumentParams(identifier, [change])
        self.client.text_document_did_change(params)

    def apply(self, uri: str, edit: types.WorkspaceEdit) -> None:
        """Apply a code action's edit as the editor would, then tell the server."""
        assert edit.document_changes is not None
        text = self.texts[uri]
        for change in edit.document_changes:
            assert isinstance(change, types.TextDocumentEdit)
            assert change.text_document.version == self.versions[uri]
            for text_edit in sorted(
                change.edits, key=lambda e: (e.range.start.line, e.range.start.character),
                reverse=True,
            ):  # fmt: skip
                assert isinstance(text_edit, types.TextEdit)
                text = _edited(text, text_edit)
        self.replace_text(uri, text)


def _edited(text: str, edit: types.TextEdit) -> str:
    """``text`` with one edit applied (the test texts are ASCII: columns are characters)."""
    lines = text.splitlines(keepends=True)

    def offset(position: types.Position) -> int:
        return sum(len(line) for line in lines[: position.line]) + position.character

    return text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]


@asynccontextmanager
async def editor(root: Path, cwd: Path | None = None) -> AsyncIterator[Editor]:
    """A started server process with an initialised session on the workspace ``root``, shut
    down cleanly after; the process runs in ``cwd`` (default: the workspace), as an editor
    started elsewhere runs it."""
    client = LanguageClient("test-editor", "1")
    session = Editor(client)

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    async def _published(params: types.PublishDiagnosticsParams) -> None:
        async with session.changed:
            session.published.setdefault(params.uri, []).append(params)
            session.changed.notify_all()

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def _register(params: types.RegistrationParams) -> None:
        session.registrations.extend(params.registrations)

    await client.start_io(sys.executable, "-m", "dagroute_lint", "server", cwd=str(cwd or root))
    assert client._server is not None  # pygls keeps the process it started, and names no pid
    session.pid = client._server.pid
    capabilities = types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
                dynamic_registration=True
            )
        )
    )
    root_uri = from_fs_path(str(root))
    await client.initialize_async(
        types.InitializeParams(capabilities=capabilities, root_uri=root_uri)
    )
    client.initialized(types.InitializedParams())
    try:
        yield session
    finally:
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()


async def hover_text(session: Editor, uri: str, line: int, character: int = 8) -> str | None:
    """The Markdown of the hover at a 0-based ``line`` and ``character``, ``None`` for none."""
    params = types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(line, character))
    found = await session.client.text_document_hover_async(params)
    if found is None:
        return None
    assert isinstance(found.contents, types.MarkupContent)
    return found.contents.value


def run(test: Callable[[], object]) -> None:
    asyncio.run(test())  # type: ignore[arg-type]


def repository(tmp_path: Path) -> Path:
    return dag_repository(tmp_path, {"dags/report.py": DAG_FILE})


def codes(diagnostics: list[types.Diagnostic]) -> list[tuple[int, object]]:
    return sorted((d.range.start.line, d.code) for d in diagnostics)


def test_diagnostics_follow_the_buffer_as_it_is_opened_and_changed(tmp_path: Path) -> None:
    repo = repository(tmp_path)

    async def test() -> None:
        async with editor(repo) as session:
            uri = session.open(repo / "dags" / "report.py")
            found = await session.diagnostics(uri)
            # The queue comes from common/routing.py, read from disk; no worker serves it.
            assert codes(found) == [(0, "DRL204"), (5, "DRL101")]
            queue = next(d for d in found if d.code == "DRL101")
            assert queue.range.start.character == 4
            assert "reports" in queue.message
            assert queue.severity == types.DiagnosticSeverity.Error
            # Its facts reach the editor in ``data``, as the JSON format's ``facts`` object.
            assert queue.data == {
                "kind": "queue",
                "item": "reports",
                "dag_id": "lab",
                "task_id": "build",
                "tasks": [{"dag_id": "lab", "task_id": "build"}],
                "workers": [],
                "runtime": None,
            }
            # An unsaved edit: the buffer is linted, not the file on disk.
            session.replace_text(uri, DAG_FILE.replace("queue=REPORTS_QUEUE", 'queue="imports"'))
            assert codes(await session.diagnostics(uri)) == [(0, "DRL204")]
            assert (repo / "dags" / "report.py").read_text() == DAG_FILE
            # The watchers that let a change of the configuration reach the server.
            globs = [
                watcher["globPattern"]
                for registration in session.registrations
                if registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
                for watcher in registration.register_options["watchers"]  # type: ignore[index]
            ]
            assert globs == ["**/*"]

    run(test)


def test_code_actions_fix_the_import_and_add_noqa(tmp_path: Path) -> None:
    repo = repository(tmp_path)

    async def test() -> None:
        async with editor(repo) as session:
            uri = session.open(repo / "dags" / "report.py")
            await session.diagnostics(uri, lambda found: len(found) == 2)
            line_range = types.Range(types.Position(0, 0), types.Position(0, 0))
            context = types.CodeActionContext(diagnostics=[])
            document = types.TextDocumentIdentifier(uri)
            params = types.CodeActionParams(document, line_range, context)
            actions = await session.client.text_document_code_action_async(params)
            assert actions is not None
            titles = [action.title for action in actions if isinstance(action, types.CodeAction)]
            assert any(title.startswith("Fix DRL204") for title in titles), titles
            assert "Ignore DRL204 on this line (# noqa: DRL204)" in titles
            fix = next(
                a for a in actions if isinstance(a, types.CodeAction) and "Fix DRL204" in a.title
            )
            assert fix.edit is not None
            session.apply(uri, fix.edit)
            assert session.texts[uri] == DAG_FILE.replace(
                "from airflow.operators.bash import BashOperator\n", MODERN
            )
            assert codes(await session.diagnostics(uri)) == [(5, "DRL101")]
            # Ignore the queue problem on its line: the server then reports nothing.
            queue_line = types.Range(types.Position(5, 0), types.Position(5, 10))
            params = types.CodeActionParams(document, queue_line, context)
            actions = await session.client.text_document_code_action_async(params)
            assert actions is not None
            noqa = next(a for a in actions if isinstance(a, types.CodeAction) and "noqa" in a.title)
            assert noqa.edit is not None
            session.apply(uri, noqa.edit)
            assert (
                session.texts[uri].splitlines()[5].endswith("queue=REPORTS_QUEUE)  # noqa: DRL101")
            )
            assert await session.diagnostics(uri) == []

    run(test)


def test_hover_on_a_task_shows_its_routing_and_the_workers_serving_it(tmp_path: Path) -> None:
    repo = repository(tmp_path)

    async def test() -> None:
        async with editor(repo) as session:
            uri = session.open(repo / "dags" / "report.py")
            await session.diagnostics(uri)

            async def hover(line: int) -> str | None:
                return await hover_text(session, uri, line)

            served = await hover(6)
            assert served is not None
            assert "task 'load' in dag 'lab'" in served
            assert "queue: `'imports'`" in served
            assert "pool: `'default_pool'` (Airflow's default)" in served
            assert "`celery-general` (runtime `base`)" in served
            unserved = await hover(5)
            assert unserved is not None
            assert "queue: `'reports'`" in unserved
            assert "workers: **none** serve this task" in unserved
            assert await hover(1) is None  # not a task

    run(test)


def test_the_baseline_setting_hides_what_it_accepts_until_it_changes(tmp_path: Path) -> None:
    repo = repository(tmp_path)
    written = subprocess.run(
        [sys.executable, "-m", "dagroute_lint", "--write-baseline", "baseline.json", "--select",
         "DRL101", "--no-cache"],
        cwd=repo, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert written.returncode == 0, written.stderr
    settings = (repo / "pyproject.toml").read_text() + 'baseline = "baseline.json"\n'
    (repo / "pyproject.toml").write_text(settings)

    async def test() -> None:
        async with editor(repo) as session:
            uri = session.open(repo / "dags" / "report.py")
            assert codes(await session.diagnostics(uri)) == [(0, "DRL204")]
            # A rewritten baseline that accepts nothing: the editor is told, and lints again.
            baseline = json.loads((repo / "baseline.json").read_text())
            (repo / "baseline.json").write_text(json.dumps({**baseline, "projects": {}}))
            event = types.FileEvent(
                from_fs_path(str(repo / "baseline.json")) or "", types.FileChangeType.Changed
            )
            session.client.workspace_did_change_watched_files(
                types.DidChangeWatchedFilesParams([event])
            )
            found = await session.diagnostics(uri, lambda d: len(d) == 2)
            assert codes(found) == [(0, "DRL204"), (5, "DRL101")]

    run(test)


def test_a_changed_inventory_or_imported_module_lints_open_documents_again(tmp_path: Path) -> None:
    repo = repository(tmp_path)

    async def test() -> None:
        async with editor(repo) as session:
            uri = session.open(repo / "dags" / "report.py")
            assert codes(await session.diagnostics(uri)) == [(0, "DRL204"), (5, "DRL101")]

            def changed(path: Path) -> None:
                event = types.FileEvent(from_fs_path(str(path)) or "", types.FileChangeType.Changed)
                params = types.DidChangeWatchedFilesParams([event])
                session.client.workspace_did_change_watched_files(params)

            # The deployment starts serving the queue: the same text now passes.
            (repo / "dagroute.toml").write_text(SERVING_REPORTS, encoding="utf-8")
            changed(repo / "dagroute.toml")
            assert codes(await session.diagnostics(uri, lambda d: len(d) == 1)) == [(0, "DRL204")]
            # The shared module moves the DAG to a queue nobody serves.
            (repo / "dags/common/routing.py").write_text('REPORTS_QUEUE = "nowhere"\n')
            changed(repo / "dags/common/routing.py")
            found = await session.diagnostics(uri, lambda d: len(d) == 2)
            assert "nowhere" in next(d.message for d in found if d.code == "DRL101")
            # A broken configuration is said on the document, naming the file and key.
            (repo / "pyproject.toml").write_text('[tool.dagroute-lint]\nselekt = ["ALL"]\n')
            changed(repo / "pyproject.toml")
            found = await session.diagnostics(uri, lambda d: len(d) == 1 and d[0].code is None)
            assert "cannot run" in found[0].message
            assert "pyproject.toml: tool.dagroute-lint.selekt: unknown setting" in found[0].message

    run(test)


YAML_DAG = """import os
import yaml
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
CONF = yaml.safe_load(open(os.path.join(os.path.dirname(__file__), "conf.yaml")))
with DAG("from_yaml"):
    BashOperator(task_id="t", bash_command="x", queue=CONF["queue"])
"""


def test_a_changed_data_file_lints_the_documents_built_from_it_again(tmp_path: Path) -> None:
    repo = dag_repository(
        tmp_path, {"dags/from_yaml.py": YAML_DAG, "dags/conf.yaml": "queue: default\n"}
    )

    async def test() -> None:
        async with editor(repo) as session:
            uri = session.open(repo / "dags" / "from_yaml.py")
            assert codes(await session.diagnostics(uri)) == []
            (repo / "dags/conf.yaml").write_text("queue: nowhere\n", encoding="utf-8")
            event = types.FileEvent(
                from_fs_path(str(repo / "dags/conf.yaml")) or "", types.FileChangeType.Changed
            )
            session.client.workspace_did_change_watched_files(
                types.DidChangeWatchedFilesParams([event])
            )
            found = await session.diagnostics(uri, lambda d: len(d) == 1)
            assert found[0].code == "DRL101" and "nowhere" in found[0].message

    run(test)


def test_documents_the_project_leaves_out_get_no_diagnostics(tmp_path: Path) -> None:
    """The editor shows what the command line reports: a file that ``extend-exclude``,
    ``.gitignore`` or ``.airflowignore`` leaves out of a lint of the project gets none, also
    with the server started outside the project; a file beside them still gets its own."""
    repo = repository(tmp_path / "repo")
    settings = (repo / "pyproject.toml").read_text(encoding="utf-8")
    (repo / "pyproject.toml").write_text(settings + 'extend-exclude = ["dags/legacy"]\n')
    for name in ("legacy/old.py", "scratch.py", "ignored_by_airflow.py"):
        (repo / "dags" / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / "dags" / name).write_text(DAG_FILE, encoding="utf-8")
    (repo / ".gitignore").write_text("dags/scratch.py\n")
    (repo / "dags" / ".airflowignore").write_text("ignored_by_airflow.py\n")
    git = shutil.which("git")
    assert git is not None, "git is needed to tell what .gitignore leaves out"
    subprocess.run([git, "init", "-q", str(repo)], check=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    cli = subprocess.run(
        [sys.executable, "-m", "dagroute_lint", "dags", "--output-format", "json", "--no-cache"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    reported = {item["file"] for item in json.loads(cli.stdout)}
    assert reported == {"dags/report.py"}, cli.stderr

    async def test() -> None:
        async with editor(repo, cwd=elsewhere) as session:
            for name in ("legacy/old.py", "scratch.py", "ignored_by_airflow.py"):
                uri = session.open(repo / "dags" / name)
                assert await session.diagnostics(uri) == [], name
            uri = session.open(repo / "dags" / "report.py")
            assert codes(await session.diagnostics(uri)) == [(0, "DRL204"), (5, "DRL101")]

    run(test)


def test_a_project_is_kept_while_a_document_in_its_folder_is_open(tmp_path: Path) -> None:
    first = dag_repository(tmp_path / "first", {"dags/report.py": DAG_FILE})
    second = dag_repository(tmp_path / "second", {"dags/report.py": DAG_FILE})
    projects = Projects()
    assert not isinstance(projects.for_document(first / "dags" / "report.py"), ConfigError)
    assert not isinstance(projects.for_document(second / "dags" / "report.py"), ConfigError)
    # Both projects are kept: a broken file on disk is not read again until told.
    for repo in (first, second):
        (repo / "pyproject.toml").write_text('[tool.dagroute-lint]\nselekt = ["ALL"]\n')
    assert not isinstance(projects.for_document(second / "dags" / "report.py"), ConfigError)
    # The second repository's document closed: its project is dropped, the first one's kept.
    projects.keep([first / "dags" / "report.py"])
    assert not isinstance(projects.for_document(first / "dags" / "report.py"), ConfigError)
    assert isinstance(projects.for_document(second / "dags" / "report.py"), ConfigError)


EDITORS_PAGE = Path(__file__).resolve().parents[1] / "docs" / "editors.md"


def test_the_editors_page_starts_the_server_the_tests_start() -> None:
    """Helix's, Neovim's and VS Code's snippets run ``dagroute-lint server``, the command tested
    above."""
    page = EDITORS_PAGE.read_text(encoding="utf-8")
    section = page.split("\n## Language server\n", 1)[1].split("\n## ", 1)[0]
    helix = re.search(r"```toml\n(.*?)```", section, re.S)
    assert helix is not None
    config = toml.loads(helix.group(1))
    server = config["language-server"]["dagroute-lint"]
    assert [server["command"], *server["args"]] == ["dagroute-lint", "server"]
    assert "dagroute-lint" in config["language"][0]["language-servers"]
    assert 'cmd = { "dagroute-lint", "server" }' in section
    assert '{ command: "dagroute-lint", args: ["server"] }' in section


# --- the LSP values, on the edge cases an editor session rarely reaches --------------------------


def test_a_replacement_touches_only_the_lines_between_the_common_ends() -> None:
    before = "a\nb\nc\n"
    edit = replacement(before, "a\nB\nB2\nc\n")
    assert (edit.range.start.line, edit.range.end.line) == (1, 2)
    assert _edited(before, edit) == "a\nB\nB2\nc\n"
    # The last line has no line break: the edit ends at its end, not past it.
    edit = replacement("a\nb", "a\nc")
    assert edit.range.end == types.Position(1, 1)
    assert _edited("a\nb", edit) == "a\nc"


def test_noqa_adds_the_code_to_an_existing_list_or_appends_a_comment() -> None:
    def added(line: str) -> str | None:
        diagnostic = Diagnostic("dag.py", 1, 1, "DRL101", "m")
        edit = noqa_edit([line], diagnostic, layout(line))
        return None if edit is None else _edited(line, edit)

    assert added("x = f()  \n") == "x = f()  # noqa: DRL101  \n"
    assert added("x = f()  # noqa: E501\n") == "x = f()  # noqa: E501, DRL101\n"
    assert added("x = f()  # why  # NOQA:E501,W291\n") == (
        "x = f()  # why  # NOQA:E501,W291, DRL101\n"
    )
    # A list inside a string is not the comment's, and a comment after it would not be read.
    assert added('x = f("# noqa: E501")\n') is None


def test_noqa_is_not_offered_where_a_comment_cannot_go() -> None:
    text = 'x = f("""a\nb""")\ny = 1 + \\\n    2\n'
    offered = [
        noqa_edit(lines_of(text), Diagnostic("dag.py", line, 1, "DRL101", "m"), layout(text))
        is not None
        for line in (1, 2, 3, 4)
    ]
    assert offered == [False, True, False, True]  # inside a string, after a backslash: none


def test_a_published_diagnostic_carries_its_facts_in_data() -> None:
    facts = Facts("package", "polars", "features", None, (("features", "a"), ("features", "b")))
    diagnostic = Diagnostic("dag.py", 1, 1, "DRL203", "m", facts=facts)
    data = lsp_diagnostic(["import polars\n"], diagnostic).data
    assert data == facts_object(facts)
    assert data["tasks"] == [
        {"dag_id": "features", "task_id": "a"},
        {"dag_id": "features", "task_id": "b"},
    ]


def test_columns_are_utf16_code_units() -> None:
    # An emoji is one code point but two UTF-16 units: the call after it, at code point 9
    # (0-based), is at UTF-16 unit 10.
    lines = ['s = "\U0001f600"; f()\n']
    assert lsp_position(lines, Position(1, 10)) == types.Position(0, 10)
    assert lsp_position(['s = "a"; f()\n'], Position(1, 10)) == types.Position(0, 9)


def test_lines_break_where_python_breaks_them() -> None:
    """A form feed inside a string is no line break for Python: positions must not shift."""
    text = 'a = "x\x0cy"\r\nb = 1\rc = 2\nd'
    assert lines_of(text) == ['a = "x\x0cy"\r\n', "b = 1\r", "c = 2\n", "d"]
    assert lines_of("") == []
