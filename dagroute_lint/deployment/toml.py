"""The TOML reader: ``tomllib`` from the standard library, ``tomli`` before Python 3.11."""

from __future__ import annotations

import sys

if sys.version_info >= (3, 11):
    import tomllib as toml
else:  # pragma: no cover - exercised only on old interpreters
    import tomli as toml  # type: ignore[import-not-found, unused-ignore]

__all__ = ["toml"]
