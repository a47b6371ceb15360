"""Read a YAML file (Helm values, docker-compose) through PyYAML, the ``deploy`` extra.

PyYAML is imported here only, when a YAML source is asked for: the linter itself never needs it.
"""

from __future__ import annotations

from collections.abc import Sequence
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


def line_of(path: Path, keys: Sequence[str | int]) -> int | None:
    """The line (1-based) where the value at ``keys`` is written in ``path``, following YAML
    aliases and ``<<`` merge keys as the loader does; ``None`` when it cannot be found."""
    import yaml

    try:
        node: Any = yaml.compose(read_user_file(path), Loader=yaml.SafeLoader)
    except (yaml.YAMLError, ConfigError):
        return None
    for key in keys:
        node = _child(node, key)
        if node is None:
            return None
    return int(node.start_mark.line) + 1


def _child(node: Any, key: str | int) -> Any:
    import yaml

    if isinstance(node, yaml.SequenceNode) and isinstance(key, int):
        return node.value[key] if 0 <= key < len(node.value) else None
    if not isinstance(node, yaml.MappingNode):
        return None
    merged: list[Any] = []
    for name, value in node.value:
        if name.value == str(key):
            return value
        if name.tag == "tag:yaml.org,2002:merge":
            merged.extend(value.value if isinstance(value, yaml.SequenceNode) else [value])
    for source in merged:
        found = _child(source, key)
        if found is not None:
            return found
    return None
