"""``--add-noqa``: write ``# noqa: CODE`` on each line a diagnostic is reported on, as ruff does.

The comment goes on the diagnostic's line, since that is the line ``# noqa`` is read from: into
the line's ``# noqa: X`` list when it has one, else after everything on the line. A line whose
end cannot take a comment (inside a multi-line string, or continued with a backslash) is left
as it is and named; so is every line of a file the tokenizer refuses. ``noqa.insertion`` reads
each comment back before it is written, so what is written silences what it names.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable
from dataclasses import field
from pathlib import Path

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.noqa import insertion, layout
from dagroute_lint.records import record
from dagroute_lint.sources.files import write_atomically

# A line and its break, as Python breaks lines (``str.splitlines`` also breaks at form feeds).
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


@record
class Skipped:
    """A line no comment was written on, the codes it would have named, and why."""

    path: str
    line: int
    codes: tuple[str, ...]
    why: str


@record(frozen=False)
class NoqaOutcome:
    """What ``add_noqa`` did: diagnostics now silenced, the files written, and what it left."""

    silenced: int = 0
    files: list[str] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    changed_on_disk: list[str] = field(default_factory=list)


def add_noqa(diagnostics: Iterable[Diagnostic], reason: str = "") -> NoqaOutcome:
    """Write a ``# noqa`` for every diagnostic into its file (each file atomically), with
    ``reason`` after the codes of each new comment (``noqa.reason_problem`` says which reasons
    can be read back). A file that changes on disk meanwhile is not written."""
    by_path: dict[str, dict[int, list[Diagnostic]]] = {}
    for diagnostic in diagnostics:
        by_path.setdefault(diagnostic.path, {}).setdefault(diagnostic.line, []).append(diagnostic)
    outcome = NoqaOutcome()
    for path, by_line in sorted(by_path.items()):
        _add_to_file(Path(path), path, by_line, reason, outcome)
    return outcome


def _add_to_file(
    file: Path,
    path: str,
    by_line: dict[int, list[Diagnostic]],
    reason: str,
    outcome: NoqaOutcome,
) -> None:
    def skip(line: int, why: str) -> None:
        codes = tuple(dict.fromkeys(d.code for d in by_line[line]))
        outcome.skipped.append(Skipped(path, line, codes, why))

    try:
        before = file.read_bytes()
        encoding, _ = tokenize.detect_encoding(io.BytesIO(before).readline)
        text = before.decode(encoding)
    except (OSError, SyntaxError, UnicodeDecodeError, LookupError):
        for line in sorted(by_line):
            skip(line, "the file cannot be read as Python source")
        return
    where = layout(text)
    lines = _LINE.findall(text)
    edited_lines: list[int] = []
    for number in sorted(by_line):
        if where is None:
            skip(number, "the file cannot be tokenized")
            continue
        if number in where.blocked or number > max(len(lines), 1):
            skip(number, where.blocked.get(number, "the file has no such line"))
            continue
        whole = lines[number - 1] if lines else ""
        content = whole.rstrip("\r\n")
        codes = sorted({d.code for d in by_line[number]})
        comment_at = where.comments.get(number, len(content))
        found = insertion(content, codes, reason, comment_at)
        if found is None:
            skip(number, "a `# noqa` in a string on the line would hide the comment")
            continue
        at, inserted = found
        edited = content[:at] + inserted + content[at:] + whole[len(content) :]
        if lines:
            lines[number - 1] = edited
        else:
            lines = [edited]
        edited_lines.append(number)
    if not edited_lines:
        return
    try:
        after = "".join(lines).encode(encoding)
    except UnicodeEncodeError:
        for line in edited_lines:
            skip(line, f"the reason cannot be written in the file's encoding ({encoding})")
        return
    # Right before the write: never overwrite what someone saved since it was read.
    try:
        now = file.read_bytes()
    except OSError:
        now = None
    if now != before:
        outcome.changed_on_disk.append(path)
        return
    write_atomically(file, after)
    outcome.files.append(path)
    outcome.silenced += sum(len(by_line[number]) for number in edited_lines)
