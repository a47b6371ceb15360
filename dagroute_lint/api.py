"""The public API: lint paths or a buffer, with the settings and inventory found for them.

Every front end goes through these functions (the command line, the language server, the
flake8 plugin, the deployment acceptance commands), so they all lint the same files the same
way: each path under its nearest project's settings and inventory, with the same excludes,
``.gitignore``, ``.airflowignore`` and ``--force-exclude`` handling::

    from dagroute_lint import api

    result = api.lint_paths(["dags/"])
    for diagnostic in result.diagnostics:
        print(diagnostic.path, diagnostic.line, diagnostic.code, diagnostic.message)

``plan`` finds the projects a set of paths belongs to; ``lint`` lints them (leaving out what each
project's baseline accepts), ``routes`` analyses every task of them, and ``report`` does both;
``trace`` explains the routing of the tasks one target names; ``write_baseline`` records what
they report now; ``lint_buffer`` lints an editor's unsaved text
as the file it will be saved as.
Configuration errors raise ``ConfigError`` (its message names the file, the key and, for
syntax errors, the position).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

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
from dagroute_lint.sources.discovery import LeftOut, absolute

# A run without a baseline never reads one: the baseline modules are imported where one is used.
if TYPE_CHECKING:
    from dagroute_lint.formatters.trace import Trace
    from dagroute_lint.pipeline.baseline import Baseline, Counts, Filtered, Stale

__all__ = [
    "BaselineWritten",
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
    "trace",
    "write_baseline",
]


@record
class Options:
    """What a command line adds to the settings files: the same for every command.

    Selection (``select`` ... ``respect_gitignore``) is layered over each project's settings as
    ruff layers its flags; ``inventory``, ``config`` and ``baseline`` replace what the project
    would name, and ``no_baseline`` turns every project's baseline off. ``jobs`` (default: one
    per core), ``cache`` and ``cache_dir`` (default: ``.dagroute_cache`` in each project's root)
    say how to run, never what is reported.
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
    baseline: Path | None = None
    no_baseline: bool = False
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
            baseline=self.baseline,
            no_baseline=self.no_baseline,
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
    given; how many files were reported on, and what discovery left out. ``accepted`` counts
    the diagnostics the projects' baselines left out, and ``stale`` lists their entries that
    no longer occur (in the files the run linted, or in files that are gone). ``read`` holds
    every file the result depends on (those linted, the modules they import, the settings
    files, the inventory and the baseline), as absolute paths: what ``--watch`` polls."""

    diagnostics: list[Diagnostic]
    coverage: Coverage
    dependents: tuple[str, ...]
    files: int
    left_out: LeftOut
    accepted: int = 0
    stale: tuple[Stale, ...] = ()
    read: frozenset[Path] = frozenset()


@record
class _Share:
    """One project's part of a lint run, before any baseline: its diagnostics, and the files it
    linted (each as shown, to its real path)."""

    project: Project
    diagnostics: list[Diagnostic]
    coverage: Coverage
    dependents: tuple[str, ...]
    linted: dict[str, str]
    left_out: LeftOut
    read: frozenset[Path]


def _shares(
    projects: Sequence[Project],
    options: Options,
    stdin: bytes | None,
    progress: ProgressLine | None,
) -> Iterator[_Share]:
    for project in projects:
        buffer = _buffer(project, stdin)
        execution = options.execution(project.settings, progress)
        paths = () if buffer is not None else project.targets.paths
        try:
            with analyse(paths, project.settings, project.inventory, buffer, execution) as run:
                found = runner.lint(run, selected_rules(project.settings))
                linted = {file.source.display: file.source.real for file in run.reported()}
                left_out = run.passed_over()
                read = run.read_files() | _configuration_files(project.settings)
        finally:
            if progress is not None:
                progress.close()
        yield _Share(
            project, found.diagnostics, found.coverage, found.dependents, linted, left_out, read
        )


def lint(
    projects: Sequence[Project],
    options: Options | None = None,
    stdin: bytes | None = None,
    progress: ProgressLine | None = None,
) -> LintResult:
    """Lint each project's paths under its settings and inventory, in one report, less what
    its baseline accepts; ``stdin`` is the text of the buffer a plan of ``["-"]`` stands for.

    Every baseline is read before anything is linted: a missing or broken one raises
    ``ConfigError`` at once.
    """
    options = options or Options()
    baselines = _read_baselines(project.settings.baseline for project in projects)
    merged: list[Diagnostic] = []
    seen = Coverage()
    dependents: list[str] = []
    files = 0
    left_out = LeftOut()
    accepted = 0
    stale: list[Stale] = []
    read: set[Path] = set()
    for share in _shares(projects, options, stdin, progress):
        found = share.diagnostics
        path = share.project.settings.baseline
        if path is not None:
            filtered = _filtered(baselines[path], share.project.settings.root, found, share.linted)
            found = filtered.reported
            accepted += filtered.accepted
            stale += filtered.stale
        merged += found
        seen += share.coverage
        dependents += share.dependents
        files += len(share.linted)
        left_out += share.left_out
        read |= share.read
    return LintResult(
        sorted(merged),
        seen,
        tuple(dependents),
        files,
        left_out,
        accepted,
        tuple(stale),
        frozenset(read),
    )


def _configuration_files(settings: Settings) -> set[Path]:
    """The settings files a project's lint read (its own and those it extends), its inventory
    and its baseline; where there is none, where one would be found (a file that appears
    counts)."""
    inventory = settings.inventory or settings.root / DEFAULT_INVENTORY
    config = settings.config_file or settings.root / "pyproject.toml"
    baseline = () if settings.baseline is None else (settings.baseline,)
    return {path.absolute() for path in (config, *settings.extends, inventory, *baseline)}


def _read_baselines(paths: Iterable[Path | None]) -> dict[Path, Baseline]:
    """The baselines at ``paths`` (``None``: none), each read once."""
    wanted = [path for path in dict.fromkeys(paths) if path is not None]
    if not wanted:
        return {}
    from dagroute_lint.pipeline.baseline_file import read_baseline

    return {path: read_baseline(path) for path in wanted}


def _filtered(
    baseline: Baseline, root: Path, diagnostics: list[Diagnostic], linted: dict[str, str]
) -> Filtered:
    from dagroute_lint.pipeline.baseline import apply_baseline

    return apply_baseline(baseline, root, diagnostics, linted)


@record
class BaselineWritten:
    """What ``write_baseline`` wrote: how many diagnostics this run recorded, in how many
    files, and how many entries it kept of files the run did not lint."""

    path: Path
    recorded: int
    files: int
    kept: int


def write_baseline(
    path: Path,
    projects: Sequence[Project],
    options: Options | None = None,
    progress: ProgressLine | None = None,
) -> BaselineWritten:
    """Lint the projects with no baseline and write every diagnostic to the baseline ``path``
    (each under its project, relative to the file's folder), atomically.

    Entries an existing file holds for files this run did not lint are kept while those files
    exist, so a run over some files updates only theirs. A file at ``path`` that is not a
    baseline is never overwritten: ``ConfigError`` says what is wrong with it.
    """
    from dagroute_lint.pipeline.baseline import counts, project_file, project_key, rewritten
    from dagroute_lint.pipeline.baseline_file import read_baseline, write_baseline_file

    options = options or Options()
    if any(project.targets.paths == (STDIN,) for project in projects):
        raise ConfigError("a baseline records files, not stdin")
    path = absolute(path)
    previous = None
    if path.exists():
        try:
            previous = read_baseline(path)
        except ConfigError as error:
            raise ConfigError(f"{error}; only a baseline file is overwritten") from None
    found: dict[str, Counts] = {}
    linted: dict[str, set[str]] = {}
    for share in _shares(projects, options, None, progress):
        root = share.project.settings.root
        key = project_key(path, root)
        section = found.setdefault(key, {})
        for entry, count in counts(share.diagnostics, root, share.linted).items():
            section[entry] = section.get(entry, 0) + count
        linted.setdefault(key, set()).update(
            project_file(real, root) for real in share.linted.values()
        )
    baseline = rewritten(path, previous, found, linted)
    write_baseline_file(baseline)
    recorded = sum(sum(section.values()) for section in found.values())
    written = sum(sum(section.values()) for section in baseline.projects.values())
    files = len({(key, entry.file) for key, section in found.items() for entry in section})
    return BaselineWritten(path, recorded, files, written - recorded)


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


@record
class Traced:
    """What ``trace`` found: the trace of each task the target names (none: ``no_match`` says
    why, with the closest names), and the analysis it was read from."""

    traces: tuple[Trace, ...]
    no_match: str
    report: Report


def trace(projects: Sequence[Project], target: str, options: Options | None = None) -> Traced:
    """Analyse every file of the projects (no rule runs) and trace the tasks ``target`` names:
    ``dag_id.task_id`` (the full task id, TaskGroup prefixes included), or ``FILE:LINE``, the
    tasks whose call starts on that line (several, in a loop)."""
    from dagroute_lint.formatters.trace import matching, no_match, trace_repository

    found = routes(projects, options)
    repository = found.repository
    tasks = matching(repository, target)
    why = "" if tasks else no_match(repository, target)
    return Traced(tuple(trace_repository(repository, tasks)), why, found)


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
            left_out += run.passed_over()
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
    """The settings, inventory and baseline an editor's document is linted under (see
    ``buffer_project``)."""

    settings: Settings
    inventory: Inventory | None
    baseline: Baseline | None = None


def buffer_project(folder: Path | str, options: Options | None = None) -> BufferProject:
    """The settings, inventory and baseline of the project holding the files of ``folder``, as
    the command line finds them. Editors keep this while no configuration file (or the
    baseline) changes: reading them costs more than linting a buffer."""
    options = options or Options()
    settings = options.apply(load_settings(options.config, Path(folder).absolute()))
    baseline = (
        _read_baselines([settings.baseline]).get(settings.baseline) if settings.baseline else None
    )
    return BufferProject(settings, settings.load_inventory(), baseline)


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
    ``force-exclude`` is set, and so does its baseline: an editor shows what the command line
    would report on the saved file when it lints the project."""
    project = project or buffer_project(Path(path).absolute().parent)
    settings = replace(project.settings, force_exclude=True)
    shown = str(path)
    with analyse([shown], settings, project.inventory, (shown, data), Execution()) as run:
        found = runner.lint(run, selected_rules(settings), keep=True).diagnostics
        analysed = run.repository.files[0] if run.reported() else None
        linted = {file.source.display: file.source.real for file in run.reported()}
    if project.baseline is not None:
        found = _filtered(project.baseline, settings.root, found, linted).reported
    return BufferResult(tuple(found), analysed)
