"""Turn one source file into a ``Module`` model: decode, parse with libcst, walk, never execute."""

from __future__ import annotations

from dagroute_lint.extract.module import extract_module

__all__ = ["extract_module"]
