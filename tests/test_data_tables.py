"""The shipped tables read a key at a time give exactly the rows a full read gives."""

from __future__ import annotations

import pytest

from dagroute_lint.catalog import import_verdicts, official_images, providers
from dagroute_lint.catalog.data_files import SortedTable, data_lines

SORTED_TABLES = {
    import_verdicts.VERDICTS_FILE: import_verdicts.VERDICT_COLUMNS,
    providers.IMPORT_MOVES_FILE: providers.MOVE_COLUMNS,
    official_images.IMAGES_FILE: official_images.IMAGES_COLUMNS,
}
# Fewer keys than this means a table lost most of its rows (the images table has one key per
# Airflow release since 2.9.0).
FEWEST_KEYS = {official_images.IMAGES_FILE: 30}


@pytest.mark.parametrize("filename", sorted(SORTED_TABLES))
def test_the_generators_write_the_rows_sorted(filename: str) -> None:
    rows = data_lines(filename)[1:]
    assert rows == sorted(rows)


@pytest.mark.parametrize("filename", sorted(SORTED_TABLES))
def test_rows_of_a_key_are_the_rows_whose_first_cell_it_is(filename: str) -> None:
    table = SortedTable(filename, SORTED_TABLES[filename])
    every = table.all_rows()
    keys = {row[0] for row in every if row[0] is not None}
    assert len(keys) > FEWEST_KEYS.get(filename, 100)
    for key in keys:
        assert table.rows(key) == [row for row in every if row[0] == key], key


@pytest.mark.parametrize("filename", sorted(SORTED_TABLES))
def test_a_key_that_only_begins_another_has_no_rows(filename: str) -> None:
    """``airflow.operators.bas`` begins ``airflow.operators.bash`` and is not that key."""
    table = SortedTable(filename, SORTED_TABLES[filename])
    keys = {row[0] for row in table.all_rows() if row[0] is not None}
    prefixes = {key[:-1] for key in keys} - keys
    assert prefixes
    for prefix in prefixes:
        assert table.rows(prefix) == []
    assert table.rows("") == []
    assert table.rows("zzz.not.a.module") == []


def test_a_table_with_other_columns_is_a_packaging_error() -> None:
    with pytest.raises(RuntimeError, match="expected columns"):
        SortedTable(providers.IMPORT_MOVES_FILE, ("module", "name"))


def test_lookups_agree_with_the_whole_table() -> None:
    """Every path of the moves table is found by module as it is in the full list."""
    every = providers.import_moves()
    by_module: dict[str, list[providers.Move]] = {}
    for move in every:
        by_module.setdefault(move.old_module, []).append(move)
    for module, moves in by_module.items():
        assert list(providers.module_moves(module)) == moves
    tried = import_verdicts.tried_paths()
    assert ("airflow.operators.bash", None) in tried
    assert len(tried) == len(data_lines(import_verdicts.VERDICTS_FILE)) - 1
