"""Print, per DAG file of a corpus, how many of Airflow's tasks routes gets exact, unresolved, wrong
or misses: the recall table of tests/conformance/README.md.

    python tests/conformance/recall.py idioms2 [--version 3.3.2] [--format markdown|json]

A task is *exact* when every compared field is, *wrong* when a routing field (queue, executor,
pool, pool_slots, deferrable) is, *wrong operator* when only ``operator`` or ``mapped`` is,
*unresolved* when any field is unresolved without candidates (and none wrong), *candidates* when
the fields that are not exact are each one of several values holding Airflow's, *missing* when
routes lacks it and no DRL106 announces its file, *missing announced* when one does. *Extra*
counts tasks routes reports that Airflow does not build. A generated corpus is a folder too:
``python tests/conformance/generate.py /tmp/gen && python tests/conformance/recall.py /tmp/gen``.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from airflow_env import ORACLES, ensure_airflow_venv  # noqa: E402
from harness import run_corpus  # noqa: E402
from routes_compare import CorpusReport, compare  # noqa: E402

COLUMNS = (
    "tasks",
    "exact",
    "candidates",
    "unresolved",
    "wrong",
    "wrong operator",
    "missing",
    "missing announced",
    "extra",
)
ROUTING = frozenset({"queue", "executor", "pool", "pool_slots", "deferrable"})


def per_file(
    report: CorpusReport, airflow_tasks: list[Mapping[str, Any]]
) -> dict[str, dict[str, int]]:
    """File -> counts of tasks in each category (see the module docstring)."""
    rows: dict[str, dict[str, int]] = {}

    def row(file: str) -> dict[str, int]:
        return rows.setdefault(file, dict.fromkeys(COLUMNS, 0))

    for task in airflow_tasks:
        row(task["file"])["tasks"] += 1
    wrong = {(e["file"], e["dag_id"], e["task_id"]) for e in report.wrong if e["field"] in ROUTING}
    wrong_operator = {(e["file"], e["dag_id"], e["task_id"]) for e in report.wrong}
    unresolved = {
        (e["file"], e["dag_id"], e["task_id"])
        for e in report.unresolved + report.unexpected_unresolved
    }
    candidates = {(e["file"], e["dag_id"], e["task_id"]) for e in report.candidates}
    missing = {(e["file"], e["dag_id"], e["task_id"]) for e in report.missing}
    announced = {(e["file"], e["dag_id"], e["task_id"]) for e in report.missing_announced}
    for task in airflow_tasks:
        key = (task["file"], task["dag_id"], task["task_id"])
        if key in missing:
            category = "missing"
        elif key in announced:
            category = "missing announced"
        elif key in wrong:
            category = "wrong"
        elif key in wrong_operator:
            category = "wrong operator"
        elif key in unresolved:
            category = "unresolved"
        elif key in candidates:
            category = "candidates"
        else:
            category = "exact"
        row(task["file"])[category] += 1
    for entry in report.extra:
        row(str(entry["file"]))["extra"] += 1
    return dict(sorted(rows.items()))


def _summary(path: Path) -> str:
    try:
        docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    except (OSError, SyntaxError):
        return ""
    # A table cell: a literal "|" (the "|" operator in a docstring) must not end it.
    return docstring.splitlines()[0].replace("|", "\\|") if docstring else ""


def markdown(rows: Mapping[str, Mapping[str, int]], folder: Path, title: str) -> str:
    lines = [
        f"{title}",
        "",
        "| file | idiom | " + " | ".join(COLUMNS) + " |",
        "|---|---|" + "---:|" * len(COLUMNS),
    ]
    totals = dict.fromkeys(COLUMNS, 0)
    for file, counts in rows.items():
        lines.append(
            f"| `{file}` | {_summary(folder / file)} | "
            + " | ".join(str(counts[c]) for c in COLUMNS)
            + " |"
        )
        for column in COLUMNS:
            totals[column] += counts[column]
    lines.append("| **total** | | " + " | ".join(f"**{totals[c]}**" for c in COLUMNS) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", help="a folder under tests/conformance/corpora, or a path")
    parser.add_argument("--version", default="3.3.2", choices=sorted(ORACLES))
    parser.add_argument("--format", default="markdown", choices=("markdown", "json"))
    args = parser.parse_args(argv)
    folder = Path(args.corpus)
    if not folder.is_dir():
        folder = HERE / "corpora" / args.corpus
    env = ensure_airflow_venv(oracle=ORACLES[args.version])
    with tempfile.TemporaryDirectory(prefix="dagroute-recall-") as scratch:
        run = run_corpus(folder.name, env, folder.resolve(), Path(scratch))
        report = compare(
            run.name,
            run.dump,
            run.routes,
            folder=run.folder,
            routes_cwd=run.workdir,
            announcements=run.announcements,
        )
        rows = per_file(report, run.dump["tasks"])
    if args.format == "json":
        print(json.dumps(rows, indent=2))
    else:
        print(markdown(rows, folder, f"{folder.name} @ Airflow {args.version}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
