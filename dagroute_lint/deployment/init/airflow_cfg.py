"""The few ``airflow.cfg`` options that decide routing, with ``AIRFLOW__SECTION__KEY`` overrides.

Airflow reads an option from the environment variable first, then from the file (semantics 1.2:
``AIRFLOW__OPERATORS__DEFAULT_QUEUE`` beats ``airflow.cfg``). The ``_cmd`` / ``_secret`` variants
(``AIRFLOW__CORE__EXECUTOR_CMD``, ``executor_cmd =``) would need a command run or a secrets
backend queried; this module never does either, and Airflow honours them only for its sensitive
options anyway, so they are reported as notes instead of used.
"""

from __future__ import annotations

import configparser
from collections.abc import Mapping
from pathlib import Path

from dagroute_lint.errors import ConfigError, read_user_file
from dagroute_lint.records import record

EXECUTOR = ("core", "executor")
DEFAULT_QUEUE = ("operators", "default_queue")
DEFAULT_POOL_SLOTS = ("core", "default_pool_task_slot_count")
OPTIONS = (EXECUTOR, DEFAULT_QUEUE, DEFAULT_POOL_SLOTS)
_UNEVALUATED_SUFFIXES = ("_cmd", "_secret")


@record
class Setting:
    """An option's value and where it came from, for the comment beside it; ``environment``
    when an ``AIRFLOW__SECTION__KEY`` variable sets it, which wins over any ``airflow.cfg``."""

    value: str
    source: str
    environment: bool = False


@record
class AirflowConfig:
    """The routing options found (absent ones are missing from ``settings``) and notes."""

    settings: dict[tuple[str, str], Setting]
    notes: tuple[str, ...]
    sources: tuple[str, ...]


def environment_variable(section: str, option: str) -> str:
    """Airflow's override variable for an option: ``AIRFLOW__CORE__EXECUTOR``."""
    return f"AIRFLOW__{section.upper()}__{option.upper()}"


def read_airflow_config(path: Path | None, environ: Mapping[str, str]) -> AirflowConfig:
    """The routing options from ``path`` (if given) overridden by ``environ``."""
    parser = _parse(path) if path is not None else None
    settings: dict[tuple[str, str], Setting] = {}
    notes: list[str] = []
    used_environment = False
    for section, option in OPTIONS:
        variable = environment_variable(section, option)
        if variable in environ:
            settings[section, option] = Setting(
                _text(environ[variable], variable), variable, environment=True
            )
            used_environment = True
        elif parser is not None and parser.has_option(section, option):
            where = f"{path} [{section}] {option}"
            try:
                value = parser.get(section, option)
            except configparser.Error as error:
                raise ConfigError(f"{where}: {_one_line(error)}") from None
            settings[section, option] = Setting(value, where)
        for suffix in _UNEVALUATED_SUFFIXES:
            names = [variable + suffix.upper()] if variable + suffix.upper() in environ else []
            if parser is not None and parser.has_option(section, option + suffix):
                names.append(f"[{section}] {option}{suffix} in {path}")
            notes.extend(
                f"{name} is set but not evaluated: dagroute-lint runs no commands and reads no "
                f"secrets backend (and Airflow honours {suffix} only for sensitive options); "
                f"check [{section}] {option} by hand"
                for name in names
            )
    sources = [str(path)] if path is not None else []
    if used_environment:
        sources.append("AIRFLOW__* environment variables")
    return AirflowConfig(settings, tuple(notes), tuple(sources))


def _parse(path: Path) -> configparser.ConfigParser:
    text = read_user_file(path, missing="airflow.cfg not found")
    # Airflow's parser is a ConfigParser with its default ``%`` interpolation (hence the ``%%``
    # in the logging formats of the shipped airflow.cfg) and strict duplicate checks.
    parser = configparser.ConfigParser()
    try:
        parser.read_string(text, source=str(path))
    except configparser.Error as error:
        raise ConfigError(f"{path}: not a valid airflow.cfg: {_one_line(error)}") from None
    return parser


def _text(value: str, where: str) -> str:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ConfigError(f"{where}: the value is not valid UTF-8 text") from None
    return value


def _one_line(error: Exception) -> str:
    """configparser's messages span lines (the offending line is on the second): join them."""
    parts = [part.strip() for part in str(error).splitlines() if part.strip()]
    return " ".join(parts) if parts else type(error).__name__
