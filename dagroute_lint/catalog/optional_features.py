"""Provider modules that refuse to import without an optional dependency, and what they need.

Read from real provider wheels by ``scripts/generate_optional_features.py``
(``data/optional_features.tsv``): a module whose top level turns the ``ImportError`` of an
optional dependency into ``AirflowOptionalProviderFeatureException``, and every provider module
that imports one such module at its top level, fails to import where that dependency is missing,
although its provider is installed.
"""

from __future__ import annotations

import functools

from dagroute_lint.catalog.data_files import read_table

OPTIONAL_FEATURES_FILE = "optional_features.tsv"
EXCEPTION = "AirflowOptionalProviderFeatureException"


def optional_needs(module: str) -> tuple[str, ...]:
    """The modules importing provider module ``module`` needs besides its provider (none for
    any other module)."""
    return _table().get(module, ())


@functools.cache
def _table() -> dict[str, tuple[str, ...]]:
    table: dict[str, tuple[str, ...]] = {}
    for module, needs, _, _ in read_table(
        OPTIONAL_FEATURES_FILE, ("module", "needs", "provider", "version")
    ):
        assert module is not None and needs is not None, f"{OPTIONAL_FEATURES_FILE}: empty cell"
        table[module] = (*table.get(module, ()), needs)
    return table
