"""Small phrases that messages of every stage share: "did you mean" hints, durations."""

from __future__ import annotations

from collections.abc import Callable, Iterable

# Jaro-Winkler similarity a suggestion needs: a typo ('report' for 'reports', 'bsae' for 'base')
# or a name cut short ('spark' for 'spark-image'), not a word that merely shares letters.
CLOSE_ENOUGH = 0.85
_PREFIX_WEIGHT = 0.1  # Winkler's standard scaling for the shared prefix
_MAX_PREFIX = 4
_UNITS = ((86_400, "day"), (3_600, "hour"), (60, "minute"))


def quoted(name: str) -> str:
    return f"'{name}'"


def cut(text: str, limit: int) -> str:
    """``text`` as a message quotes it: at most ``limit`` characters, a longer one ending "..."."""
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


def close_matches(name: str, choices: Iterable[str], limit: int = 1) -> list[str]:
    """The ``choices`` closest to ``name``, best first, at most ``limit`` of them.

    Closeness is Jaro-Winkler similarity: matching letters count, a swap of two letters costs
    little, and a shared start counts more than a shared end, because people mistype the end
    of a name more often than its start (``orwell_ssh_pool`` suggests ``orwell_scp_pool``, not
    ``wells_ssh_pool``). Ties go to the name of the same length, then to the first in order
    (``DRL1`` suggests ``DRL101`` before ``DRL501``).
    """
    scored = []
    for choice in sorted(set(choices)):
        score = similarity(name, choice)
        if score >= CLOSE_ENOUGH:
            scored.append((-score, abs(len(choice) - len(name)), choice))
    return [choice for *_, choice in sorted(scored)[:limit]]


def did_you_mean(name: str, choices: Iterable[str], quote: Callable[[str], str] = quoted) -> str:
    """``"; did you mean 'x'?"`` for the closest of ``choices``, else nothing."""
    close = close_matches(name, choices)
    return f"; did you mean {quote(close[0])}?" if close else ""


def similarity(first: str, second: str) -> float:
    """Jaro-Winkler similarity of two strings, from 0 (nothing shared) to 1 (equal)."""
    jaro = _jaro(first, second)
    prefix = 0
    for a, b in zip(first[:_MAX_PREFIX], second[:_MAX_PREFIX]):
        if a != b:
            break
        prefix += 1
    return jaro + prefix * _PREFIX_WEIGHT * (1 - jaro)


def _jaro(first: str, second: str) -> float:
    if first == second:
        return 1.0
    if not first or not second:
        return 0.0
    window = max(len(first), len(second)) // 2 - 1
    taken = [False] * len(second)
    matched_first = []
    for index, letter in enumerate(first):
        for other in range(max(0, index - window), min(len(second), index + window + 1)):
            if not taken[other] and second[other] == letter:
                taken[other] = True
                matched_first.append(letter)
                break
    if not matched_first:
        return 0.0
    matched_second = [letter for index, letter in enumerate(second) if taken[index]]
    swaps = sum(a != b for a, b in zip(matched_first, matched_second)) / 2
    matches = len(matched_first)
    return (matches / len(first) + matches / len(second) + (matches - swaps) / matches) / 3


def duration(seconds: float) -> str:
    """Seconds as people say them: ``7 days``, ``2 hours``, ``90 seconds``."""
    for size, unit in _UNITS:
        if seconds >= size and seconds % size == 0:
            count = int(seconds // size)
            return f"{count} {unit}{'s' if count != 1 else ''}"
    count_text = f"{seconds:g}"
    return f"{count_text} second{'s' if count_text != '1' else ''}"
