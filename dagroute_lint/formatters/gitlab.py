"""GitLab Code Quality report: the merge request widget lists new and fixed problems from it.

GitLab keys each issue by its ``fingerprint`` to tell new problems from fixed ones between the
base and the merge request, and shows only the first issue of a fingerprint. The fingerprint is
therefore stable when lines move (no line numbers in it) and unique within a report (identical
problems in one file are numbered). A diagnostic whose facts name what it is about (an item) is
told from others by those facts, so a reworded message (or a changed list of workers in it)
keeps its fingerprint; one whose facts name no item, by its message. The format has no place
for the facts themselves: GitLab reads only the fields written here.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.sources.discovery import cwd_relative

# GitLab's scale is info, minor, major, critical, blocker: an error (a task that will fail) is
# major, a warning (a failure possible but unproven) minor.
SEVERITY = {"error": "major", "warning": "minor"}


def _identity(diagnostic: Diagnostic) -> str:
    """What tells the problem from others of its rule in its file, wherever its line is."""
    facts = diagnostic.facts
    if facts.item is None:
        return diagnostic.message
    tasks = [[dag_id, task_id] for dag_id, task_id in facts.tasks]
    return json.dumps([facts.kind, facts.item, facts.dag_id, tasks])


def format_gitlab(diagnostics: Sequence[Diagnostic]) -> str:
    seen: Counter[tuple[str, str, str]] = Counter()
    issues = []
    for d in diagnostics:
        path = _repository_path(d.path)
        key = (d.code, path, _identity(d))
        occurrence = seen[key]
        seen[key] += 1
        digest = hashlib.sha256("\0".join((*key, str(occurrence))).encode("utf-8"))
        issues.append(
            {
                "description": f"{d.code} {d.message}",
                "check_name": d.code,
                "fingerprint": digest.hexdigest()[:32],
                "severity": SEVERITY[d.severity],
                "location": {"path": path, "lines": {"begin": d.line}},
            }
        )
    return json.dumps(issues, indent=2) + "\n"


def _repository_path(shown: str) -> str:
    """GitLab wants paths relative to the repository root, which is where CI jobs run."""
    return cwd_relative(Path(shown)).as_posix()
