"""Read a YAML file (Helm values, docker-compose) through PyYAML, the ``deploy`` extra.

PyYAML is imported here only, when a YAML source is asked for: the linter itself never needs it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dagroute_lint.errors import ConfigError, read_user_file

EXTRA_HINT = "install the deploy extra: pip install 'dagroute-lint[deploy]'"


def read_yaml(path: Path, option: str) -> Any:
    """The document in ``path`` (safe loading: tags that build objects are refused)."""
    try:
        import yaml
    except ImportError:
        raise ConfigError(f"{option} reads YAML, which needs PyYAML: {EXTRA_HINT}") from None
    text = read_user_file(path)
    try:
        return yaml.safe_load(text)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark is not None else str(path)
        raise ConfigError(f"{where}: invalid YAML: {error.problem or error}") from None
    except yaml.YAMLError as error:
        raise ConfigError(f"{path}: invalid YAML: {error}") from None


def describe(value: object) -> str:
    """The YAML type of a value, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"number {value}"
    if isinstance(value, str):
        return f"string {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__
