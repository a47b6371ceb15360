"""The closing line of a text run, as ruff prints it, and colour where a terminal shows it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TextIO

from dagroute_lint.diagnostics import Diagnostic

_STYLES = {"bold": "1", "red": "31", "green": "32", "yellow": "33", "cyan": "36", "dim": "2"}


def wants_colour(stream: TextIO, environment: Mapping[str, str]) -> bool:
    """Colour on a terminal, unless ``NO_COLOR`` is set; ``FORCE_COLOR`` turns it on anywhere.

    Both count only when non-empty, as https://no-color.org and https://force-color.org say;
    ``NO_COLOR`` wins over ``FORCE_COLOR``.
    """
    if environment.get("NO_COLOR"):
        return False
    if environment.get("FORCE_COLOR"):
        return True
    return stream.isatty() and environment.get("TERM") != "dumb"


def paint(text: str, style: str, colour: bool) -> str:
    """``text`` in ``style`` (``"red"``, ``"bold red"``) when ``colour``, else as it is."""
    if not colour:
        return text
    codes = ";".join(_STYLES[word] for word in style.split())
    return f"\x1b[{codes}m{text}\x1b[0m"


def count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def summary_line(diagnostics: Sequence[Diagnostic], colour: bool, accepted: int = 0) -> str:
    """``Found 23 problems in 7 files (4 fixable with `--fix`).`` or ``All checks passed!``;
    ``accepted``: how many a baseline left out (``Found 2 problems (17 in the baseline) ...``).

    Files are those with a problem, not those checked.
    """
    if not diagnostics:
        passed = paint("All checks passed!", "bold green", colour)
        return f"{passed} ({count(accepted, 'problem')} in the baseline)" if accepted else passed
    files = len({diagnostic.path for diagnostic in diagnostics})
    fixable = sum(1 for diagnostic in diagnostics if diagnostic.fix is not None)
    line = f"Found {count(len(diagnostics), 'problem')}"
    if accepted:
        line += f" ({accepted} in the baseline)"
    line += f" in {count(files, 'file')}"
    if fixable:
        line += f" ({fixable} fixable with `--fix`)"
    return paint(f"{line}.", "bold", colour)


def causes_line(diagnostics: Sequence[Diagnostic]) -> str | None:
    """``DRL101: 20 problems from 2 causes: queue 'gpu' (15), queue 'ml' (5).``, printed under
    the summary: for each rule whose reports name what they share, the reports grouped by it
    (the first three, then a count), when two reports share one; else ``None``."""
    grouped: dict[str, Counter[str]] = {}
    for diagnostic in diagnostics:
        if diagnostic.cause is not None:
            grouped.setdefault(diagnostic.code, Counter())[diagnostic.cause] += 1
    parts = []
    for code, causes in sorted(grouped.items()):
        if all(n == 1 for n in causes.values()):
            continue  # no two reports share a cause: grouping would add nothing
        listed = ", ".join(f"{cause} ({n})" for cause, n in causes.most_common(3))
        more = f" and {len(causes) - 3} more" if len(causes) > 3 else ""
        problems = count(sum(causes.values()), "problem")
        parts.append(f"{code}: {problems} from {count(len(causes), 'cause')}: {listed}{more}.")
    return " ".join(parts) if parts else None
