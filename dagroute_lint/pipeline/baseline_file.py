"""The baseline file: JSON, sorted, one entry a line, so that its diffs read as what changed.

```json
{
  "about": "...",
  "version": 1,
  "projects": {
    ".": {
      "dags/report.py": [
        {"code": "DRL101", "dag_id": "report", "task_id": "build", "item": "reports"},
        {"code": "DRL203", "item": "polars", "count": 2}
      ]
    }
  }
}
```

Writing the same baseline twice gives the same bytes (no date, no version of the tool): a file
rewritten after a run that changed nothing shows no diff. Reading is strict, as the settings
are: a mistake is an error naming the file and where in it.
"""

from __future__ import annotations

import json
from pathlib import Path

from dagroute_lint.errors import ConfigError
from dagroute_lint.pipeline.baseline import Baseline, Counts, Fingerprint
from dagroute_lint.sources.discovery import cwd_relative
from dagroute_lint.sources.files import write_atomically

VERSION = 1
ABOUT = (
    "Diagnostics dagroute-lint accepts, written by `dagroute-lint --write-baseline FILE`: with "
    "`--baseline FILE` or the `baseline` setting, only diagnostics not listed here are "
    "reported. Each project (its folder, relative to this file) lists its files (relative to "
    "the project) and their diagnostics by code, DAG, task and item, never by line, so moving "
    "code keeps them accepted. Run `--write-baseline` again to drop what no longer occurs."
)
_NAMED = ("dag_id", "task_id", "item")


def baseline_text(baseline: Baseline) -> str:
    lines = ["{", f'  "about": {_string(ABOUT)},', f'  "version": {VERSION},']
    projects = sorted(baseline.projects.items())
    if not projects:
        return "\n".join([*lines, '  "projects": {}', "}"]) + "\n"
    lines.append('  "projects": {')
    for number, (key, entries) in enumerate(projects, start=1):
        lines.append(f"    {_string(key)}: {{")
        files: dict[str, list[tuple[Fingerprint, int]]] = {}
        for entry, count in sorted(entries.items(), key=lambda item: item[0].sort_key()):
            files.setdefault(entry.file, []).append((entry, count))
        for index, (file, listed) in enumerate(files.items(), start=1):
            lines.append(f"      {_string(file)}: [")
            lines += [
                f"        {_entry(entry, count)}" + ("," if at < len(listed) else "")
                for at, (entry, count) in enumerate(listed, start=1)
            ]
            lines.append("      ]" + ("," if index < len(files) else ""))
        lines.append("    }" + ("," if number < len(projects) else ""))
    return "\n".join([*lines, "  }", "}"]) + "\n"


def _string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _entry(entry: Fingerprint, count: int) -> str:
    fields: dict[str, object] = {"code": entry.code}
    fields.update((name, value) for name, value in zip(_NAMED, entry.named()) if value is not None)
    if count > 1:
        fields["count"] = count
    return json.dumps(fields, ensure_ascii=False)


def write_baseline_file(baseline: Baseline) -> None:
    try:
        write_atomically(baseline.path, baseline_text(baseline).encode("utf-8"))
    except OSError as error:
        shown = cwd_relative(baseline.path)
        raise ConfigError(f"cannot write {shown}: {error.strerror or error}") from None


def read_baseline(path: Path) -> Baseline:
    """The baseline at ``path`` (absolute); ``ConfigError`` naming the file, and the line and
    column or the key, when it is missing or is not a baseline this version reads."""
    shown = cwd_relative(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(
            f"{shown}: no such baseline file (`--write-baseline {shown}` writes one)"
        ) from None
    except OSError as error:
        raise ConfigError(f"{shown}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{shown}: not UTF-8 text") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ConfigError(
            f"{shown}:{error.lineno}:{error.colno}: invalid JSON: {error.msg}"
        ) from None
    return Baseline(path, _projects(document, str(shown)))


def _projects(document: object, shown: str) -> dict[str, Counts]:
    if not isinstance(document, dict):
        raise ConfigError(f"{shown}: not a baseline: expected a JSON object")
    unknown = sorted(set(document) - {"about", "version", "projects"})
    if unknown:
        raise ConfigError(f"{shown}: {unknown[0]}: unknown key of a baseline")
    version = document.get("version")
    if version != VERSION:
        if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
            raise ConfigError(
                f"{shown}: version {version}: written by a newer dagroute-lint (this one reads "
                f"version {VERSION})"
            )
        raise ConfigError(f"{shown}: version: expected {VERSION}")
    projects = document.get("projects")
    if not isinstance(projects, dict):
        raise ConfigError(f"{shown}: projects: expected an object of project folders")
    found: dict[str, Counts] = {}
    for key, files in projects.items():
        where = f"projects[{_string(key)}]"
        if not isinstance(files, dict):
            raise ConfigError(f"{shown}: {where}: expected an object of files")
        entries: Counts = {}
        for file, listed in files.items():
            here = f"{where}[{_string(file)}]"
            if not isinstance(listed, list):
                raise ConfigError(f"{shown}: {here}: expected a list of entries")
            for index, value in enumerate(listed):
                entry, count = _entry_of(value, file, f"{shown}: {here}[{index}]")
                entries[entry] = entries.get(entry, 0) + count
        found[key] = entries
    return found


def _entry_of(value: object, file: str, where: str) -> tuple[Fingerprint, int]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: expected an object")
    unknown = sorted(set(value) - {"code", *_NAMED, "count"})
    if unknown:
        raise ConfigError(f"{where}.{unknown[0]}: unknown key of an entry")
    code = value.get("code")
    if not isinstance(code, str) or not code:
        raise ConfigError(f"{where}.code: expected a rule's code")
    named: list[str | None] = []
    for name in _NAMED:
        given = value.get(name)
        if given is not None and not isinstance(given, str):
            raise ConfigError(f"{where}.{name}: expected a string")
        named.append(given)
    count = value.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise ConfigError(f"{where}.count: expected a whole number from 1")
    return Fingerprint(file, code, *named), count
