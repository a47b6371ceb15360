"""The tables shipped in ``catalog/data``, read as resources so they work from a wheel."""

from __future__ import annotations

from importlib import resources

EMPTY = "-"  # how a table writes an empty cell


def data_lines(filename: str) -> list[str]:
    """The file's lines without blanks and ``#`` comments."""
    text = (
        resources.files("dagroute_lint.catalog")
        .joinpath("data")
        .joinpath(filename)
        .read_text("utf-8")
    )
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def read_table(filename: str, columns: tuple[str, ...]) -> list[list[str | None]]:
    """Rows of a TSV table with a header of ``columns``; ``-`` cells are ``None``."""
    lines = data_lines(filename)
    if not lines or tuple(lines[0].split("\t")) != columns:
        # The data files and the code are released together; a mismatch is a packaging bug.
        raise RuntimeError(f"{filename}: expected columns {columns}")
    rows = []
    for line in lines[1:]:
        cells = line.split("\t")
        if len(cells) != len(columns):
            raise RuntimeError(f"{filename}: malformed row {line!r}")
        rows.append([None if cell == EMPTY else cell for cell in cells])
    return rows
