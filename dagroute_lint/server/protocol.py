"""Our diagnostics and fixes as LSP values: ranges in UTF-16 code units, edits, code actions."""

from __future__ import annotations

import re
from collections.abc import Sequence

from lsprotocol import types

from dagroute_lint.diagnostics import Diagnostic, Related
from dagroute_lint.formatters.json import facts_object
from dagroute_lint.model import Position
from dagroute_lint.noqa import Layout, insertion

SOURCE = "dagroute-lint"
FIX_ALL = types.CodeActionKind.SourceFixAll + ".dagroute-lint"
_SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}
# A line with its break. Python and the LSP both break lines at \n, \r\n and \r only, where
# ``str.splitlines`` also breaks at form feeds and other separators a string literal may hold.
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def lines_of(text: str) -> list[str]:
    """The lines of ``text`` as Python numbers them, each with its line break."""
    return _LINE.findall(text)


def utf16(text: str) -> int:
    """Length of ``text`` in UTF-16 code units, the LSP's default unit of columns."""
    return len(text.encode("utf-16-le")) // 2


def lsp_position(lines: Sequence[str], position: Position) -> types.Position:
    """A 1-based line and code-point column as an LSP position (0-based, UTF-16)."""
    line = min(max(position.line - 1, 0), max(len(lines) - 1, 0))
    text = lines[line] if lines else ""
    return types.Position(line, utf16(text[: max(position.column - 1, 0)]))


def lsp_diagnostic(
    lines: Sequence[str], diagnostic: Diagnostic, uri: str | None = None
) -> types.Diagnostic:
    """The diagnostic, spanning from its position to the end of its line's code, with its facts
    in ``data`` (as the JSON format's ``facts`` object) for clients that act on them, and the
    places that set its routing value in ``relatedInformation``: in the document ``uri`` (the
    one ``lines`` are of) when they are in the diagnostic's file."""
    start = lsp_position(lines, Position(diagnostic.line, diagnostic.column))
    text = lines[start.line] if lines else ""
    end = types.Position(start.line, max(utf16(text.rstrip()), start.character))
    related = None
    if diagnostic.related:
        related = [
            types.DiagnosticRelatedInformation(
                location=types.Location(
                    uri if uri is not None and place.path == diagnostic.path else _uri(place.path),
                    _line_range(lines if place.path == diagnostic.path else [], place),
                ),
                message=place.message,
            )
            for place in diagnostic.related
        ]
    return types.Diagnostic(
        range=types.Range(start, end),
        message=diagnostic.message,
        severity=_SEVERITY[diagnostic.severity],
        code=diagnostic.code,
        source=SOURCE,
        data=facts_object(diagnostic.facts),
        related_information=related,
    )


def _uri(path: str) -> str:
    from pathlib import Path

    return Path(path).resolve().as_uri()


def _line_range(lines: Sequence[str], place: Related) -> types.Range:
    """From the place to the end of its line's code (its start only, in another file)."""
    if not lines:
        start = types.Position(max(place.line - 1, 0), max(place.column - 1, 0))
        return types.Range(start, start)
    start = lsp_position(lines, Position(place.line, place.column))
    end = max(utf16(lines[start.line].rstrip()), start.character)
    return types.Range(start, types.Position(start.line, end))


def unusable(message: str) -> types.Diagnostic:
    """Why nothing could be checked in the document, on its first line: never a silent pass."""
    return types.Diagnostic(
        range=types.Range(types.Position(0, 0), types.Position(0, 0)),
        message=f"dagroute-lint cannot run: {message}",
        severity=types.DiagnosticSeverity.Error,
        source=SOURCE,
    )


def replacement(before: str, after: str) -> types.TextEdit:
    """One edit turning ``before`` into ``after``: the lines between their common ends."""
    old, new = lines_of(before), lines_of(after)
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    end_line = len(old) - tail
    if tail or not old or old[-1].endswith(("\n", "\r")):
        end = types.Position(end_line, 0)
    else:  # the edit reaches the last line, which has no line break
        end = types.Position(len(old) - 1, utf16(old[-1]))
    return types.TextEdit(
        range=types.Range(types.Position(head, 0), end),
        new_text="".join(new[head : len(new) - tail]),
    )


def noqa_edit(
    lines: Sequence[str], diagnostic: Diagnostic, layout: Layout | None
) -> types.TextEdit | None:
    """Add the diagnostic's code to its line's ``# noqa: ...``, or append ``# noqa: CODE``, as
    ``--add-noqa`` writes it; ``None`` where the line cannot take the comment (it ends inside a
    string, say). ``layout`` is the document's (``None`` when it cannot be tokenized now)."""
    index = diagnostic.line - 1
    text = lines[index].rstrip("\r\n") if index < len(lines) else ""
    comment_at = None
    if layout is not None:
        if diagnostic.line in layout.blocked:
            return None
        comment_at = layout.comments.get(diagnostic.line, len(text))
    found = insertion(text, [diagnostic.code], comment_at=comment_at)
    if found is None:
        return None
    at, insert = found
    position = types.Position(index, utf16(text[:at]))
    return types.TextEdit(range=types.Range(position, position), new_text=insert)


def workspace_edit(
    uri: str, version: int | None, edits: list[types.TextEdit]
) -> types.WorkspaceEdit:
    """Edits of one document, applied only to the version they were computed for."""
    document = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
    return types.WorkspaceEdit(
        document_changes=[types.TextDocumentEdit(text_document=document, edits=list(edits))]
    )
