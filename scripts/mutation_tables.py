"""Print the per-area and per-file tables of benchmarks/mutation.md from a mutmut run.

Usage: .venv/bin/python scripts/mutation_tables.py KILLED_BY_NEW_TESTS EXPLAINED
           [--rechecked RECHECKED] [RESULTS]

RESULTS is the output of `mutmut results --all true` (read from the command when omitted);
KILLED_BY_NEW_TESTS holds one mutant name a line that `scripts/mutation_recheck.py` reported
killed with the tests written after the run; EXPLAINED the names of survivors that mutation.md
lists (equivalent, or open with the reason); RECHECKED the mutants mutmut had not run that
`scripts/mutation_recheck.py` reported killed (or timed out) with a subset of the existing tests
(the pre-screen). A mutant is counted once, in the first column that fits: killed in the run (a
timeout counts as killed), killed by the existing tests in the re-check, killed by the new tests,
survived and explained, survived and not examined yet, not run.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

COLUMNS = (
    "killed in the run",
    "killed by the existing tests (re-check)",
    "killed by the new tests",
    "survived, explained",
    "survived, not examined",
    "not run",
)
KILLED = {"killed", "timeout"}
SURVIVED = {"survived", "no tests"}


def names(path: str) -> set[str]:
    return {line.strip() for line in Path(path).read_text().splitlines() if line.strip()}


def column(status: str, name: str, new: set[str], explained: set[str], rechecked: set[str]) -> str:
    if status in KILLED:
        return COLUMNS[0]
    if name in rechecked:
        return COLUMNS[1]
    if name in new:
        return COLUMNS[2]
    if name in explained:
        return COLUMNS[3]
    return COLUMNS[4] if status in SURVIVED else COLUMNS[5]


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


def main(
    new_file: str, explained_file: str, rechecked_file: str | None, results_file: str | None
) -> None:
    if results_file is None:
        command = [".venv/bin/mutmut", "results", "--all", "true"]
        results = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    else:
        results = Path(results_file).read_text()
    new, explained = names(new_file), names(explained_file)
    rechecked = names(rechecked_file) if rechecked_file is not None else set()
    areas: dict[str, Counter[str]] = {}
    files: dict[str, Counter[str]] = {}
    for line in results.splitlines():
        name, _, status = line.strip().partition(": ")
        if not name.startswith("dagroute_lint."):
            continue
        area, file = where(name)
        counted = column(status, name, new, explained, rechecked)
        areas.setdefault(area, Counter())[counted] += 1
        areas.setdefault("total", Counter())[counted] += 1
        files.setdefault(file, Counter())[counted] += 1
    print(table("area", areas), end="\n\n")
    print(table("file", files))


def parse(args: list[str]) -> tuple[str, str, str | None, str | None]:
    rechecked: str | None = None
    if "--rechecked" in args:
        at = args.index("--rechecked")
        rechecked = args[at + 1]
        args = args[:at] + args[at + 2 :]
    new_file, explained_file, *rest = args
    return new_file, explained_file, rechecked, rest[0] if rest else None


if __name__ == "__main__":
    main(*parse(sys.argv[1:]))
