"""What installing the project itself brings (``pip install .``, ``poetry install``, ``uv sync``).

The build reads the project's own metadata from the build context, so this does too, as the
installer would, and without running anything:

- ``pyproject.toml`` ``[project] dependencies`` (PEP 621), plus the ``optional-dependencies`` the
  install names (``pip install .[s3]``, ``uv sync --extra s3``), unless ``dependencies`` is
  ``dynamic``;
- Poetry's ``[tool.poetry.dependencies]`` (``^`` and ``~`` written as PEP 440 ranges), its
  ``extras`` the install names, and, for ``poetry install``, the groups it installs;
- ``setup.cfg`` ``[options] install_requires`` and ``extras_require``;
- uv's ``[dependency-groups]`` (``dev`` by default) for ``uv sync``.

A ``setup.py`` declares its requirements in code, which is never run: what it installs is not
known, and ``unknown`` says why, so the runtime is left open rather than listed short.
"""

from __future__ import annotations

import configparser
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dagroute_lint.deployment.requirements import parse_requirement
from dagroute_lint.deployment.toml import toml
from dagroute_lint.errors import ConfigError, read_user_file
from dagroute_lint.records import record

_POETRY_CARET = re.compile(r"^\^(?P<version>[0-9]+(?:\.[0-9]+)*)$")
_POETRY_TILDE = re.compile(r"^~(?P<version>[0-9]+(?:\.[0-9]+)*)$")
_BARE_VERSION = re.compile(r"^[0-9]+(?:\.[0-9*]+)*$")
# ``name @ url`` and ``name ; marker``: the name is what is installed (the marker not evaluated).
_DIRECT_OR_MARKER = re.compile(r"\s*(?:@|;).*$", re.DOTALL)


@record
class Selection:
    """What an install takes from the project: ``extras`` (``.[s3]``), Poetry / uv ``groups``
    beyond the main dependencies, and ``tool`` (``pip``, ``poetry``, ``uv``) that reads it."""

    tool: str = "pip"
    extras: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()
    without: tuple[str, ...] = ()
    all_extras: bool = False
    default_groups: bool = False
    no_dependencies: bool = False


@record
class ProjectInstall:
    """``(requirement, where)`` the install brings, or ``unknown``: why it cannot be read."""

    requirements: tuple[tuple[str, str], ...] = ()
    unknown: str | None = None


def project_install(folder: Path, selection: Selection) -> ProjectInstall:
    """The dependencies installing the project in ``folder`` brings; ``ConfigError`` for a
    metadata file that cannot be read (the build would fail too)."""
    if selection.no_dependencies:
        return ProjectInstall()
    pyproject = folder / "pyproject.toml"
    document: dict[str, Any] = {}
    if pyproject.is_file():
        try:
            document = toml.loads(read_user_file(pyproject))
        except toml.TOMLDecodeError as error:
            raise ConfigError(f"{pyproject}: not valid TOML: {error}") from None
    project = _table(document.get("project"))
    poetry = _table(_table(document.get("tool")).get("poetry"))
    found: list[tuple[str, str]] = []
    if "dependencies" in project and "dependencies" not in project.get("dynamic", ()):
        found += _pep621(pyproject, project, selection)
    elif poetry.get("dependencies") is not None:
        found += _poetry(pyproject, poetry, selection)
    elif (folder / "setup.cfg").is_file() and _setup_cfg_declares(folder / "setup.cfg"):
        found += _setup_cfg(folder / "setup.cfg", selection)
    elif (folder / "setup.py").is_file():
        return ProjectInstall(
            unknown=f"{folder / 'setup.py'} declares its requirements in code, which is never run"
        )
    elif project:
        return ProjectInstall(
            unknown=f"{pyproject} [project] declares its dependencies dynamic (set by the build)"
        )
    else:
        return ProjectInstall(unknown=f"{folder} holds no pyproject.toml, setup.cfg or setup.py")
    if selection.tool == "uv":
        found += _dependency_groups(pyproject, document, selection)
    return ProjectInstall(tuple(found))


def _table(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _pep621(path: Path, project: Mapping[str, Any], selection: Selection) -> list[tuple[str, str]]:
    found = _pep508_list(path, "[project] dependencies", project["dependencies"])
    optional = _table(project.get("optional-dependencies"))
    for extra in sorted(optional) if selection.all_extras else selection.extras:
        if extra in optional:
            key = f"[project.optional-dependencies] {extra}"
            found += _pep508_list(path, key, optional[extra])
    return found


def _pep508_list(path: Path, key: str, value: object) -> list[tuple[str, str]]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{path}: {key}: expected a list of requirement strings")
    return [(_pep508(path, key, index, item), f"{path} {key}") for index, item in enumerate(value)]


def _pep508(path: Path, key: str, index: int, text: str) -> str:
    requirement = _DIRECT_OR_MARKER.sub("", text).strip()
    try:
        parsed = parse_requirement(requirement)
    except ValueError as error:
        raise ConfigError(f"{path}: {key}[{index}]: {error}") from None
    return f"{parsed.name}{parsed.specifier}"


def _poetry(path: Path, poetry: Mapping[str, Any], selection: Selection) -> list[tuple[str, str]]:
    main = _table(poetry.get("dependencies"))
    extras = _table(poetry.get("extras"))
    chosen = set(extras) if selection.all_extras else set(selection.extras)
    wanted = {str(name).lower() for extra in chosen for name in extras.get(extra, ())}
    found = _poetry_table(path, "[tool.poetry.dependencies]", main, wanted)
    if selection.tool != "poetry":
        return found
    groups = _table(poetry.get("group"))
    names = [
        name
        for name, body in groups.items()
        if name not in selection.without
        and (
            name in selection.groups
            or (selection.default_groups and not _table(body).get("optional", False))
        )
    ]
    if selection.default_groups and "dev" not in selection.without and "dev-dependencies" in poetry:
        found += _poetry_table(
            path, "[tool.poetry.dev-dependencies]", _table(poetry["dev-dependencies"]), set()
        )
    for name in names:
        table = _table(_table(groups[name]).get("dependencies"))
        found += _poetry_table(path, f"[tool.poetry.group.{name}.dependencies]", table, set())
    return found


def _poetry_table(
    path: Path, key: str, table: Mapping[str, Any], extras: set[str]
) -> list[tuple[str, str]]:
    found = []
    for name, constraint in table.items():
        if name.lower() == "python":
            continue  # the interpreter, not a distribution
        body = _table(constraint)
        if body.get("optional", False) and name.lower() not in extras:
            continue  # installed only with an extra that names it
        version = constraint if isinstance(constraint, str) else body.get("version", "")
        written = f"{name}{_poetry_specifier(str(version))}"
        try:
            parsed = parse_requirement(written)
        except ValueError:
            parsed = parse_requirement(name)  # a constraint PEP 440 cannot say (``a || b``)
        found.append((f"{parsed.name}{parsed.specifier}", f"{path} {key}"))
    return found


def _poetry_specifier(version: str) -> str:
    """Poetry's constraint as PEP 440: ``^1.2`` → ``>=1.2,<2.0``, ``~1.2`` → ``>=1.2,<1.3``,
    a bare ``1.2.3`` → ``==1.2.3``; ``*`` and the empty constraint are no constraint."""
    text = version.strip()
    if text in ("", "*"):
        return ""
    caret = _POETRY_CARET.match(text)
    if caret is not None:
        parts = [int(part) for part in caret.group("version").split(".")]
        # The first non-zero part is the one that may not change (^0.2.3 → <0.3.0).
        index = next((i for i, part in enumerate(parts) if part != 0), len(parts) - 1)
        return f">={caret.group('version')},<{_bump(parts, index)}"
    tilde = _POETRY_TILDE.match(text)
    if tilde is not None:
        parts = [int(part) for part in tilde.group("version").split(".")]
        return f">={tilde.group('version')},<{_bump(parts, 1 if len(parts) > 1 else 0)}"
    if _BARE_VERSION.match(text):
        return f"=={text}"
    return ",".join(part.strip() for part in re.split(r",|\s+(?=[<>=!~])", text) if part.strip())


def _bump(parts: Sequence[int], index: int) -> str:
    bumped = [*parts[:index], parts[index] + 1] + [0] * (len(parts) - index - 1)
    return ".".join(str(part) for part in bumped)


def _setup_cfg_declares(path: Path) -> bool:
    return _setup_parser(path).has_option("options", "install_requires")


def _setup_parser(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(read_user_file(path), source=str(path))
    except configparser.Error as error:
        raise ConfigError(f"{path}: not a valid setup.cfg: {error}") from None
    return parser


def _setup_cfg(path: Path, selection: Selection) -> list[tuple[str, str]]:
    parser = _setup_parser(path)
    found = _setup_lines(path, "[options] install_requires", parser["options"]["install_requires"])
    if parser.has_section("options.extras_require"):
        section = parser["options.extras_require"]
        for extra in sorted(section) if selection.all_extras else selection.extras:
            if extra in section:
                key = f"[options.extras_require] {extra}"
                found += _setup_lines(path, key, section[extra])
    return found


def _setup_lines(path: Path, key: str, text: str) -> list[tuple[str, str]]:
    lines = [line.split("#", 1)[0].strip() for line in re.split(r"[\n;]", text)]
    items = [line for line in lines if line]
    return [(_pep508(path, key, index, item), f"{path} {key}") for index, item in enumerate(items)]


def _dependency_groups(
    path: Path, document: Mapping[str, Any], selection: Selection
) -> list[tuple[str, str]]:
    """PEP 735 groups ``uv sync`` installs: ``dev`` unless left out, and those it names."""
    groups = _table(document.get("dependency-groups"))
    names = list(selection.groups)
    if selection.default_groups:
        names.insert(0, "dev")
    found: list[tuple[str, str]] = []
    for name in dict.fromkeys(names):
        items = [item for item in groups.get(name, ()) if isinstance(item, str)]
        found += _pep508_list(path, f"[dependency-groups] {name}", items)
    return found
