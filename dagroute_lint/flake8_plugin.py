"""flake8 adapter: ``flake8 --select DRL`` reports what ``dagroute-lint`` reports, file by file.

flake8 hands plugins one file at a time; the file is linted as the command line lints a buffer
from stdin, so constants imported from other modules are still read from disk (never imported).
Settings and the inventory are those of the file's project, as the command line finds them.
"""

from __future__ import annotations

import ast
import functools
import tokenize
from collections.abc import Iterator, Sequence
from pathlib import Path

from dagroute_lint import __version__, api
from dagroute_lint.errors import ConfigError
from dagroute_lint.formatters.escape import printable

# Not a rule: flake8's only way to show that dagroute-lint itself could not run on a file.
UNUSABLE = "DRL000"


class DagrouteChecker:
    """The ``DRL`` entry point of the ``flake8.extension`` group."""

    name = "dagroute-lint"
    version = __version__

    def __init__(self, tree: ast.AST, filename: str, lines: Sequence[str]) -> None:
        # ``tree`` is what makes flake8 call this plugin once per file; the extractor parses
        # with libcst from the source lines instead.
        del tree
        self.filename = filename
        self.lines = lines

    def run(self) -> Iterator[tuple[int, int, str, type[DagrouteChecker]]]:
        project = _project(Path(self.filename).absolute().parent)
        if isinstance(project, str):
            yield 1, 0, f"{UNUSABLE} {project}", type(self)
            return
        try:
            found = api.lint_buffer(self.filename, _source_bytes(self.lines), project)
        except Exception as error:  # flake8 would print a traceback; say it in one line instead
            yield 1, 0, f"{UNUSABLE} internal error: {type(error).__name__}: {error}", type(self)
            return
        for diagnostic in found.diagnostics:
            # flake8 columns are 0-based and printed plus one; ours are 1-based.
            # The severity as the command line's text shows it, so both print the same line.
            message = printable(f"{diagnostic.code} [{diagnostic.severity}] {diagnostic.message}")
            yield diagnostic.line, diagnostic.column - 1, message, type(self)


@functools.cache
def _project(folder: Path) -> api.BufferProject | str:
    """The settings and inventory of a folder's files, read once per process, or why they
    cannot be used.

    flake8 turns a plugin's exception into a traceback (from its worker processes), so a broken
    inventory becomes one ``DRL000`` line per file instead, naming the file, key and position.
    """
    try:
        return api.buffer_project(folder)
    except ConfigError as error:
        return printable(f"dagroute-lint cannot run: {error}")


def _source_bytes(lines: Sequence[str]) -> bytes:
    """flake8 decoded the file already; encode it back as declared so positions stay exact."""
    text = "".join(lines)
    head = iter(text.encode("utf-8", "surrogateescape").splitlines(keepends=True)[:2])
    try:
        encoding, _ = tokenize.detect_encoding(lambda: next(head, b""))
        return text.encode(encoding)
    except (SyntaxError, LookupError, UnicodeEncodeError):
        return text.encode("utf-8", "surrogateescape")
