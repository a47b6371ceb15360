"""The gaps the evaluator has not closed yet, corpus by corpus: a ratchet, never a licence.

A wrong value, a stale allow-list entry or a duplicate task always fails. What may be listed in
``open_gaps.json`` is only what the evaluator honestly does not know yet: a static value it
leaves unresolved, a task it cannot see, a task whose id it cannot resolve. The list is exact
both ways: a gap not listed fails (a regression), and a listed gap that is closed fails too
(the entry is stale), so the file always says precisely how far routes is from Airflow.

Rewrite it after a change that closes gaps with ``DAGROUTE_UPDATE_GAPS=1 pytest
tests/conformance``; its diff is the progress made.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

GAPS_FILE = Path(__file__).resolve().parent / "open_gaps.json"


def _task(entry: dict[str, Any]) -> str:
    where = f" (line {entry['line']})" if entry.get("line") else ""
    return f"{entry['file']}::{entry.get('dag_id')}::{entry.get('task_id')}{where}"


def gaps(kind: str, entries: list[dict[str, Any]]) -> list[str]:
    if kind == "unresolved":
        return sorted({f"unresolved {_task(e)} {e['field']}" for e in entries})
    return sorted({f"{kind} {_task(e)}" for e in entries})


def _load() -> dict[str, list[str]]:
    if not GAPS_FILE.is_file():
        return {}
    loaded: dict[str, list[str]] = json.loads(GAPS_FILE.read_text(encoding="utf-8"))
    return loaded


def check(key: str, found: list[str]) -> str | None:
    """Why ``found`` differs from the listed gaps of ``key``, or None; with
    ``DAGROUTE_UPDATE_GAPS=1`` the list is rewritten to ``found`` instead."""
    listed = _load()
    if os.environ.get("DAGROUTE_UPDATE_GAPS") == "1":
        if found:
            listed[key] = found
        else:
            listed.pop(key, None)
        text = json.dumps(dict(sorted(listed.items())), indent=1) + "\n"
        GAPS_FILE.write_text(text, encoding="utf-8")
        return None
    expected = set(listed.get(key, []))
    new, closed = sorted(set(found) - expected), sorted(expected - set(found))
    if not new and not closed:
        return None
    lines = [f"{key}: the open gaps changed (tests/conformance/open_gaps.py)"]
    lines += [f"  NEW (a regression, or a gap to fix): {gap}" for gap in new[:40]]
    lines += [f"  CLOSED (remove it: DAGROUTE_UPDATE_GAPS=1): {gap}" for gap in closed[:40]]
    if len(new) + len(closed) > 80:
        lines.append(f"  ... {len(new) + len(closed) - 80} more")
    return "\n".join(lines)
