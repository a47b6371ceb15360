"""The ``# noqa`` comment: how one line's comment is read, and how codes are written into one.

Reading (extraction, for every file) and writing (``--add-noqa``, the language server's
*Ignore CODE on this line*) share these patterns, and every write is read back with the
reader before it is used, so a comment written is always one that silences what it names.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence

from dagroute_lint.records import record

_CODE = r"[A-Z]+[0-9]+"
_CODES = rf"(?::\s*(?P<codes>{_CODE}(?:[,\s]+{_CODE})*))?"
_NOQA = re.compile(r"#\s*noqa" + _CODES, re.I)
_FILE_NOQA = re.compile(r"#\s*dagroute-lint\s*:\s*noqa\b" + _CODES, re.I)


@record
class Comment:
    """A line's ``# noqa`` as read: ``codes`` ``None`` for a bare one (every code), and
    ``file_level`` for a ``# dagroute-lint: noqa``, which covers the whole file."""

    codes: frozenset[str] | None
    file_level: bool = False


def read_comment(line: str) -> Comment | None:
    """The ``# noqa`` comment of one line (its text, without the line break), if it has one.

    The raw line is searched, as flake8 did before it tokenized: a ``# noqa`` inside a string
    literal counts too, which errs towards silence only where the user wrote the marker.
    """
    if "noqa" not in line.lower():
        return None
    file_level = True
    match = _FILE_NOQA.search(line)
    if match is None:
        file_level = False
        match = _NOQA.search(line)
    if match is None:
        return None
    codes = match.group("codes")
    listed = (
        frozenset(code.upper() for code in re.split(r"[,\s]+", codes) if code) if codes else None
    )
    return Comment(listed, file_level)


def silences(line: str, code: str) -> bool:
    """Whether ``line``'s own ``# noqa`` silences ``code`` (a code, a prefix of it, or bare)."""
    comment = read_comment(line)
    if comment is None or comment.file_level:
        return False
    return comment.codes is None or any(code.startswith(listed) for listed in comment.codes)


def reason_problem(reason: str) -> str | None:
    """Why ``reason`` cannot follow the codes of a comment, or ``None`` when it can: a line
    break would end the comment (other control characters would hide in it), and words right
    after the codes that look like codes (``py3``) would be read as codes."""
    if not reason.isprintable():
        return "it holds a line break or another control character"
    sample = "X1"  # any code: what matters is what the reader takes from the reason
    comment = read_comment(f"# noqa: {sample} {reason}")
    codes = comment.codes if comment is not None and comment.codes is not None else frozenset()
    misread = sorted(codes - {sample})
    if misread:
        return f"`# noqa` would read {', '.join(misread)} in it as a code"
    return None


def insertion(
    line: str, codes: Sequence[str], reason: str = "", comment_at: int | None = None
) -> tuple[int, str] | None:
    """Where in ``line`` (its text, without the line break) to insert what, so that its
    ``# noqa`` also silences ``codes``; ``None`` when no insertion would be read so.

    A ``# noqa: X`` list gets the codes after its own, and the comment keeps its words;
    otherwise ``  # noqa: CODES REASON`` goes after the line's text. ``comment_at`` is the
    column (from 0) where the line's comment starts, ``len(line)`` when it has none (see
    ``layout``), so that a list inside a string literal is never extended; ``None`` when it is
    not known. Nothing is ever removed, so the insertion is the whole edit.
    """
    wanted = list(dict.fromkeys(codes))
    found = _NOQA.search(line, comment_at or 0)
    if found is not None and found.group("codes"):
        at, text = found.end("codes"), "".join(f", {code}" for code in wanted)
    else:
        at = len(line.rstrip())
        text = "# noqa: " + ", ".join(wanted) + (f" {reason}" if reason else "")
        if line[:at].strip():
            text = "  " + text
    written = line[:at] + text + line[at:]
    return (at, text) if all(silences(written, code) for code in wanted) else None


@record
class Layout:
    """Where comments can go in a file's lines (numbered from 1): the column (from 0) where each
    line's comment starts, and the lines whose end cannot take one, with why."""

    comments: dict[int, int]
    blocked: dict[int, str]


_IN_STRING = "the line ends inside a multi-line string"


def layout(text: str) -> Layout | None:
    """The file's ``Layout``, from its tokens; ``None`` when it cannot be tokenized.

    A comment cannot end a line that ends inside a string (it would be part of the string) or
    one continued with a backslash (the backslash must be the line's last character).
    """
    import tokenize  # only runs that write comments need the tokenizer

    fstring_start = getattr(tokenize, "FSTRING_START", None)  # Python 3.12 and later
    fstring_end = getattr(tokenize, "FSTRING_END", None)
    comments: dict[int, int] = {}
    blocked: dict[int, str] = {}
    opened: list[int] = []  # the lines f-strings being read started on
    # Universal newlines: the tokenizer then numbers lines as Python (and the reader) do.
    stream = io.StringIO(text, newline=None)
    lines: list[str] = []

    def readline() -> str:
        line = stream.readline()
        lines.append(line)
        return line

    try:
        for token in tokenize.generate_tokens(readline):
            first, last = token.start[0], token.end[0]
            if token.type == tokenize.COMMENT:
                comments[first] = token.start[1]
            elif token.type == fstring_start:
                opened.append(first)
            elif token.type == fstring_end and opened:
                first = opened.pop()
            if token.type in (tokenize.STRING, fstring_end) and first < last:
                blocked.update(dict.fromkeys(range(first, last), _IN_STRING))
    except (tokenize.TokenError, SyntaxError):
        return None
    for number, line in enumerate(lines, start=1):
        if number not in blocked and number not in comments and line.rstrip("\n").endswith("\\"):
            blocked[number] = "the line continues with a backslash"
    return Layout(comments, blocked)
