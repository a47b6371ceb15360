"""The tables shipped in ``catalog/data``, read through the package's loader.

``pkgutil.get_data`` asks the loader that imported the package, so the tables are found in a
wheel's folder as in a zip; ``importlib.resources`` would do the same but imports ``tempfile``,
``shutil`` and ``zipfile`` behind it, which a one-file run otherwise never needs.
"""

from __future__ import annotations

import bisect
import pkgutil

EMPTY = "-"  # how a table writes an empty cell


def data_lines(filename: str) -> list[str]:
    """The file's lines without blanks and ``#`` comments."""
    data = pkgutil.get_data("dagroute_lint.catalog", f"data/{filename}")
    if data is None:  # a loader that cannot read data: a packaging bug, as a missing table is
        raise RuntimeError(f"{filename}: the package's loader cannot read its data")
    text = data.decode("utf-8")
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def read_table(filename: str, columns: tuple[str, ...]) -> list[list[str | None]]:
    """Rows of a TSV table with a header of ``columns``; ``-`` cells are ``None``."""
    return SortedTable(filename, columns).all_rows()


class SortedTable:
    """A table sorted by its first column, whose rows are split only for the keys asked about.

    The largest tables (thousands of import paths) are consulted for a handful of modules by a
    run over one file: splitting every row was a fifth of such a run after start-up. Rows stay
    text until a key is looked up; ``bisect`` finds the key's rows, since the generators write
    them sorted (``tests/test_data_tables.py`` holds every sorted table to that).
    """

    def __init__(self, filename: str, columns: tuple[str, ...]) -> None:
        lines = data_lines(filename)
        if not lines or tuple(lines[0].split("\t")) != columns:
            # The data files and the code are released together; a mismatch is a packaging bug.
            raise RuntimeError(f"{filename}: expected columns {columns}")
        self.filename = filename
        self._width = len(columns)
        self._lines = lines[1:]

    def has(self, key: str) -> bool:
        """Whether some row's first cell is ``key``: one ``bisect``, no row split."""
        prefix = f"{key}\t"
        index = bisect.bisect_left(self._lines, prefix)
        return index < len(self._lines) and self._lines[index].startswith(prefix)

    def rows(self, key: str) -> list[list[str | None]]:
        """The rows whose first cell is ``key``, in table order."""
        prefix = f"{key}\t"
        found = []
        for index in range(bisect.bisect_left(self._lines, prefix), len(self._lines)):
            line = self._lines[index]
            if not line.startswith(prefix):
                break
            found.append(self._cells(line))
        return found

    def all_rows(self) -> list[list[str | None]]:
        return [self._cells(line) for line in self._lines]

    def _cells(self, line: str) -> list[str | None]:
        cells = line.split("\t")
        if len(cells) != self._width:
            raise RuntimeError(f"{self.filename}: malformed row {line!r}")
        return [None if cell == EMPTY else cell for cell in cells]
