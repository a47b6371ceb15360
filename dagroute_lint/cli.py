"""The ``dagroute-lint`` command line: lint by default; routes, trace, rules, explain, inventory.

Exit codes follow ruff: 0 nothing reported, 1 diagnostics reported, 2 usage, configuration,
inventory or internal error. Diagnostics go to stdout, everything else to stderr.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from dagroute_lint import __version__, api
from dagroute_lint.config import Settings, load_settings
from dagroute_lint.deployment.init import DEFAULT_RUNTIME
from dagroute_lint.deployment.inventory import load_inventory
from dagroute_lint.deployment.parse_environment import table_listing
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.errors import ConfigError
from dagroute_lint.formatters import FORMAT_NAMES, ROUTE_FORMAT_NAMES, formatter, route_formatter
from dagroute_lint.formatters.escape import printable
from dagroute_lint.formatters.statistics import STATISTICS_FORMATS, format_statistics
from dagroute_lint.formatters.summary import causes_line, count, summary_line, wants_colour
from dagroute_lint.formatters.text import format_text
from dagroute_lint.pipeline.cache import DEFAULT_CACHE_DIR
from dagroute_lint.pipeline.collector import for_one_run
from dagroute_lint.pipeline.progress import ProgressLine, progress_line
from dagroute_lint.pipeline.targets import STDIN, Targets
from dagroute_lint.records import replace
from dagroute_lint.rules.registry import all_rules
from dagroute_lint.sources.discovery import LeftOut, cwd_relative
from dagroute_lint.sources.files import write_atomically

# Modules only some commands use are imported by those commands: a lint of one file (what
# pre-commit and editors run) loads neither the inventory builder nor the acceptance reports.
if TYPE_CHECKING:
    from dagroute_lint.deployment.init.build import WorkerSpec
    from dagroute_lint.deployment.init.built_image import Dockerfiles
    from dagroute_lint.deployment.init.facts import DeploymentFacts
    from dagroute_lint.diagnostics import Diagnostic
    from dagroute_lint.fix import FixOutcome
    from dagroute_lint.pipeline.baseline import Stale
    from dagroute_lint.resolve.repository import AnalysedFile

EXIT_CLEAN, EXIT_REPORTED, EXIT_ERROR = 0, 1, 2
ADD_NOQA = "--add-noqa"


class _LintByDefault(click.Group):
    """``dagroute-lint PATH...`` means ``dagroute-lint check PATH...``, as with flake8.

    Flags before a command name belong to it (``-q routes`` is ``routes -q``), and the top-level
    help lists the options of ``check`` too, since they are what a bare command line takes.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] in ("--help", "-h", "--version"):
            return super().parse_args(ctx, args)
        args = _reason_after_equals(args)
        leading = 0
        while leading < len(args) and args[leading].startswith("-") and args[leading] != "-":
            leading += 1
        if leading < len(args) and args[leading] in self.commands:
            args = [args[leading], *args[:leading], *args[leading + 1 :]]
        elif not args or args[0] not in self.commands:
            args = ["check", *args]
        return super().parse_args(ctx, args)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_options(ctx, formatter)
        command = self.commands["check"]
        rows = [
            row
            for param in command.get_params(ctx)
            if (row := param.get_help_record(ctx)) is not None and param.name != "help"
        ]
        with formatter.section("Options of check (the default command)"):
            formatter.write_dl(rows)


class _ReasonOption(click.Option):
    """``--add-noqa[=REASON]``: the help shows the reason joined with ``=``, as it is given."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        found = super().get_help_record(ctx)
        return None if found is None else (found[0].replace(" [=", "[="), found[1])


def _reason_after_equals(args: list[str]) -> list[str]:
    """``--add-noqa`` takes a reason only as ``--add-noqa=REASON`` (as ruff's does): a bare
    ``--add-noqa dags/`` must not read ``dags/`` as the reason."""
    end = args.index("--") if "--" in args else len(args)
    return [f"{ADD_NOQA}=" if arg == ADD_NOQA else arg for arg in args[:end]] + args[end:]


def _split_codes(values: Sequence[str]) -> list[str]:
    return [code.strip() for value in values for code in value.split(",") if code.strip()]


def _fail(message: str) -> None:
    click.echo(f"dagroute-lint: {printable(message)}", err=True)
    sys.exit(EXIT_ERROR)


def _say_no_inventory(settings: Settings) -> None:
    """A project without an inventory: say which rules run, once, on stderr."""
    selected = settings.selected_codes()
    running = ", ".join(
        rule.code for rule in all_rules() if not rule.needs_inventory and rule.code in selected
    )
    click.echo(
        "dagroute-lint: no inventory (no --inventory, no `inventory` setting, no "
        f"dagroute.toml in {cwd_relative(settings.root)}): only {running} run; queue, "
        "executor and provider checks need to know what the deployment provides",
        err=True,
    )


def _guarded(function: Any) -> Any:
    """Turn our errors into one-line messages with exit 2, and crashes into a short report."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        verbose = bool(kwargs.get("verbose"))
        try:
            return function(*args, **kwargs)
        except ConfigError as error:
            _fail(str(error))
        except (KeyboardInterrupt, BrokenPipeError):
            sys.exit(EXIT_ERROR)
        except Exception as error:  # the last line of defence: never a bare traceback
            if verbose:
                import traceback

                traceback.print_exc()
            _fail(
                f"internal error: {type(error).__name__}: {error} "
                "(run with --verbose for the traceback)"
            )

    return wrapper


# Where ``check`` leaves the files its run read, for ``--watch`` (``click.Context.meta``).
_READ = "dagroute_lint.read"


class _Interrupts:
    """A signal handler for ``--watch``: it notes that Ctrl-C (or SIGTERM) came and interrupts
    what runs as Ctrl-C does, so that the watch can end cleanly whatever was running."""

    def __init__(self) -> None:
        self.seen = False

    def __call__(self, signal_number: int, frame: object) -> None:
        self.seen = True
        raise KeyboardInterrupt


def _watching(function: Any) -> Any:
    """``--watch``: run ``check``, then again whenever a file its run read changes (through
    the caches, so only what changed is linted again), until Ctrl-C, which exits 0."""

    @functools.wraps(function)
    def wrapper(*args: Any, watch: bool, **kwargs: Any) -> Any:
        if not watch:
            return function(*args, **kwargs)
        if kwargs["show_settings"] or kwargs["stdin_filename"] or STDIN in kwargs["paths"]:
            _fail("--watch re-lints files: it cannot read stdin or go with --show-settings")
        import signal
        import time

        from dagroute_lint.sources import watch as polling

        interrupts = _Interrupts()
        signal.signal(signal.SIGINT, interrupts)
        signal.signal(signal.SIGTERM, interrupts)
        context = click.get_current_context()
        given = {Path(path).absolute() for path in kwargs["paths"]}
        folders = {path if path.is_dir() else path.parent for path in given} or {Path.cwd()}
        settings = polling.settings_candidates(folders)
        quiet = kwargs["quiet"]
        try:
            while True:
                started = time.time_ns()
                try:
                    function(*args, **kwargs)
                except SystemExit:
                    if interrupts.seen:  # Ctrl-C while linting (_guarded made it an exit)
                        raise KeyboardInterrupt from None
                read = context.meta.pop(_READ, frozenset())
                now = polling.stamps(polling.watched({*given, *read}) | settings)
                if not quiet:
                    there = sum(stamp is not None for stamp in now.values())
                    click.echo(
                        f"dagroute-lint: watching {there} files and folders for changes "
                        "(Ctrl-C to stop)",
                        err=True,
                    )
                changed = polling.modified_during(now, started) or polling.wait_for_change(now)
                if sys.stdout.isatty():
                    click.clear()
                if not quiet:
                    shown = ", ".join(printable(str(cwd_relative(path))) for path in changed[:3])
                    more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
                    click.echo(f"dagroute-lint: changed: {shown}{more}; linting again", err=True)
        except KeyboardInterrupt:
            sys.exit(EXIT_CLEAN)

    return wrapper


@click.group(cls=_LintByDefault, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="dagroute-lint")
def main() -> None:
    """Check that every Airflow task can reach a worker that can run it.

    Run `dagroute-lint PATH...` to lint DAG files against the deployment inventory.
    """


def console() -> NoReturn:
    """The ``dagroute-lint`` command and ``python -m dagroute_lint``: the run, then the end of
    the process without the interpreter's teardown.

    Teardown frees every object still alive, one at a time: after a cold run over 5,000 files
    it took 2.6 s of CPU, a tenth of the run, after the output was written. By the time ``main``
    returns, everything a run writes is closed (the caches' shards and output files are written
    atomically, the ``--jobs`` pool is shut down with its extractor), so only the standard
    streams are left to flush. The collector is told so too (``collector.for_one_run``).
    """
    for_one_run()
    try:
        main()  # click's standalone mode ends with SystemExit
        code = 0
    except SystemExit as exit:
        if exit.code is None or isinstance(exit.code, int):
            code = exit.code or 0
        else:
            print(exit.code, file=sys.stderr)
            code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # a closed pipe: what was written is all the reader wanted
        code = code or EXIT_ERROR
    os._exit(code)


_inventory_option = click.option(
    "--inventory",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Deployment inventory (default: dagroute.toml in the project root).",
)
_config_option = click.option(
    "--config",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    help="pyproject.toml to read [tool.dagroute-lint] from (default: the nearest one).",
)
_verbose_option = click.option(
    "--verbose",
    "-v",
    is_flag=True,
    help="Name the settings and inventory each project uses; show tracebacks of internal errors.",
)


def _execution_options(function: Any) -> Any:
    """``--jobs``, ``--no-cache`` and ``--cache-dir``: how to run, never what is reported."""
    function = click.option(
        "--cache-dir",
        type=click.Path(path_type=Path, file_okay=False),
        help=f"Folder for per-file summaries (default: {DEFAULT_CACHE_DIR}/ in the project root).",
    )(function)
    function = click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")(
        function
    )
    return click.option(
        "--jobs",
        "-j",
        type=click.IntRange(min=1),
        help="Worker processes extracting files (default: one per core).",
    )(function)


def _file_options(function: Any) -> Any:
    """Which files a command reads, the same for every command that reads DAG files
    (docs/configuration.md)."""
    for option in reversed(
        (
            _inventory_option,
            _config_option,
            click.option(
                "--extend-exclude",
                multiple=True,
                help="Globs of files and folders to leave out, besides.",
            ),
            click.option(
                "--force-exclude/--no-force-exclude",
                default=None,
                help="Apply the excludes to files named on the command line too (for pre-commit).",
            ),
            click.option(
                "--respect-gitignore/--no-respect-gitignore",
                default=None,
                help="Leave out files git ignores (default: on).",
            ),
        )
    ):
        function = option(function)
    return function


def _options(
    inventory: Path | None = None,
    config: Path | None = None,
    extend_exclude: Sequence[str] = (),
    force_exclude: bool | None = None,
    respect_gitignore: bool | None = None,
    jobs: int | None = None,
    no_cache: bool = False,
    cache_dir: Path | None = None,
    select: Sequence[str] = (),
    extend_select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    extend_ignore: Sequence[str] = (),
    baseline: Path | None = None,
    no_baseline: bool = False,
) -> api.Options:
    """The API's options from the command line's flags."""
    return api.Options(
        config=config,
        inventory=inventory,
        select=tuple(_split_codes(select)),
        extend_select=tuple(_split_codes(extend_select)),
        ignore=tuple(_split_codes(ignore)),
        extend_ignore=tuple(_split_codes(extend_ignore)),
        extend_exclude=tuple(extend_exclude),
        force_exclude=force_exclude,
        respect_gitignore=respect_gitignore,
        jobs=jobs,
        cache=not no_cache,
        cache_dir=cache_dir,
        baseline=baseline,
        no_baseline=no_baseline,
    )


@main.command()
@click.argument("paths", nargs=-1)
@_file_options
# -- rule selection, as ruff's (docs/configuration.md) --
@click.option(
    "--select", multiple=True, help="Rules to run, replacing every selection (ALL, DRL1, DRL101)."
)
@click.option("--extend-select", multiple=True, help="Rules to run besides those selected.")
@click.option("--ignore", multiple=True, help="Rules to skip, besides the settings' `ignore`.")
@click.option("--extend-ignore", multiple=True, help="Rules to skip (the same as --ignore).")
@click.option(
    "--show-settings",
    is_flag=True,
    help="Print the settings and inventory that apply to the first path, and where each came "
    "from; lint nothing.",
)
# -- output --
@click.option(
    "--output-format",
    "--format",
    "output_format",
    type=click.Choice(FORMAT_NAMES),
    default="text",
    show_default=True,
    help="How diagnostics are printed; junit is JUnit XML for CI test reports (--format is the "
    "same flag).",
)
@click.option(
    "--output-file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write the diagnostics here (missing folders are created).",
)
@click.option(
    "--stdin-filename",
    help="Read the file from stdin and name it so (with `-` or no paths).",
)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when diagnostics are reported.")
@click.option(
    "--statistics", is_flag=True, help="Count diagnostics per rule instead of listing them."
)
@click.option("--quiet", "-q", is_flag=True, help="Print diagnostics only.")
@click.option("--fix", is_flag=True, help="Apply the fixes of selected rules to the files.")
@click.option(
    "--diff", is_flag=True, help="Print the fixes as a unified diff instead of writing them."
)
@click.option(
    "--show-fixes",
    is_flag=True,
    help="List the fixes --fix would apply (with --fix: applied), per file and code, and mark "
    "fixable problems [*]; writes nothing without --fix.",
)
@click.option(
    "--watch",
    is_flag=True,
    help="Lint again whenever a file the run read changes, until Ctrl-C.",
)
# -- adoption (docs/command-line.md#adopting-it-on-an-existing-repository) --
@click.option(
    "--baseline",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Report only what this baseline file does not list, in every project (default: the "
    "`baseline` setting).",
)
@click.option("--no-baseline", is_flag=True, help="Report what any baseline lists, too.")
@click.option(
    "--write-baseline",
    type=click.Path(path_type=Path, dir_okay=False),
    metavar="FILE",
    help="Record every problem found now in FILE (a baseline), print none, exit 0.",
)
@click.option(
    ADD_NOQA,
    "add_noqa",
    cls=_ReasonOption,
    is_flag=False,
    flag_value="",
    default=None,
    metavar="[=REASON]",
    help="Write `# noqa: CODE [REASON]` on the lines of the problems reported now, exit 0.",
)
@_execution_options
@_verbose_option
@_watching
@_guarded
def check(
    paths: tuple[str, ...],
    show_settings: bool,
    output_format: str,
    output_file: Path | None,
    stdin_filename: str | None,
    exit_zero: bool,
    statistics: bool,
    quiet: bool,
    fix: bool,
    diff: bool,
    show_fixes: bool,
    write_baseline: Path | None,
    add_noqa: str | None,
    verbose: bool,
    **flags: Any,
) -> None:
    """Lint DAG files and folders (the default command)."""
    _check_writers(fix, diff, write_baseline, add_noqa, flags.get("baseline"))
    options = _options(**flags)
    if write_baseline is not None:  # it records everything: no baseline may hide a problem
        options = replace(options, no_baseline=True)
    if statistics and output_format not in STATISTICS_FORMATS:
        raise ConfigError(f"--statistics prints text or json, not {output_format}")
    if stdin_filename is not None and paths != (STDIN,):
        if paths:
            click.echo(
                "dagroute-lint: ignoring " + ", ".join(paths) + " in favour of stdin "
                "(--stdin-filename)",
                err=True,
            )
        paths = (STDIN,)
    if show_settings:
        click.echo(api.describe_settings(paths, options, stdin_filename), nl=False)
        sys.exit(EXIT_CLEAN)
    projects = api.plan(paths, options, stdin_filename)
    stdin: bytes | None = None
    if projects[0].targets.paths == (STDIN,):
        if fix or diff or write_baseline is not None or add_noqa is not None:
            raise ConfigError(
                "--fix, --diff, --add-noqa and --write-baseline read files: they cannot read stdin"
            )
        if show_fixes:
            raise ConfigError("--show-fixes reads the files it would fix: it cannot read stdin")
        stdin = sys.stdin.buffer.read()
    for project in projects:
        if not quiet:
            _explain_targets(project.targets)
        if verbose:
            _say_settings(project.settings)
        if project.inventory is None and not quiet:
            _say_no_inventory(project.settings)
    progress = progress_line(sys.stderr, output_format == "text" and not quiet)
    if write_baseline is not None:
        _write_baseline(write_baseline, projects, options, fix, quiet, progress)
    result = api.lint(projects, options, stdin, progress)
    click.get_current_context().meta[_READ] = result.read  # what --watch polls
    if add_noqa is not None:
        _add_noqa(result.diagnostics, add_noqa, quiet)
    if fix or diff or show_fixes:
        # Imported here: it loads libcst, which a run answered from the cache never needs.
        from dagroute_lint.fix import fix_files
    if diff:
        _print_diff(fix_files(result.diagnostics, write=False), quiet, exit_zero)
    listing = None
    if fix:
        outcome = fix_files(result.diagnostics, write=True)
        _say_fixed(outcome, quiet or show_fixes)  # the listing counts them, per file and code
        if show_fixes:
            listing = _fix_listing(result.diagnostics, outcome, applied=True)
        if outcome.files:  # fixes move lines: lint again for what remains, where it now is
            result = api.lint(projects, options, stdin, progress)
    elif show_fixes:
        would = fix_files(result.diagnostics, write=False)
        _say_unfixable(would)
        listing = _fix_listing(result.diagnostics, would, applied=False)
    diagnostics = result.diagnostics
    if statistics:
        _emit(format_statistics(diagnostics, output_format), output_file)
    elif output_format == "text":
        colour = output_file is None and wants_colour(sys.stdout, os.environ)
        _emit(format_text(diagnostics, colour, show_fixes), output_file, colour)
    else:
        _emit(formatter(output_format)(diagnostics), output_file)
    if listing is not None:
        click.echo(listing, err=True, nl=False)
    if not quiet and result.dependents:
        _say_dependents(result.dependents)
    if not quiet and stdin is None and result.files == 0:
        _say_nothing_found(result.left_out)
    if not quiet and result.stale:
        _say_stale(result.stale, verbose)
    if not quiet and output_format == "text":
        colour = wants_colour(sys.stderr, os.environ)
        click.echo(result.coverage.line, err=True)
        click.echo(summary_line(diagnostics, colour, result.accepted), err=True, color=colour)
        causes = causes_line(diagnostics)
        if causes is not None:
            click.echo(causes, err=True)
    sys.exit(EXIT_REPORTED if diagnostics and not exit_zero else EXIT_CLEAN)


def _say_nothing_found(left_out: LeftOut) -> None:
    """No file to lint under the paths given: say so, and what was left out (ruff: "No Python
    files found under the given paths")."""
    reasons = left_out.reasons()
    settings = " (see --show-settings)" if left_out.excluded or left_out.excluded_folders else ""
    why = f": {'; '.join(reasons)}{settings}" if reasons else ""
    found = "DAG files" if left_out.not_dag_files else "Python files"
    click.echo(f"dagroute-lint: no {found} found under the given paths{why}", err=True)


def _check_writers(
    fix: bool, diff: bool, write_baseline: Path | None, add_noqa: str | None, baseline: Any
) -> None:
    """Refuse the flags that write files in combinations that contradict each other."""
    if write_baseline is not None:
        if baseline is not None:
            raise ConfigError("--write-baseline records every problem: --baseline would hide some")
        if diff or add_noqa is not None:
            other = "--diff" if diff else ADD_NOQA
            raise ConfigError(f"--write-baseline and {other} cannot be used together")
    if add_noqa is not None:
        if fix or diff:
            other = "--fix" if fix else "--diff"
            raise ConfigError(f"{ADD_NOQA} and {other} cannot be used together")
        from dagroute_lint.noqa import reason_problem

        problem = reason_problem(add_noqa.strip())
        if problem is not None:
            raise ConfigError(f"{ADD_NOQA}={add_noqa!r}: the reason cannot be written: {problem}")


def _write_baseline(
    path: Path,
    projects: list[api.Project],
    options: api.Options,
    fix: bool,
    quiet: bool,
    progress: ProgressLine | None,
) -> NoReturn:
    """``--write-baseline``: fix first with ``--fix`` (a baseline of what a fix removes is no
    use), then record every problem left, and exit 0."""
    if fix:
        from dagroute_lint.fix import fix_files

        _say_fixed(fix_files(api.lint(projects, options, None, progress).diagnostics, True), quiet)
    written = api.write_baseline(path, projects, options, progress)
    if not quiet:
        kept = (
            f"; kept {count(written.kept, 'problem')} of files not linted" if written.kept else ""
        )
        click.echo(
            f"dagroute-lint: wrote {printable(str(path))}: {count(written.recorded, 'problem')} "
            f"in {count(written.files, 'file')}{kept}",
            err=True,
        )
    sys.exit(EXIT_CLEAN)


def _add_noqa(diagnostics: Sequence[Diagnostic], reason: str, quiet: bool) -> NoReturn:
    """``--add-noqa``: comment every line reported on, say what was written, and exit 0."""
    from dagroute_lint.add_noqa import add_noqa

    outcome = add_noqa(diagnostics, reason.strip())
    for skipped in outcome.skipped:
        click.echo(
            f"dagroute-lint: {printable(skipped.path)}:{skipped.line}: no `# noqa` written for "
            f"{', '.join(skipped.codes)}: {skipped.why}",
            err=True,
        )
    for path in outcome.changed_on_disk:
        click.echo(f"dagroute-lint: {printable(path)} changed on disk; not written", err=True)
    if not quiet:
        click.echo(
            f"Added `# noqa` for {count(outcome.silenced, 'problem')} in "
            f"{count(len(outcome.files), 'file')}.",
            err=True,
        )
    sys.exit(EXIT_CLEAN)


def _say_stale(stale: Sequence[Stale], verbose: bool) -> None:
    """The baseline entries that no longer occur: a count per baseline file, and with
    ``--verbose`` one line each, so the file can be made to shrink."""
    by_file: dict[Path, list[Stale]] = {}
    for entry in stale:
        by_file.setdefault(entry.baseline, []).append(entry)
    for baseline, entries in by_file.items():
        shown = printable(str(cwd_relative(baseline)))
        if verbose:
            for entry in entries:
                click.echo(
                    f"dagroute-lint: {shown}: no longer occurs: {_entry_text(entry)}", err=True
                )
        gone = sum(entry.count for entry in entries)
        listed = "" if verbose else " (--verbose names each)"
        click.echo(
            f"dagroute-lint: {shown} lists {count(gone, 'problem')} that no longer "
            f"{'occurs' if gone == 1 else 'occur'}{listed}: rewrite it with "
            f"`--write-baseline {shown}`",
            err=True,
        )


def _entry_text(entry: Stale) -> str:
    """``dags/report.py: DRL101 dag 'report' task 'build' item 'reports' (2 of them)``."""
    key = entry.fingerprint
    named = zip(("dag", "task", "item"), (key.dag_id, key.task_id, key.item))
    facts = "".join(f" {name} {value!r}" for name, value in named if value is not None)
    many = f" ({entry.count} of them)" if entry.count > 1 else ""
    return printable(f"{cwd_relative(entry.file)}: {key.code}{facts}{many}")


def _repository_plan(command: str, paths: Sequence[str], options: api.Options) -> list[api.Project]:
    """The projects of a command that reads a repository (every task of it), not a buffer."""
    if STDIN in paths:
        raise ConfigError(f"{command} reads files, not stdin")
    return api.plan(paths, options)


def _say_settings(settings: Settings) -> None:
    """``--verbose``: which settings and inventory a project's files are linted under."""
    where = settings.config_file or "none (defaults)"
    inventory = settings.default_inventory()
    shown = f"{inventory} ({settings.inventory_origin()})" if inventory else "none"
    click.echo(
        f"dagroute-lint: project {settings.root}: settings {where}; inventory {shown}", err=True
    )


def _print_diff(outcome: FixOutcome, quiet: bool, exit_zero: bool) -> None:
    """``--diff``: the fixes as a diff on stdout; exit 1 if there are any, as ruff does (0 with
    ``--exit-zero``)."""
    for fixed in outcome.files:
        click.echo(fixed.diff(), nl=False)
    _say_unfixable(outcome)
    if not quiet:
        files = len(outcome.files)
        click.echo(
            f"Would fix {count(outcome.fixed, 'problem')} in {count(files, 'file')}.", err=True
        )
    sys.exit(EXIT_REPORTED if outcome.files and not exit_zero else EXIT_CLEAN)


def _say_fixed(outcome: FixOutcome, quiet: bool) -> None:
    _say_unfixable(outcome)
    if not quiet and outcome.files:
        files = len(outcome.files)
        click.echo(f"Fixed {count(outcome.fixed, 'problem')} in {count(files, 'file')}.", err=True)


def _fix_listing(diagnostics: Sequence[Diagnostic], outcome: FixOutcome, applied: bool) -> str:
    """``--show-fixes``: the fixes of the files ``outcome`` fixed (or would fix)."""
    from dagroute_lint.formatters.fixes import fix_listing

    return fix_listing(diagnostics, {file.path for file in outcome.files}, applied)


def _say_unfixable(outcome: FixOutcome) -> None:
    for path in outcome.changed_on_disk:
        click.echo(f"dagroute-lint: {path} changed on disk while fixing; not written", err=True)
    for path in outcome.stale:
        click.echo(f"dagroute-lint: {path} changed since it was linted; not fixed", err=True)


# How many of the dependents the note names; their diagnostics name every one that has a problem.
_DEPENDENTS_NAMED = 10


def _say_dependents(dependents: Sequence[str]) -> None:
    """Files reported although not given: they import one that was (pre-commit passes only the
    files a commit changed)."""
    named = [printable(name) for name in dependents[:_DEPENDENTS_NAMED]]
    if len(dependents) > _DEPENDENTS_NAMED:
        named.append(f"and {len(dependents) - _DEPENDENTS_NAMED} more")
    click.echo(
        f"dagroute-lint: also linted {count(len(dependents), 'file')} that import the files "
        f"given: {', '.join(named)}",
        err=True,
    )


def _explain_targets(targets: Targets) -> None:
    if targets.whole_repository_because is not None:
        click.echo(
            f"dagroute-lint: {targets.whole_repository_because} is the deployment inventory or "
            "the settings: linting every DAG (" + ", ".join(targets.paths) + ")",
            err=True,
        )
    for path in targets.passed_over:
        click.echo(
            f"dagroute-lint: passed over {path}: neither Python nor the inventory or settings "
            "in use",
            err=True,
        )


def _emit(text: str, output_file: Path | None, colour: bool = False) -> None:
    """``text`` on stdout, or written to ``output_file`` (its folders created, as ruff does).

    ``colour``: the text holds colour codes on purpose (click strips them from pipes otherwise).
    """
    if output_file is None:
        click.echo(text, nl=False, color=colour or None)
        return
    try:
        output_file.absolute().parent.mkdir(parents=True, exist_ok=True)
        write_atomically(output_file, text.encode("utf-8"))
    except OSError as error:
        raise ConfigError(f"cannot write {output_file}: {error.strerror or error}") from None


def _report_options(function: Any) -> Any:
    """``--output-file``, ``--quiet``, how to run and ``--verbose``: the same for the commands
    that report on a repository's tasks (``routes``, ``trace``)."""
    for option in reversed(
        (
            click.option(
                "--output-file",
                type=click.Path(path_type=Path, dir_okay=False),
                help="Write here (missing folders are created).",
            ),
            click.option("--quiet", "-q", is_flag=True, help="Say nothing on stderr but errors."),
            _execution_options,
            _verbose_option,
        )
    ):
        function = option(function)
    return function


def _say_unreadable(unreadable: Sequence[AnalysedFile]) -> None:
    """Each file that could not be read or parsed, and why: its tasks are missing."""
    for file in unreadable:
        problem = file.module.syntax_error
        assert problem is not None
        click.echo(
            f"dagroute-lint: {printable(file.module.path)}: {printable(problem.message)}", err=True
        )


@main.command()
@click.argument("paths", nargs=-1)
@_file_options
@click.option(
    "--output-format",
    "--format",
    "output_format",
    type=click.Choice(ROUTE_FORMAT_NAMES),
    default="table",
    show_default=True,
    help="table, json, csv, or the routing map: dot, mermaid, or svg and html (an interactive "
    "page), which Graphviz's dot lays out.",
)
@_report_options
@_guarded
def routes(
    paths: tuple[str, ...],
    output_format: str,
    output_file: Path | None,
    quiet: bool,
    verbose: bool,
    **flags: Any,
) -> None:
    """Print every task's resolved routing (queue, executor, pool, pool_slots), or draw it.

    Exits 1, naming them, when some files could not be read or parsed: their tasks are missing.
    """
    options = _options(**flags)
    projects = _repository_plan("routes", paths, options)
    if verbose:
        for project in projects:
            _say_settings(project.settings)
    found = api.routes(projects, options)
    repository = found.repository
    _emit(route_formatter(output_format)(repository), output_file)
    click.echo(repository.coverage.line, err=True)
    if not quiet and not repository.files:
        _say_nothing_found(found.left_out)
    unreadable = found.unreadable
    _say_unreadable(unreadable)
    if unreadable:
        if not quiet:
            click.echo(
                f"dagroute-lint: {count(len(unreadable), 'file')} could not be read or "
                "parsed: the routes above lack their tasks",
                err=True,
            )
        sys.exit(EXIT_REPORTED)


@main.command()
@click.argument("target")
@click.argument("paths", nargs=-1)
@_file_options
@click.option(
    "--output-format",
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text, or json.",
)
@_report_options
@_guarded
def trace(
    target: str,
    paths: tuple[str, ...],
    output_format: str,
    output_file: Path | None,
    quiet: bool,
    verbose: bool,
    **flags: Any,
) -> None:
    """Show where each routing value of a task comes from, and who will run it.

    TARGET is dag_id.task_id, or FILE:LINE (the tasks whose call starts on that line). Exits 2,
    naming the closest task ids, when it matches no task.
    """
    from dagroute_lint.formatters.trace import format_trace_json, format_trace_text

    options = _options(**flags)
    projects = _repository_plan("trace", paths, options)
    if verbose:
        for project in projects:
            _say_settings(project.settings)
    found = api.trace(projects, target, options)
    _say_unreadable(found.report.unreadable)
    if not found.traces:
        _fail(found.no_match)
    render = format_trace_json if output_format == "json" else format_trace_text
    _emit(render(found.traces), output_file)
    if not quiet and len(found.traces) > 1:
        click.echo(f"dagroute-lint: {target} names {len(found.traces)} tasks", err=True)


# --- the language server ---------------------------------------------------------------------


@main.command()
@_guarded
def server() -> None:
    """Run the language server over stdio, for editors (needs dagroute-lint[server])."""
    try:
        # Imported here: pygls is an optional extra, and no other command needs it.
        from dagroute_lint.server.app import serve
    except ModuleNotFoundError as error:
        if error.name is None or error.name.split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        raise ConfigError(
            "the language server needs pygls: pip install 'dagroute-lint[server]'"
        ) from None
    serve()


@main.command(name="rules")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text")
@_guarded
def list_rules(output_format: str) -> None:
    """List every rule with its code, name and the boundary it guards."""
    from dagroute_lint.rules.listing import rule_listing

    click.echo(rule_listing(output_format), nl=False)


@main.command()
@click.argument("code")
@_guarded
def explain(code: str) -> None:
    """Print a rule's page: what it reports, why it matters, examples, how to fix."""
    from dagroute_lint.rules.listing import explain as explain_rule

    click.echo(explain_rule(code), nl=False)


@main.group(name="inventory")
def inventory_group() -> None:
    """Validate or build deployment inventories."""


@inventory_group.command(name="check")
@click.argument("path", type=click.Path(path_type=Path, dir_okay=False), required=False)
@click.option(
    "--against",
    multiple=True,
    metavar="PATH",
    help="Also lint these DAG files or folders (repeatable) and list, in one table, what they "
    "need that the inventory lacks; exit 1 if anything.",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Exit 1 while any `# FILL IN` fact is left (each is listed either way).",
)
@_config_option
@_execution_options
@_verbose_option
@_guarded
def inventory_check(
    path: Path | None,
    against: tuple[str, ...],
    strict: bool,
    config: Path | None,
    verbose: bool,
    **flags: Any,
) -> None:
    """Validate an inventory file (default: the one the project's settings name); exit 2 with
    the first mistake found. Every `# FILL IN` fact left is listed; --strict exits 1 then."""
    if path is None:
        settings = load_settings(config, Path.cwd())
        path = settings.default_inventory()
        if path is None:
            raise ConfigError(
                f"no inventory to check: no `inventory` setting and no dagroute.toml in "
                f"{settings.root}"
            )
        path = cwd_relative(path)
    deployment = load_inventory(path)
    click.echo(
        f"{path}: ok ({len(deployment.executors)} executors, {len(deployment.workers)} workers, "
        f"{len(deployment.runtimes)} runtimes)"
    )
    for table, names, complete in (
        ("environment", deployment.environment, deployment.environment_complete),
        ("variables", deployment.variables, deployment.variables_complete),
    ):
        if names is not None:
            click.echo(
                f"{path}:{deployment.line_of(table)}: {table_listing(table, names, complete)}"
            )
    from dagroute_lint.deployment.fill_in import open_facts

    left = open_facts(path)
    for line, text in left:
        click.echo(f"{path}:{line}: FILL IN {text}")
    if left:
        click.echo(f"{len(left)} fact{'s' if len(left) != 1 else ''} left to fill in", err=True)
    unfinished = strict and bool(left)
    if not against:
        if unfinished:
            sys.exit(EXIT_REPORTED)
        return
    from dagroute_lint.acceptance.coverage import checked, gaps
    from dagroute_lint.acceptance.render import needs_table

    options = _options(config=config, **flags)
    projects = _repository_plan("--against", against, options)
    report = api.report([replace(project, inventory=deployment) for project in projects], options)
    found = gaps(report.diagnostics)
    click.echo(needs_table(found, checked(report)), nl=False)
    sys.exit(EXIT_REPORTED if found or unfinished else EXIT_CLEAN)


@inventory_group.command(name="diff")
@click.argument("old", type=click.Path(path_type=Path, dir_okay=False))
@click.argument("new", type=click.Path(path_type=Path, dir_okay=False))
@click.argument("paths", nargs=-1)
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text")
@click.option("--output-file", type=click.Path(path_type=Path, dir_okay=False))
@_config_option
@_execution_options
@_verbose_option
@_guarded
def inventory_diff(
    old: Path,
    new: Path,
    paths: tuple[str, ...],
    output_format: str,
    output_file: Path | None,
    verbose: bool,
    **flags: Any,
) -> None:
    """What a deployment change does to the DAGs: coverage lost and gained.

    Lints PATHS (default: the `dags` folders of the settings) with OLD and with NEW; a problem
    only NEW has is coverage lost, and the exit code is then 1, so it can gate a deployment.
    """
    before, after = load_inventory(old), load_inventory(new)
    options = _options(**flags)
    projects = _repository_plan("inventory diff", paths, options)
    from dagroute_lint.acceptance.diff import coverage_diff
    from dagroute_lint.acceptance.render import diff_json, diff_text
    from dagroute_lint.deployment.diff import inventory_changes

    old_report = api.report([replace(project, inventory=before) for project in projects], options)
    new_report = api.report([replace(project, inventory=after) for project in projects], options)
    result = coverage_diff(old_report, new_report)
    changes = inventory_changes(before, after)
    render = diff_json if output_format == "json" else diff_text
    _emit(render(str(old), str(new), changes, result), output_file)
    sys.exit(EXIT_REPORTED if result.lost else EXIT_CLEAN)


def _worker_option(
    ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
) -> list[WorkerSpec]:
    from dagroute_lint.deployment.init.build import parse_worker

    try:
        return [parse_worker(value) for value in values]
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


def _runtime_file(
    ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
) -> list[tuple[str | None, Path]]:
    """``[RUNTIME=]FILE``: the runtime a file describes, or ``None`` for ``--runtime``'s."""
    found: list[tuple[str | None, Path]] = []
    for value in values:
        name, equals, path = value.partition("=")
        if equals and name and "/" not in name and path:
            found.append((name, Path(path)))
        else:
            found.append((None, Path(value)))
    return found


@inventory_group.command(name="init")
@click.option(
    "--python",
    "python",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Describe this interpreter's environment (e.g. a worker image's venv) instead of the "
    "current one; only installed metadata is read.",
)
@click.option(
    "--airflow-cfg",
    type=click.Path(path_type=Path, dir_okay=False),
    help="airflow.cfg to read executors, default queue and default_pool size from.",
)
@click.option(
    "--worker",
    "workers",
    multiple=True,
    callback=_worker_option,
    metavar="NAME=QUEUES",
    help="A Celery worker and its -q queues (repeatable), e.g. general=default,imports.",
)
@click.option(
    "--helm-values",
    "helm_values",
    multiple=True,
    type=click.Path(path_type=Path, dir_okay=False),
    help="Values of the apache-airflow Helm chart (repeatable, later files win, as helm -f).",
)
@click.option(
    "--helm-chart-version",
    metavar="VERSION",
    help="The chart release the values are deployed with, whose default image applies when "
    "the values set none.",
)
@click.option(
    "--compose",
    "compose",
    multiple=True,
    type=click.Path(path_type=Path, dir_okay=False),
    help="A docker-compose file running Airflow, as the quick start's (repeatable: merged as "
    "docker compose -f merges them; .env beside the first is read).",
)
@click.option(
    "--profile",
    "profiles",
    multiple=True,
    metavar="NAME",
    help="A compose profile to enable (repeatable), as docker compose --profile; services of "
    "other profiles are left out (COMPOSE_PROFILES counts too).",
)
@click.option(
    "--dockerfile",
    "dockerfiles",
    multiple=True,
    metavar="[IMAGE=]PATH",
    help="The Dockerfile that builds an image compose or Helm only names (repeatable): "
    "IMAGE=PATH for that image, PATH for every image not official apache/airflow; without "
    "--compose or --helm-values, the runtime itself. Its folder is the build context.",
)
@click.option(
    "--requirements",
    "requirements",
    multiple=True,
    callback=_runtime_file,
    metavar="[RUNTIME=]FILE",
    help="Requirements, constraints or pip freeze output of a runtime (repeatable).",
)
@click.option(
    "--contract",
    "contracts",
    multiple=True,
    callback=_runtime_file,
    metavar="[RUNTIME=]FILE",
    help="A runtime contract record (JSON) of a runtime (repeatable).",
)
@click.option(
    "--env-file",
    "env_files",
    multiple=True,
    type=click.Path(path_type=Path, dir_okay=False),
    help="A .env file the DAG processor's environment is loaded from (repeatable, later files "
    "win), as the Astro CLI loads a project's .env: into [environment], secrets left out.",
)
@click.option(
    "--variables",
    "variables_export",
    type=click.Path(path_type=Path, dir_okay=False),
    help="The JSON `airflow variables export` writes: into [variables], secrets left out.",
)
@click.option(
    "--celery-broker",
    metavar="URL",
    help="Ask the Celery workers on this broker which queues they consume (read-only).",
)
@click.option(
    "--celery-timeout",
    type=click.FloatRange(min=0.1, max=60),
    default=3.0,
    show_default=True,
    help="Seconds to wait for the workers' answers.",
)
@click.option(
    "--runtime", default=DEFAULT_RUNTIME, show_default=True, help="Name of the runtime written."
)
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), help="Write here.")
@click.option("--force", is_flag=True, help="Overwrite --output if it exists.")
@_verbose_option
@_guarded
def inventory_init(
    python: Path | None,
    airflow_cfg: Path | None,
    workers: list[WorkerSpec],
    helm_values: tuple[Path, ...],
    helm_chart_version: str | None,
    compose: tuple[Path, ...],
    profiles: tuple[str, ...],
    dockerfiles: tuple[str, ...],
    requirements: list[tuple[str | None, Path]],
    contracts: list[tuple[str | None, Path]],
    env_files: tuple[Path, ...],
    variables_export: Path | None,
    celery_broker: str | None,
    celery_timeout: float,
    runtime: str,
    output: Path | None,
    force: bool,
    verbose: bool,
) -> None:
    """Write a starting inventory from what the deployment says about itself.

    Sources combine: an installed environment (this one, or --python), airflow.cfg,
    --worker, Helm values, compose files (with the builds, and the start scripts of the project
    they run), the Dockerfile of a pushed image (--dockerfile), requirements files, runtime
    contracts, the live Celery workers, .env files (--env-file) and a Variables export
    (--variables). AIRFLOW__SECTION__KEY variables override airflow.cfg, as in Airflow. The
    current environment is read only when no other source describes a runtime. A runtime on an
    official apache/airflow image holds that image's providers and packages. Each fact no source
    establishes is a `# FILL IN` comment, and a line on stderr.
    """
    if output is not None and output.exists() and not force:
        raise ConfigError(f"{output}: already exists (use --force to overwrite it)")
    if output is not None and not output.absolute().parent.is_dir():
        raise ConfigError(f"{output}: no such directory: {output.absolute().parent}")
    from dagroute_lint.deployment.init.airflow_cfg import read_airflow_config
    from dagroute_lint.deployment.init.build import build_inventory
    from dagroute_lint.deployment.init.built_image import Dockerfiles, parse_option
    from dagroute_lint.deployment.init.environment import (
        current_environment,
        interpreter_environment,
    )

    built = Dockerfiles([parse_option(text) for text in dockerfiles])
    sources = _deployment_sources(
        helm_values,
        helm_chart_version,
        compose,
        profiles,
        built,
        airflow_cfg,
        requirements,
        contracts,
        celery_broker,
        celery_timeout,
        runtime,
    )
    if env_files or variables_export is not None:
        from dagroute_lint.deployment.init.parse_values import env_file_facts, variables_facts

        if env_files:
            sources.append(env_file_facts(env_files))
        if variables_export is not None:
            sources.append(variables_facts(variables_export))
    environment = None
    label = ""
    if python is not None:
        environment = interpreter_environment(python)
        label = f"the Python environment of {python}"
    elif not (helm_values or compose or requirements or contracts or dockerfiles):
        environment = current_environment()
        label = f"the Python environment of {environment.executable} (this interpreter)"
    config = read_airflow_config(airflow_cfg, os.environ)
    hint = None if dockerfiles else _dockerfile_hint([*helm_values, *compose])
    generated = build_inventory(environment, label, config, workers, runtime, sources, hint)
    _emit(generated.text, output)
    for fact in generated.open_facts:
        click.echo(f"dagroute-lint: FILL IN {fact}", err=True)
    for note in generated.settings:
        click.echo(f"dagroute-lint: NOTE {note}", err=True)
    if output is None:
        return
    deployment = generated.inventory
    providers = sum(len(body.providers or ()) for body in deployment.runtimes.values())
    packages = sum(len(body.packages or ()) for body in deployment.runtimes.values())
    click.echo(
        f"{output}: written ({providers} providers, {packages} packages, "
        f"{len(deployment.workers)} workers, {len(deployment.runtimes)} runtimes)",
        err=True,
    )


def _dockerfile_hint(files: Sequence[Path]) -> str | None:
    """Where an Airflow version no source gave likely comes from: the repository's Dockerfiles
    built on an official image (the working folder and the deployment files' folders)."""
    from dagroute_lint.deployment.init.built_image import likely_sources

    found = likely_sources([Path.cwd(), *(path.parent for path in files)])
    if not found:
        return None
    here = Path.cwd().resolve()
    shown = [
        (path.relative_to(here) if path.is_relative_to(here) else path, base)
        for path, base in found
    ]
    named = ", ".join(f"{path} (FROM {base})" for path, base in shown[:3])
    first = shown[0][0]
    return (
        f"the repository's {named} likely builds the image: pass --dockerfile {first} "
        f"(or --dockerfile IMAGE={first}) to read the version and what it installs"
    )


def _deployment_sources(
    helm_values: Sequence[Path],
    helm_chart_version: str | None,
    compose: Sequence[Path],
    profiles: Sequence[str],
    dockerfiles: Dockerfiles,
    airflow_cfg: Path | None,
    requirements: Sequence[tuple[str | None, Path]],
    contracts: Sequence[tuple[str | None, Path]],
    celery_broker: str | None,
    celery_timeout: float,
    runtime: str,
) -> list[DeploymentFacts]:
    """What each ``inventory init`` source says, in the order the options are listed."""
    from dagroute_lint.deployment.init.built_image import (
        OPTION,
        dockerfile_facts,
        read_option_dockerfile,
    )
    from dagroute_lint.deployment.init.celery_probe import celery_facts
    from dagroute_lint.deployment.init.compose import compose_facts
    from dagroute_lint.deployment.init.contract import contract_facts
    from dagroute_lint.deployment.init.helm import helm_facts
    from dagroute_lint.deployment.init.requirements_file import requirements_facts

    found: list[DeploymentFacts] = []
    if helm_values:
        found.append(helm_facts(helm_values, runtime, helm_chart_version, dockerfiles))
    if compose:
        found.append(
            compose_facts(
                compose, runtime, os.environ, profiles, dockerfiles, airflow_cfg is not None
            )
        )
    if helm_values or compose:
        dockerfiles.check_used()
        for path in dockerfiles.unused_bare():
            raise ConfigError(
                f"{OPTION} {path}: every image the sources run is an official apache/airflow "
                "one or has a build of its own, so no image is built by it"
            )
    else:
        for option in dockerfiles.options:
            if option.image is not None:
                raise ConfigError(
                    f"{OPTION} {option.image}={option.path}: names an image, but no --compose "
                    f"or --helm-values runs one; pass {OPTION} {option.path} for the runtime"
                )
            dockerfile = read_option_dockerfile(option.path)
            found.append(dockerfile_facts(dockerfile, runtime, None))
    found.extend(requirements_facts(path, name or runtime) for name, path in requirements)
    found.extend(contract_facts(path, name or runtime) for name, path in contracts)
    if celery_broker is not None:
        found.append(celery_facts(celery_broker, celery_timeout))
    return found
