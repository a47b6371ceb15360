"""Settings from ``[tool.dagroute-lint]``, found per project as ruff finds its own; flags on top.

A project is the nearest folder, from a file up, holding a ``pyproject.toml`` with a
``[tool.dagroute-lint]`` table or a ``dagroute.toml`` inventory; its settings and its inventory
govern the files under it. ``--config`` names the settings file instead, for every file.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from dataclasses import field
from pathlib import Path
from typing import Any

from dagroute_lint.deployment.inventory import Inventory, load_inventory
from dagroute_lint.deployment.toml import toml
from dagroute_lint.errors import ConfigError
from dagroute_lint.records import record, replace
from dagroute_lint.rules.selection import RuleSelection, expand_all, resolve_selection
from dagroute_lint.sources.airflowignore import SYNTAXES
from dagroute_lint.sources.discovery import DEFAULT_EXCLUDES, absolute
from dagroute_lint.sources.files import DEFAULT_MAX_FILE_BYTES, MAX_FILE_BYTES
from dagroute_lint.sources.globs import ProjectGlob, project_glob
from dagroute_lint.wording import did_you_mean

SECTION = "dagroute-lint"
DEFAULT_INVENTORY = "dagroute.toml"
COMMAND_LINE = "the command line"


@record
class Setting:
    """One key of ``[tool.dagroute-lint]``: the TOML type it takes, its default, what it does,
    and the flags of ``check`` that set it too. ``SETTINGS`` is what the parser accepts and the
    reference ``docs/settings.md`` is written from (``scripts/settings_reference.py``).

    ``default`` is the value an absent key means, as TOML would write it; ``None`` when no value
    written in the file means the same, and then ``default_text`` says what the default is.
    """

    kind: str
    default: object
    description: str
    flags: tuple[str, ...] = ()
    default_text: str = ""


SETTINGS: dict[str, Setting] = {
    "extend": Setting(
        "string (a path)",
        None,
        "A shared settings file to inherit, relative to this file: a `pyproject.toml` with a "
        "`[tool.dagroute-lint]` table, or a TOML file holding the keys at its top level. Its "
        "paths are relative to its own folder; the keys written here win over it, and the "
        "`extend-*` lists add to its lists. It may extend another file in turn; files that "
        "extend each other in a cycle are an error naming them.",
        (),
        "nothing inherited",
    ),
    "inventory": Setting(
        "string (a path)",
        None,
        "The deployment inventory, relative to the project folder.",
        ("--inventory",),
        f"`{DEFAULT_INVENTORY}` in the project folder, when there is one",
    ),
    "baseline": Setting(
        "string (a path)",
        None,
        "A baseline file (`--write-baseline` writes one), relative to the project folder: the "
        "diagnostics it lists are not reported, and its entries that no longer occur are named "
        "on stderr. `--baseline FILE` replaces it for every project of a run, `--no-baseline` "
        "turns it off.",
        ("--baseline", "--no-baseline"),
        "none: every diagnostic is reported",
    ),
    "select": Setting(
        "list of rule selectors",
        [],
        "The rules to run: codes (`DRL101`), prefixes (`DRL1`) or `ALL`, replacing the default "
        "set. Empty or absent: every rule except the opt-in ones.",
        ("--select",),
    ),
    "ignore": Setting(
        "list of rule selectors",
        [],
        "Rules not to run. A more specific selector wins over a less specific one, and at equal "
        "specificity `ignore` wins over `select`.",
        ("--ignore",),
    ),
    "extend-select": Setting(
        "list of rule selectors",
        [],
        "Rules to run besides those `select` chooses; naming an opt-in rule turns it on.",
        ("--extend-select",),
    ),
    "extend-ignore": Setting(
        "list of rule selectors",
        [],
        "Rules not to run: the same list as `ignore`, as in ruff.",
        ("--extend-ignore",),
    ),
    "per-file-ignores": Setting(
        "table of glob = list of rule selectors",
        {},
        "Rules turned off in the files a glob matches. Globs follow ruff's (the `globset` "
        "crate): anchored at the project folder, `**/` matches any number of folders, `*` and "
        "`?` match `/` too, and a pattern without `/` also matches the file name anywhere.",
    ),
    "exclude": Setting(
        "list of globs",
        [],
        "Files and folders to leave out of folder walks: `fnmatch` globs matched against each "
        "name and each path. They add to the folders always left out, "
        + ", ".join(f"`{name}`" for name in DEFAULT_EXCLUDES)
        + "; ruff's `exclude` replaces its defaults instead.",
    ),
    "extend-exclude": Setting(
        "list of globs",
        [],
        "More globs to leave out, added to `exclude`; the flag adds to the file's list.",
        ("--extend-exclude",),
    ),
    "force-exclude": Setting(
        "boolean",
        False,
        "Apply the excludes and `.gitignore` to files named on the command line and to "
        "`--stdin-filename` too, not only to folder walks (the pre-commit hook passes the flag).",
        ("--force-exclude", "--no-force-exclude"),
    ),
    "respect-gitignore": Setting(
        "boolean",
        True,
        "Leave out the files git ignores (`.gitignore`, `.git/info/exclude`, the global "
        "excludes file), as git decides: a tracked file is kept.",
        ("--respect-gitignore", "--no-respect-gitignore"),
    ),
    "dags": Setting(
        "list of paths",
        [],
        "The DAG folders, relative to the project folder: what a run without paths lints, "
        "import roots (as Airflow puts them on `sys.path`), where `.airflowignore` files apply "
        "from, where the DAG files importing a changed module are looked for, and what a change "
        "to the inventory or the settings re-lints. Absent: a run without paths lints the "
        "working directory, and the rest covers the whole project.",
    ),
    "roots": Setting(
        "list of paths",
        [],
        "More import roots, relative to the project folder (`plugins`): where modules the DAG "
        "files import are found, besides the DAG folders and the project folder. None is "
        "assumed: a module the project holds in a folder on no root is reported (DRL206) with "
        "the folder to add here, `plugins/` included (Airflow puts its plugins folder on "
        "`sys.path`, but whether the project's `plugins/` is deployed as it is not known).",
    ),
    "dag-ignore-file-syntax": Setting(
        f"string, one of {', '.join(f'`{syntax}`' for syntax in SYNTAXES)}",
        None,
        "The syntax of `.airflowignore` files, Airflow's `[core] dag_ignore_file_syntax`.",
        (),
        "`glob` (Airflow 3's), or `regexp` when the inventory's `airflow_version` is 2.x",
    ),
    "max-file-size": Setting(
        f"integer (bytes, 1 to {MAX_FILE_BYTES:,})",
        DEFAULT_MAX_FILE_BYTES,
        "Larger files are not analysed: DRL001 reports each as skipped, saying so.",
        (),
        f"{DEFAULT_MAX_FILE_BYTES // (1024 * 1024)} MiB",
    ),
}


@record
class Settings:
    """Resolved settings; paths are absolute.

    ``select``, ``ignore``, ``extend_select`` and ``extend_ignore`` are the settings file's;
    ``command_line`` holds the flags, a second layer resolved after the file's (as ruff does).
    ``given`` names the settings the file or the flags set, with where, for ``--show-settings``
    (the file and key: the extended file's, for a setting inherited through ``extend``).
    """

    root: Path
    config_file: Path | None = None
    inventory: Path | None = None
    baseline: Path | None = None
    select: tuple[str, ...] = ()  # empty: every rule that is on by default
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    extend_ignore: tuple[str, ...] = ()
    command_line: RuleSelection = field(default_factory=RuleSelection)
    per_file_ignores: tuple[tuple[ProjectGlob, frozenset[str]], ...] = ()
    exclude: tuple[str, ...] = ()
    extend_exclude: tuple[str, ...] = ()
    force_exclude: bool = False
    respect_gitignore: bool = True
    dags: tuple[Path, ...] = ()
    roots: tuple[Path, ...] = ()
    dag_ignore_file_syntax: str | None = None
    # Larger files are not analysed: DRL001 says so (bytes; sources/files.py).
    max_file_size: int = DEFAULT_MAX_FILE_BYTES
    given: tuple[tuple[str, str], ...] = ()
    skip_folders: tuple[Path, ...] = ()  # projects of their own inside this one's folders
    extends: tuple[Path, ...] = ()  # the files ``extend`` inherits from, nearest first

    def with_overrides(
        self,
        inventory: Path | None = None,
        select: Sequence[str] | None = None,
        ignore: Sequence[str] | None = None,
        extend_select: Sequence[str] | None = None,
        extend_ignore: Sequence[str] | None = None,
        extend_exclude: Sequence[str] | None = None,
        force_exclude: bool | None = None,
        respect_gitignore: bool | None = None,
        baseline: Path | None = None,
        no_baseline: bool = False,
    ) -> Settings:
        """Command-line flags over the file: values replace, selectors form a layer of their own,
        ``--extend-exclude`` adds to the file's; ``no_baseline`` drops the baseline."""
        layer = RuleSelection(
            select=tuple(select or ()),
            extend_select=tuple(extend_select or ()),
            ignore=(*(ignore or ()), *(extend_ignore or ())),
            where=COMMAND_LINE,
        )
        layer.check()
        given = {
            "inventory": inventory is not None,
            "baseline": baseline is not None or no_baseline,
            "selection": layer != RuleSelection(where=COMMAND_LINE),
            "extend_exclude": bool(extend_exclude),
            "force_exclude": force_exclude is not None,
            "respect_gitignore": respect_gitignore is not None,
        }
        chosen = baseline.resolve() if baseline is not None else self.baseline
        return replace(
            self,
            inventory=inventory.resolve() if inventory is not None else self.inventory,
            baseline=None if no_baseline else chosen,
            command_line=layer,
            extend_exclude=(*self.extend_exclude, *(extend_exclude or ())),
            force_exclude=self.force_exclude if force_exclude is None else force_exclude,
            respect_gitignore=(
                self.respect_gitignore if respect_gitignore is None else respect_gitignore
            ),
            given=(*self.given, *((name, COMMAND_LINE) for name, on in given.items() if on)),
        )

    def file_selection(self) -> RuleSelection:
        where = f"{self.config_file}: tool.{SECTION}" if self.config_file else "the defaults"
        return RuleSelection(
            self.select, self.extend_select, (*self.ignore, *self.extend_ignore), where
        )

    def selected_codes(self) -> frozenset[str]:
        """Rule codes that run: the file's layer, then the command line's (see selection)."""
        return resolve_selection((self.file_selection(), self.command_line))

    def excludes(self) -> tuple[str, ...]:
        return (*self.exclude, *self.extend_exclude)

    def ignored_for(self, path: Path) -> frozenset[str]:
        """Codes ``per-file-ignores`` turns off for ``path``."""
        if not self.per_file_ignores:
            return frozenset()
        resolved = absolute(path)
        codes: set[str] = set()
        for pattern, ignored in self.per_file_ignores:
            if pattern.matches(resolved):
                codes |= ignored
        return frozenset(codes)

    def default_inventory(self) -> Path | None:
        if self.inventory is not None:
            return self.inventory
        candidate = self.root / DEFAULT_INVENTORY
        return candidate if candidate.is_file() else None

    def inventory_origin(self) -> str:
        """Where the inventory in use was named: a flag, the settings, or the project root."""
        if self.inventory is None:
            return "found in the project root" if self.default_inventory() else "none found"
        return dict(self.given).get("inventory", "")

    def load_inventory(self) -> Inventory | None:
        """The inventory in use, loaded; ``None`` when there is none to find."""
        path = self.default_inventory()
        return load_inventory(path) if path is not None else None


@record
class Project:
    """Where a file's settings come from: the project folder and its settings file, if any."""

    root: Path
    config_file: Path | None = None


def find_project(start: Path) -> Project:
    """The nearest folder from ``start`` up with settings or an inventory; else the repository
    root (the nearest folder with ``.git`` or ``pyproject.toml``), else ``start``.

    A ``pyproject.toml`` met on the way that is not valid TOML is an error, never skipped: its
    settings might have been the ones meant.
    """
    start = absolute(start)
    for directory in (start, *start.parents):
        if is_project(directory):
            candidate = directory / "pyproject.toml"
            has_settings = candidate.is_file() and SECTION in _tool(candidate)
            return Project(directory, candidate if has_settings else None)
    cwd = Path.cwd()
    return Project(project_root(start if not start.is_relative_to(cwd) else cwd))


def is_project(directory: Path) -> bool:
    """Whether ``directory`` holds settings (a ``[tool.dagroute-lint]`` table) or an inventory."""
    if (directory / DEFAULT_INVENTORY).is_file():
        return True
    candidate = directory / "pyproject.toml"
    if not candidate.is_file():
        return False
    return SECTION in _tool(candidate)


def nested_projects(folder: Path) -> list[Path]:
    """The outermost projects inside ``folder`` (not ``folder`` itself), as walked from it: their
    files follow their own settings, as ruff gives each file its nearest configuration."""
    found: list[Path] = []
    for directory, subdirectories, _ in os.walk(folder):
        kept = []
        for name in sorted(subdirectories):
            if name in DEFAULT_EXCLUDES:
                continue
            inner = Path(directory) / name
            if is_project(inner):
                found.append(inner)
            else:
                kept.append(name)
        subdirectories[:] = kept
    return found


def project_root(start: Path) -> Path:
    """The repository root: the nearest folder with ``.git`` or ``pyproject.toml``."""
    for directory in (start, *start.parents):
        if (directory / ".git").exists() or (directory / "pyproject.toml").is_file():
            return directory
    return start


def load_settings(config: Path | None, start: Path) -> Settings:
    """Settings from ``config``, else those of the project holding ``start`` (a folder)."""
    if config is not None:
        return settings_of(Project(config.resolve().parent, config.resolve()))
    return settings_of(find_project(start))


def settings_of(project: Project) -> Settings:
    """The project's settings, defaults when it has no settings file."""
    if project.config_file is None:
        return Settings(root=project.root)
    path = project.config_file
    tool = _read_config(path).get("tool", {})
    table = tool.get(SECTION, {}) if isinstance(tool, dict) else {}
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: tool.{SECTION}: expected a table")
    return _settings_from_table(table, path, f"{path}: tool.{SECTION}.", (path.resolve(),))


def _tool(path: Path) -> dict[str, object]:
    tool = _read_config(path).get("tool")
    return tool if isinstance(tool, dict) else {}


def _read_config(path: Path) -> dict[str, object]:
    try:
        document: dict[str, object] = toml.loads(path.read_text(encoding="utf-8"))
        return document
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except toml.TOMLDecodeError as error:
        raise ConfigError(f"{path}: invalid TOML: {error}") from None


def _settings_from_table(
    table: dict[str, object], path: Path, prefix: str, chain: tuple[Path, ...]
) -> Settings:
    """The settings ``table`` of ``path`` says, over those it extends. ``prefix`` names a key
    of it in messages (``pyproject.toml: tool.dagroute-lint.``); ``chain`` holds the files
    extending it, to refuse a cycle."""
    for key in table:
        if key not in SETTINGS:
            raise ConfigError(f"{prefix}{key}: unknown setting{did_you_mean(key, SETTINGS)}")
    root = path.parent

    def strings(key: str) -> tuple[str, ...]:
        value = table.get(key, SETTINGS[key].default)
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise ConfigError(f"{prefix}{key}: expected a list of strings")
        return tuple(value)

    def flag(key: str) -> bool:
        value = table.get(key, SETTINGS[key].default)
        if not isinstance(value, bool):
            raise ConfigError(f"{prefix}{key}: expected true or false")
        return value

    extended = table.get("extend")
    base = None if extended is None else _extended(extended, path, prefix, chain)
    inventory = table.get("inventory")
    if inventory is not None and not isinstance(inventory, str):
        raise ConfigError(f"{prefix}inventory: expected a string (a path)")
    baseline = table.get("baseline")
    if baseline is not None and (not isinstance(baseline, str) or not baseline):
        raise ConfigError(f"{prefix}baseline: expected a string (a path)")
    syntax = table.get("dag-ignore-file-syntax")
    if syntax is not None and syntax not in SYNTAXES:
        raise ConfigError(f"{prefix}dag-ignore-file-syntax: expected one of {', '.join(SYNTAXES)}")
    max_file_size = table.get("max-file-size", SETTINGS["max-file-size"].default)
    if (
        not isinstance(max_file_size, int)
        or isinstance(max_file_size, bool)
        or not 1 <= max_file_size <= MAX_FILE_BYTES
    ):
        raise ConfigError(
            f"{prefix}max-file-size: expected a number of bytes from 1 to {MAX_FILE_BYTES}"
        )
    own = Settings(
        root=root,
        config_file=path,
        inventory=(root / inventory).resolve() if inventory else None,
        baseline=(root / baseline).resolve() if baseline else None,
        select=strings("select"),
        ignore=strings("ignore"),
        extend_select=strings("extend-select"),
        extend_ignore=strings("extend-ignore"),
        per_file_ignores=_per_file_ignores(table.get("per-file-ignores", {}), root, prefix),
        exclude=strings("exclude"),
        extend_exclude=strings("extend-exclude"),
        force_exclude=flag("force-exclude"),
        respect_gitignore=flag("respect-gitignore"),
        dags=tuple((root / item).resolve() for item in strings("dags")),
        roots=tuple((root / item).resolve() for item in strings("roots")),
        dag_ignore_file_syntax=syntax,
        max_file_size=max_file_size,
        given=tuple((key.replace("-", "_"), f"{prefix}{key}") for key in table),
    )
    # Reject unknown selectors now, naming the file they are written in.
    where = prefix.removesuffix(".")
    RuleSelection(own.select, own.extend_select, (*own.ignore, *own.extend_ignore), where).check()
    return own if base is None else _inherit(base, own, table)


def _extended(value: object, path: Path, prefix: str, chain: tuple[Path, ...]) -> Settings:
    """The settings of the file ``extend = value`` names in ``path`` (relative to its folder):
    a ``pyproject.toml``'s table, or the top-level keys of any other TOML file."""
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{prefix}extend: expected a string (the path of a settings file)")
    target = (path.parent / Path(value).expanduser()).resolve()
    if target in chain:
        cycle = " -> ".join(str(file) for file in (*chain, target))
        raise ConfigError(f"{prefix}extend: settings files extend each other in a cycle: {cycle}")
    if not target.is_file():
        raise ConfigError(f"{prefix}extend: no such file: {target}")
    document = _read_config(target)
    tool = document.get("tool")
    table = tool.get(SECTION) if isinstance(tool, dict) else None
    if table is None and target.name == "pyproject.toml":
        raise ConfigError(f"{prefix}extend: {target} has no [tool.{SECTION}] table")
    if table is None:
        return _settings_from_table(document, target, f"{target}: ", (*chain, target))
    if not isinstance(table, dict):
        raise ConfigError(f"{target}: tool.{SECTION}: expected a table")
    return _settings_from_table(table, target, f"{target}: tool.{SECTION}.", (*chain, target))


# Lists that add to the extended file's instead of replacing them, as ruff's ``extend-*``.
_ADDED = ("extend-select", "extend-ignore", "extend-exclude")


def _inherit(base: Settings, own: Settings, written: Collection[str]) -> Settings:
    """``own`` (the settings of a file that extends ``base``'s) over ``base``: every key it
    writes wins, its ``extend-*`` lists add to the inherited ones, the rest is inherited."""
    changes: dict[str, Any] = {}  # the fields of ``Settings`` the keys name, of their types
    for key in SETTINGS:
        name = key.replace("-", "_")
        if key in _ADDED:
            changes[name] = (*getattr(base, name), *getattr(own, name))
        elif key not in written and key != "extend":
            changes[name] = getattr(base, name)
    origins = dict(base.given)
    for name, where in own.given:
        added = name.replace("_", "-") in _ADDED and name in origins
        origins[name] = f"{origins[name]}, then {where}" if added else where
    assert base.config_file is not None  # an extended file is a settings file
    return replace(
        own, **changes, given=tuple(origins.items()), extends=(base.config_file, *base.extends)
    )


def _per_file_ignores(
    value: object, root: Path, prefix: str
) -> tuple[tuple[ProjectGlob, frozenset[str]], ...]:
    if not isinstance(value, dict):
        raise ConfigError(f"{prefix}per-file-ignores: expected a table of glob = [codes]")
    compiled: list[tuple[ProjectGlob, frozenset[str]]] = []
    for pattern, codes in value.items():
        key = f"{prefix}per-file-ignores.{pattern}"
        if not isinstance(codes, list) or not all(isinstance(code, str) for code in codes):
            raise ConfigError(f"{key}: expected a list of codes")
        # Expanded once, here, so an unknown code is reported with the file even when no file
        # matches the pattern.
        compiled.append((project_glob(pattern, root, key), expand_all(codes, key)))
    return tuple(compiled)
