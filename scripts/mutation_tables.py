"""Print the per-area and per-file tables of benchmarks/mutation.md from a mutmut run.

Usage: .venv/bin/python scripts/mutation_tables.py KILLED_BY_NEW_TESTS EXPLAINED [RESULTS]

RESULTS is the output of `mutmut results --all true` (read from the command when omitted);
KILLED_BY_NEW_TESTS holds one mutant name a line that `scripts/mutation_recheck.py` reported
killed with the tests written after the run; EXPLAINED the names of survivors that mutation.md
lists (equivalent, or open with the reason). A mutant is counted once, in the first column that
fits: killed in the run (a timeout counts as killed), killed by the new tests, survived and
explained, survived and not examined yet, not run.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

COLUMNS = ("killed in the run", "killed by the new tests", "survived, explained")
COLUMNS += ("survived, not examined", "not run")
KILLED = {"killed", "timeout"}
SURVIVED = {"survived", "no tests"}


def names(path: str) -> set[str]:
    return {line.strip() for line in Path(path).read_text().splitlines() if line.strip()}


def column(status: str, name: str, new: set[str], explained: set[str]) -> str:
    if status in KILLED:
        return COLUMNS[0]
    if name in new:
        return COLUMNS[1]
    if name in explained:
        return COLUMNS[2]
    return COLUMNS[3] if status in SURVIVED else COLUMNS[4]


def where(name: str) -> tuple[str, str]:
    """``dagroute_lint.rules.pages.x_f__mutmut_3`` -> (``rules``, ``rules/pages.py``)."""
    parts = name.split(".")
    return parts[1], "/".join(parts[1:3]) + ".py"


def table(title: str, counts: dict[str, Counter[str]]) -> str:
    lines = [f"| {title} | mutants | " + " | ".join(COLUMNS) + " |"]
    lines.append("|---|---:|" + "---:|" * len(COLUMNS))
    for key in sorted(counts):
        row = counts[key]
        cells = " | ".join(str(row[name]) for name in COLUMNS)
        lines.append(f"| `{key}` | {sum(row.values())} | {cells} |")
    return "\n".join(lines)


def main(new_file: str, explained_file: str, results_file: str | None = None) -> None:
    if results_file is None:
        command = [".venv/bin/mutmut", "results", "--all", "true"]
        results = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    else:
        results = Path(results_file).read_text()
    new, explained = names(new_file), names(explained_file)
    areas: dict[str, Counter[str]] = {}
    files: dict[str, Counter[str]] = {}
    for line in results.splitlines():
        name, _, status = line.strip().partition(": ")
        if not name.startswith("dagroute_lint."):
            continue
        area, file = where(name)
        counted = column(status, name, new, explained)
        areas.setdefault(area, Counter())[counted] += 1
        areas.setdefault("total", Counter())[counted] += 1
        files.setdefault(file, Counter())[counted] += 1
    print(table("area", areas), end="\n\n")
    print(table("file", files))


if __name__ == "__main__":
    main(*sys.argv[1:])
