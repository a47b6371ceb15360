"""Entry point for ``python -m dagroute_lint``."""

from dagroute_lint.cli import console

console()
