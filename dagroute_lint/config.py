"""Settings from ``[tool.dagroute-lint]`` in ``pyproject.toml``, merged under command-line flags."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from dagroute_lint.deployment.inventory import Inventory, load_inventory
from dagroute_lint.deployment.toml import toml
from dagroute_lint.errors import ConfigError
from dagroute_lint.rules.registry import all_rules
from dagroute_lint.sources.airflowignore import SYNTAXES
from dagroute_lint.sources.discovery import absolute
from dagroute_lint.wording import did_you_mean

SECTION = "dagroute-lint"
DEFAULT_INVENTORY = "dagroute.toml"
_KEYS = (
    "inventory",
    "select",
    "ignore",
    "extend-select",
    "per-file-ignores",
    "exclude",
    "dags",
    "roots",
    "dag-ignore-file-syntax",
)


@dataclass(frozen=True)
class Settings:
    """Resolved settings; paths are absolute."""

    root: Path
    config_file: Path | None = None
    inventory: Path | None = None
    select: tuple[str, ...] = ()  # empty: every rule that is on by default
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    per_file_ignores: dict[str, frozenset[str]] = field(default_factory=dict)  # pattern: codes
    exclude: tuple[str, ...] = ()
    dags: tuple[Path, ...] = ()
    roots: tuple[Path, ...] = ()
    dag_ignore_file_syntax: str | None = None

    def with_overrides(
        self,
        inventory: Path | None = None,
        select: Sequence[str] | None = None,
        ignore: Sequence[str] | None = None,
        extend_select: Sequence[str] | None = None,
    ) -> Settings:
        """Command-line flags win over the file."""
        return replace(
            self,
            inventory=inventory.resolve() if inventory is not None else self.inventory,
            select=tuple(select) if select else self.select,
            ignore=tuple(ignore) if ignore else self.ignore,
            extend_select=tuple(extend_select) if extend_select else self.extend_select,
        )

    def selected_codes(self) -> frozenset[str]:
        """Rule codes that run: select (+ extend-select) minus ignore, by code prefix.

        Opt-in rules run only when a selector names them (``ALL``, a prefix or the code).
        """
        if self.select:
            chosen = _expand(self.select, "select")
        else:
            chosen = {rule.code for rule in all_rules() if rule.default_enabled}
        chosen |= _expand(self.extend_select, "extend-select")
        return frozenset(chosen - _expand(self.ignore, "ignore"))

    def ignored_for(self, path: Path) -> frozenset[str]:
        """Codes ``per-file-ignores`` turns off for ``path``."""
        if not self.per_file_ignores:
            return frozenset()
        try:
            relative = absolute(path).relative_to(self.root)
        except ValueError:
            relative = path
        codes: set[str] = set()
        for pattern, ignored in self.per_file_ignores.items():
            if relative.match(pattern) or Path(relative.as_posix()).match(pattern):
                codes |= ignored
        return frozenset(codes)

    def default_inventory(self) -> Path | None:
        if self.inventory is not None:
            return self.inventory
        candidate = self.root / DEFAULT_INVENTORY
        return candidate if candidate.is_file() else None

    def load_inventory(self) -> Inventory | None:
        """The inventory in use, loaded; ``None`` when there is none to find."""
        path = self.default_inventory()
        return load_inventory(path) if path is not None else None


def _expand(selectors: Iterable[str], where: str) -> set[str]:
    codes = [rule.code for rule in all_rules()]
    chosen: set[str] = set()
    for selector in selectors:
        wanted = selector.strip().upper()
        if not wanted:
            continue
        if wanted == "ALL":
            chosen.update(codes)
            continue
        matches = {code for code in codes if code.startswith(wanted)}
        if not matches:
            suggestion = did_you_mean(wanted, codes, quote=str)
            raise ConfigError(
                f"unknown rule selector '{selector}' in {where} (see `dagroute-lint rules`)"
                f"{suggestion}"
            )
        chosen |= matches
    return chosen


def find_config(start: Path) -> tuple[Path, dict[str, object]] | None:
    """The nearest ``pyproject.toml`` with a ``[tool.dagroute-lint]`` table, from ``start`` up,
    with its parsed document."""
    for directory in (start, *start.parents):
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            try:
                document = toml.loads(candidate.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, toml.TOMLDecodeError):
                continue
            tool = document.get("tool")
            if isinstance(tool, dict) and SECTION in tool:
                return candidate, document
    return None


def project_root(start: Path) -> Path:
    """The repository root: the nearest folder with ``.git`` or ``pyproject.toml``."""
    for directory in (start, *start.parents):
        if (directory / ".git").exists() or (directory / "pyproject.toml").is_file():
            return directory
    return start


def load_settings(config: Path | None, cwd: Path) -> Settings:
    """Settings from ``config`` (or the nearest pyproject), defaults when there is none."""
    if config is not None:
        path = config.resolve()
        document = _read_config(path)
    else:
        found = find_config(cwd.resolve())
        if found is None:
            return Settings(root=project_root(cwd.resolve()))
        path, document = found
    tool = document.get("tool", {})
    table = tool.get(SECTION, {}) if isinstance(tool, dict) else {}
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: tool.{SECTION}: expected a table")
    return _settings_from_table(table, path)


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


def _settings_from_table(table: dict[str, object], path: Path) -> Settings:
    where = f"{path}: tool.{SECTION}"
    for key in table:
        if key not in _KEYS:
            raise ConfigError(f"{where}.{key}: unknown setting{did_you_mean(key, _KEYS)}")
    root = path.parent

    def strings(key: str) -> tuple[str, ...]:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise ConfigError(f"{where}.{key}: expected a list of strings")
        return tuple(value)

    inventory = table.get("inventory")
    if inventory is not None and not isinstance(inventory, str):
        raise ConfigError(f"{where}.inventory: expected a string (a path)")
    per_file = table.get("per-file-ignores", {})
    if not isinstance(per_file, dict):
        raise ConfigError(f"{where}.per-file-ignores: expected a table of glob = [codes]")
    per_file_ignores: dict[str, frozenset[str]] = {}
    for pattern, codes in per_file.items():
        if not isinstance(codes, list) or not all(isinstance(code, str) for code in codes):
            raise ConfigError(f"{where}.per-file-ignores.{pattern}: expected a list of codes")
        # Expanded once, here, so an unknown code is reported with the file even when no file
        # matches the pattern.
        per_file_ignores[pattern] = frozenset(_expand(codes, f"{where}.per-file-ignores.{pattern}"))
    syntax = table.get("dag-ignore-file-syntax")
    if syntax is not None and syntax not in SYNTAXES:
        raise ConfigError(f"{where}.dag-ignore-file-syntax: expected one of {', '.join(SYNTAXES)}")
    settings = Settings(
        root=root,
        config_file=path,
        inventory=(root / inventory).resolve() if inventory else None,
        select=strings("select"),
        ignore=strings("ignore"),
        extend_select=strings("extend-select"),
        per_file_ignores=per_file_ignores,
        exclude=strings("exclude"),
        dags=tuple((root / item).resolve() for item in strings("dags")),
        roots=tuple((root / item).resolve() for item in strings("roots")),
        dag_ignore_file_syntax=syntax,
    )
    settings.selected_codes()  # reject unknown selectors now, with the file named
    return settings
