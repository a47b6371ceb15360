"""Compose files read as ``docker compose -f a.yaml -f b.yaml config`` reads them.

The services ``inventory init`` sees are the ones compose would start, with the values compose
would give them:

- each file is interpolated (``interpolation.py``) with the shell's variables over those of the
  ``.env`` file in the project folder (the first file's folder), as compose does;
- later files override earlier ones by the compose specification's merge rules: mappings merge
  key by key; ``command``, ``entrypoint`` and ``healthcheck.test`` are replaced whole;
  ``environment``, ``labels`` and ``build.args`` merge by variable name, whether written as a
  mapping or as ``NAME=value`` items; other sequences are appended, without repeats;
- ``extends`` (``service:``, optionally ``file:``) puts the extended service under the one that
  extends it;
- a service with ``profiles`` runs only when one of them is enabled (``--profile``, or
  ``COMPOSE_PROFILES``): the others are left out, and a note names them;
- YAML anchors and ``<<`` merge keys (the quick start's ``x-airflow-common``) are the YAML
  loader's.

Paths in the files are relative to the project folder, as compose resolves them for every
``-f`` file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dagroute_lint.deployment.init.dotenv import read_dotenv
from dagroute_lint.deployment.init.interpolation import (
    VALUE_USED,
    InterpolationError,
    interpolate,
)
from dagroute_lint.deployment.init.yaml_file import describe, line_of, read_yaml
from dagroute_lint.errors import ConfigError
from dagroute_lint.records import record

_REPLACED = frozenset({"command", "entrypoint"})
_BY_NAME = frozenset({"environment", "labels", "args"})
MAX_EXTENDS_DEPTH = 20


@record
class ComposeService:
    """One service as compose runs it; ``where`` names the files and key for messages."""

    name: str
    body: dict[str, Any]
    where: str


@record
class ComposeProject:
    """The merged services, the folder paths are relative to, the interpolation variables,
    and what was decided on the way (defaults used, variables unset, services left out)."""

    files: tuple[Path, ...]
    directory: Path
    services: dict[str, ComposeService]
    variables: dict[str, str]
    notes: tuple[str, ...]
    # Keys (``services.worker.environment.X``) whose value holds a variable that neither the
    # shell nor .env sets: the shell that starts compose decides them.
    from_shell: frozenset[str] = frozenset()


def load_compose(
    paths: Sequence[Path], environ: Mapping[str, str], profiles: Sequence[str] = ()
) -> ComposeProject:
    """The project ``docker compose -f PATH...`` would run in a shell with ``environ``."""
    directory = paths[0].parent
    notes: list[str] = []
    variables = dict(environ)
    dotenv = directory / ".env"
    from_dotenv: set[str] = set()
    if dotenv.is_file():
        values = read_dotenv(dotenv, environ)
        variables = {**{k: v for k, v in values.items() if v is not None}, **environ}
        from_dotenv = {name for name in values if name not in environ}
    label = " + ".join(str(path) for path in paths)
    services: dict[str, dict[str, Any]] = {}
    declared_in: dict[str, Path] = {}
    from_shell: set[str] = set()
    for path in paths:
        document = read_yaml(path, "--compose")
        if document is None:
            continue
        if not isinstance(document, dict) or not isinstance(document.get("services", {}), dict):
            raise ConfigError(f"{path}: services: expected a compose file with a services mapping")
        used: dict[str, list[tuple[str, str | None]]] = {}
        document = _interpolated(document, variables, path, [], used)
        for name, uses in used.items():
            read = [(key, default) for key, default in uses if _read_here(key)]
            from_shell.update(key for key, default in read if default is None)
            if not read:
                continue
            key, default = read[0]
            if default == VALUE_USED:
                if name in from_dotenv:
                    notes.append(f"{path}: {key}: {name} is {variables[name]!r}, from {dotenv}")
                continue
            if default is None:
                notes.append(
                    f"{path}: {key} uses ${{{name}}}, which neither the shell nor .env sets: "
                    "compose substitutes an empty string, and the shell that starts it decides"
                )
            else:
                notes.append(
                    f"{path}: {key}: {name} is set neither in the shell nor in .env, so its "
                    f"default {default!r} is used, as compose uses it"
                )
        for name, body in (document.get("services") or {}).items():
            if not isinstance(body, dict):
                raise ConfigError(
                    f"{_at(path, ['services', name])}: expected a mapping, got {describe(body)}"
                )
            services[str(name)] = merge_service(services.get(str(name), {}), body)
            declared_in.setdefault(str(name), path)
    if not services:
        raise ConfigError(f"{paths[0]}: services: expected a compose file with a services mapping")
    resolved = {
        name: _extended(name, body, services, declared_in[name], variables, [])
        for name, body in services.items()
    }
    enabled = set(profiles) or _profiles_from(variables)
    kept: dict[str, ComposeService] = {}
    left_out = []
    for name, body in resolved.items():
        wanted = body.get("profiles")
        if wanted and not (set(map(str, wanted)) & enabled or "*" in enabled):
            left_out.append(f"{name} ({', '.join(map(str, wanted))})")
            continue
        kept[name] = ComposeService(name, body, f"{label}: services.{name}")
    if left_out:
        notes.append(
            "services of profiles not enabled are left out, as compose leaves them: "
            + ", ".join(left_out)
            + " (enable one with --profile)"
        )
    return ComposeProject(
        tuple(paths), directory, kept, variables, tuple(notes), frozenset(from_shell)
    )


def _read_here(key: str) -> bool:
    """Whether ``inventory init`` reads the value at ``key`` (a service's image, build,
    command, env_file, volumes, profiles, or an Airflow variable of its environment): only
    the defaults taken for those are worth a note."""
    parts = key.split(".")
    if len(parts) < 3 or parts[0] != "services":
        return False
    if parts[2] in ("image", "build", "command", "entrypoint", "env_file", "volumes", "profiles"):
        return True
    variable = parts[3] if len(parts) > 3 else ""
    return parts[2] == "environment" and (
        variable.startswith("AIRFLOW__")
        or variable in ("AIRFLOW_CONFIG", "_PIP_ADDITIONAL_REQUIREMENTS")
    )


def _profiles_from(variables: Mapping[str, str]) -> set[str]:
    text = variables.get("COMPOSE_PROFILES", "")
    return {part.strip() for part in text.split(",") if part.strip()}


def _at(path: Path, keys: Sequence[str | int]) -> str:
    """``file:line: a.b.c`` for a message about the value at ``keys``."""
    line = line_of(path, keys)
    dotted = ".".join(str(key) for key in keys)
    return f"{path}:{line}: {dotted}" if line is not None else f"{path}: {dotted}"


def _interpolated(
    value: Any,
    variables: Mapping[str, str],
    path: Path,
    keys: list[str | int],
    used: dict[str, list[tuple[str, str | None]]],
) -> Any:
    if isinstance(value, str):
        dotted = ".".join(str(key) for key in keys)

        def unset(name: str, default: str | None) -> None:
            used.setdefault(name, []).append((dotted, default))

        try:
            return interpolate(value, variables, unset)
        except InterpolationError as error:
            raise ConfigError(f"{_at(path, keys)}: {error}") from None
    if isinstance(value, dict):
        if keys[:1] != [] and str(keys[0]).startswith("x-"):
            # Extension fields are interpolated where they are used, through the aliases.
            return value
        return {
            k: _interpolated(v, variables, path, [*keys, str(k)], used) for k, v in value.items()
        }
    if isinstance(value, list):
        return [_interpolated(v, variables, path, [*keys, i], used) for i, v in enumerate(value)]
    return value


def merge_service(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``override`` over ``base`` by compose's merge rules."""
    result = dict(base)
    for key, value in override.items():
        earlier = result.get(key)
        if key in _REPLACED or earlier is None:
            result[key] = value
        elif key in _BY_NAME:
            result[key] = {**by_name(earlier), **by_name(value)}
        elif key == "healthcheck" and isinstance(earlier, dict) and isinstance(value, dict):
            result[key] = {**earlier, **value}
        elif isinstance(earlier, dict) and isinstance(value, dict):
            result[key] = merge_service(earlier, value)
        elif isinstance(earlier, list) and isinstance(value, list):
            result[key] = earlier + [item for item in value if item not in earlier]
        else:
            result[key] = value
    return result


def by_name(value: Any) -> dict[str, str | None]:
    """``environment`` / ``labels`` / ``args`` as a mapping: ``NAME=value`` items split, and a
    bare ``NAME`` (or a null value) kept as ``None``, the shell's variable."""
    if isinstance(value, dict):
        return {str(k): None if v is None else _text(v) for k, v in value.items()}
    if isinstance(value, list):
        found: dict[str, str | None] = {}
        for item in value:
            name, equals, text = str(item).partition("=")
            found[name.strip()] = text if equals else None
        return found
    raise ConfigError(f"expected a mapping or a list of NAME=value, got {describe(value)}")


def _text(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()  # compose writes YAML booleans as true / false
    return str(value)


def _extended(
    name: str,
    body: dict[str, Any],
    services: Mapping[str, dict[str, Any]],
    path: Path,
    variables: Mapping[str, str],
    chain: list[str],
) -> dict[str, Any]:
    extends = body.get("extends")
    if extends is None:
        return body
    if len(chain) > MAX_EXTENDS_DEPTH or name in chain:
        raise ConfigError(
            f"{path}: services.{name}.extends: extends itself ({' -> '.join([*chain, name])})"
        )
    if isinstance(extends, str):
        extends = {"service": extends}
    if not isinstance(extends, dict) or not isinstance(extends.get("service"), str):
        raise ConfigError(
            f"{_at(path, ['services', name, 'extends'])}: expected a service name or "
            "{service, file}"
        )
    base_name = extends["service"]
    if "file" in extends:
        other = path.parent / str(extends["file"])
        document = read_yaml(other, "--compose extends")
        pool = (
            _interpolated(document, variables, other, [], {}).get("services", {})
            if isinstance(document, dict)
            else {}
        )
        origin = other
    else:
        pool, origin = services, path
    base = pool.get(base_name)
    if not isinstance(base, dict):
        raise ConfigError(
            f"{_at(path, ['services', name, 'extends'])}: no service {base_name!r} in {origin}"
        )
    base = _extended(base_name, base, pool, origin, variables, [*chain, name])
    own = {key: value for key, value in body.items() if key != "extends"}
    return merge_service(base, own)


def locate(project: ComposeProject, service: str, keys: Sequence[str | int]) -> str:
    """``file:line: services.NAME.KEY`` in the last file that writes the value, for an error;
    the files' names without a line when none does (a value merged from an anchor)."""
    path = ["services", service, *keys]
    for file in reversed(project.files):
        if line_of(file, path) is not None:
            return _at(file, path)
    dotted = ".".join(str(key) for key in path)
    return f"{' + '.join(str(file) for file in project.files)}: {dotted}"
