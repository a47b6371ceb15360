"""The public API: lint paths or a buffer, with the settings and inventory found for them.

Every front end goes through these functions (the command line, the language server, the
flake8 plugin, the deployment acceptance commands), so they all lint the same files the same
way: each path under its nearest project's settings and inventory, with the same excludes,
``.gitignore``, ``.airflowignore`` and ``--force-exclude`` handling::

    from dagroute_lint import api

    result = api.lint_paths(["dags/"])
    for diagnostic in result.diagnostics:
        print(diagnostic.path, diagnostic.line, diagnostic.code, diagnostic.message)

``plan`` finds the projects a set of paths belongs to; ``lint`` lints them, ``routes`` analyses
every task of them, and ``report`` does both; ``lint_buffer`` lints an editor's unsaved text as
the file it will be saved as.
Configuration errors raise ``ConfigError`` (its message names the file, the key and, for
syntax errors, the position).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from dagroute_lint.config import DEFAULT_INVENTORY, Settings, load_settings
from dagroute_lint.deployment.inventory import Inventory
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.errors import ConfigError
from dagroute_lint.pipeline import runner
from dagroute_lint.pipeline.analysis import Execution, analyse
from dagroute_lint.pipeline.cache import DEFAULT_CACHE_DIR
from dagroute_lint.pipeline.extraction import available_cores
from dagroute_lint.pipeline.progress import ProgressLine
from dagroute_lint.pipeline.results import canonical
from dagroute_lint.pipeline.runner import Report, selected_rules
from dagroute_lint.pipeline.settings_report import describe_settings as _describe
from dagroute_lint.pipeline.targets import STDIN, Targets
from dagroute_lint.pipeline.targets import plan as plan_targets
from dagroute_lint.records import record, replace
from dagroute_lint.resolve.coverage import Coverage
from dagroute_lint.resolve.repository import AnalysedFile, Repository
from dagroute_lint.sources.discovery import LeftOut

__all__ = [
    "BufferProject",
    "BufferResult",
    "ConfigError",
    "LintResult",
    "Options",
    "Project",
    "Report",
    "buffer_project",
    "describe_settings",
    "lint",
    "lint_buffer",
    "lint_paths",
    "plan",
    "report",
    "routes",
]


@record
class Options:
    """What a command line adds to the settings files: the same for every command.

    Selection (``select`` ... ``respect_gitignore``) is layered over each project's settings as
    ruff layers its flags; ``inventory`` and ``config`` replace what the project would name.
    ``jobs`` (default: one per core), ``cache`` and ``cache_dir`` (default: ``.dagroute_cache``
    in each project's root) say how to run, never what is reported.
    """

    config: Path | None = None
    inventory: Path | None = None
    select: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    extend_ignore: tuple[str, ...] = ()
    extend_exclude: tuple[str, ...] = ()
    force_exclude: bool | None = None
    respect_gitignore: bool | None = None
    jobs: int | None = None
    cache: bool = True
    cache_dir: Path | None = None

    def apply(self, settings: Settings) -> Settings:
        """``settings`` with these flags on top."""
        return settings.with_overrides(
            self.inventory,
            self.select,
            self.ignore,
            self.extend_select,
            self.extend_ignore,
            extend_exclude=self.extend_exclude,
            force_exclude=self.force_exclude,
            respect_gitignore=self.respect_gitignore,
        )

    def execution(self, settings: Settings, progress: ProgressLine | None = None) -> Execution:
        cache_dir = self.cache_dir or settings.root / DEFAULT_CACHE_DIR
        return Execution(
            jobs=self.jobs if self.jobs is not None else available_cores(),
            cache_dir=cache_dir if self.cache else None,
            progress=progress,
        )


@record
class Project:
    """The share of a run one project governs: its settings, its paths, and its inventory
    (``None`` when it has none: only the rules that need no deployment run)."""

    settings: Settings
    targets: Targets
    inventory: Inventory | None
    stdin_filename: str | None = None  # the name of the buffer, for a plan of ``["-"]``


def plan(
    paths: Sequence[str], options: Options | None = None, stdin_filename: str | None = None
) -> list[Project]:
    """The projects ``paths`` belong to, each with its settings (and ``options`` over them),
    the paths it lints and its inventory, loaded.

    No paths: the ``dags`` folders of the working directory's project, else the working
    directory. ``["-"]``: one buffer read from stdin, governed as ``stdin_filename`` would be.
    An inventory or settings file among the paths stands for every DAG of its project.
    """
    options = options or Options()
    return [
        Project(run.settings, run.targets, run.settings.load_inventory(), stdin_filename)
        for run in plan_targets(paths, options.config, stdin_filename, options.apply)
    ]


@record
class LintResult:
    """What a lint run found, in output order; how much it saw (``coverage``: tasks, DAGs, and
    places where tasks may be missing); the files linted only because they import a file
    given; how many files were reported on, and what discovery left out. ``read`` holds every
    file the result depends on (those linted, the modules they import, the settings files and
    the inventory), as absolute paths: what ``--watch`` polls."""

    diagnostics: list[Diagnostic]
    coverage: Coverage
    dependents: tuple[str, ...]
    files: int
    left_out: LeftOut
    read: frozenset[Path] = frozenset()


def lint(
    projects: Sequence[Project],
    options: Options | None = None,
    stdin: bytes | None = None,
    progress: ProgressLine | None = None,
) -> LintResult:
    """Lint each project's paths under its settings and inventory, in one report; ``stdin``
    is the text of the buffer a plan of ``["-"]`` stands for."""
    options = options or Options()
    merged: list[Diagnostic] = []
    seen = Coverage()
    dependents: list[str] = []
    files = 0
    left_out = LeftOut()
    read: set[Path] = set()
    for project in projects:
        buffer = _buffer(project, stdin)
        execution = options.execution(project.settings, progress)
        paths = () if buffer is not None else project.targets.paths
        try:
            with analyse(paths, project.settings, project.inventory, buffer, execution) as run:
                found = runner.lint(run, selected_rules(project.settings))
                files += len(run.reported())
                left_out += run.left_out
                read |= run.read_files()
        finally:
            if progress is not None:
                progress.close()
        merged += found.diagnostics
        seen += found.coverage
        dependents += found.dependents
        read |= _configuration_files(project.settings)
    return LintResult(sorted(merged), seen, tuple(dependents), files, left_out, frozenset(read))


def _configuration_files(settings: Settings) -> set[Path]:
    """The settings files a project's lint read (its own and those it extends) and its
    inventory; where there is none, where one would be found (a file that appears counts)."""
    inventory = settings.inventory or settings.root / DEFAULT_INVENTORY
    config = settings.config_file or settings.root / "pyproject.toml"
    return {path.absolute() for path in (config, *settings.extends, inventory)}


def lint_paths(paths: Sequence[str], options: Options | None = None) -> LintResult:
    """``lint(plan(paths, options), options)``: what ``dagroute-lint PATH...`` reports."""
    return lint(plan(paths, options), options)


def _buffer(project: Project, stdin: bytes | None) -> tuple[str, bytes] | None:
    if project.targets.paths != (STDIN,):
        return None
    if stdin is None:
        raise ConfigError("`-` (stdin) names a buffer, but no text was given for it")
    return (project.stdin_filename or "stdin.py", stdin)


def routes(projects: Sequence[Project], options: Options | None = None) -> Report:
    """Analyse every file of the projects (no rule runs)."""
    return _every_file(projects, options or Options(), linted=False)


def report(projects: Sequence[Project], options: Options | None = None) -> Report:
    """Analyse and lint every file of the projects, keeping each file's analysis."""
    return _every_file(projects, options or Options(), linted=True)


def _every_file(projects: Sequence[Project], options: Options, linted: bool) -> Report:
    """One repository of every project's files. It describes one deployment: projects with
    different inventories are refused."""
    if len({_deployment(project) for project in projects}) > 1:
        shown = ", ".join(sorted({_inventory_name(project) for project in projects}))
        raise ConfigError(
            f"these paths span projects with different inventories ({shown}), and a routing "
            "table or coverage report describes one deployment: run it once per project"
        )
    if any(project.targets.paths == (STDIN,) for project in projects):
        raise ConfigError("this command reads files, not stdin")
    files: list[AnalysedFile] = []
    dependents: list[str] = []
    diagnostics: list[Diagnostic] = []
    left_out = LeftOut()
    first: Repository | None = None
    for project in projects:
        execution = options.execution(project.settings)
        settings, inventory = project.settings, project.inventory
        with analyse(project.targets.paths, settings, inventory, None, execution) as run:
            if linted:
                diagnostics += runner.lint(run, selected_rules(settings), keep=True).diagnostics
            files += run.repository.files
            dependents += run.repository.dependents
            left_out += run.left_out
            first = first or run.repository
    assert first is not None  # a plan always holds a project
    merged = replace(first, files=tuple(files), dependents=tuple(dependents), dags=None)
    return Report(merged, sorted(diagnostics), left_out)


def _deployment(project: Project) -> str:
    """What a project's inventory says, wherever its file is: two copies of one inventory
    describe one deployment."""
    inventory = project.inventory
    return "none" if inventory is None else canonical(replace(inventory, path=""))


def _inventory_name(project: Project) -> str:
    """The inventory file a project uses, as text ("none" without one)."""
    path = project.settings.default_inventory()
    return str(path) if path is not None else "none"


def describe_settings(
    paths: Sequence[str], options: Options | None = None, stdin_filename: str | None = None
) -> str:
    """``--show-settings``: every setting that governs the first path (or stdin's file name,
    or the working directory), with the file and key or flag that set it."""
    options = options or Options()
    return _describe(paths, options.config, stdin_filename, options.apply)


@record
class BufferProject:
    """The settings and inventory an editor's document is linted under (see ``buffer_project``)."""

    settings: Settings
    inventory: Inventory | None


def buffer_project(folder: Path | str, options: Options | None = None) -> BufferProject:
    """The settings and inventory of the project holding the files of ``folder``, as the
    command line finds them. Editors keep this while no configuration file changes: reading the
    settings and the inventory costs more than linting a buffer."""
    options = options or Options()
    settings = options.apply(load_settings(options.config, Path(folder).absolute()))
    return BufferProject(settings, settings.load_inventory())


@record
class BufferResult:
    """What linting a buffer found, and the file's analysis (for hovers), ``None`` when the
    project leaves the file out (an exclude pattern, ``.gitignore``, ``.airflowignore``)."""

    diagnostics: tuple[Diagnostic, ...]
    file: AnalysedFile | None


def lint_buffer(
    path: Path | str, data: bytes, project: BufferProject | None = None
) -> BufferResult:
    """Lint ``data`` as the file at ``path`` (modules it imports are read from disk, never
    imported). The project's excludes apply as a folder lint applies them, whether or not
    ``force-exclude`` is set: an editor shows what the command line would report on the saved
    file when it lints the project."""
    project = project or buffer_project(Path(path).absolute().parent)
    settings = replace(project.settings, force_exclude=True)
    shown = str(path)
    with analyse([shown], settings, project.inventory, (shown, data), Execution()) as run:
        found = runner.lint(run, selected_rules(settings), keep=True)
        analysed = run.repository.files[0] if run.reported() else None
    return BufferResult(tuple(found.diagnostics), analysed)
