"""DRL901: ``# noqa`` codes that silence nothing, found after suppression (as ruff's RUF100)."""

from __future__ import annotations

from collections.abc import Iterator

from dagroute_lint.diagnostics import UNUSED_NOQA, Diagnostic
from dagroute_lint.rules.base import Context, Rule


def after_suppression(context: Context) -> Iterator[Diagnostic]:
    """Nothing here: whether a comment silenced anything is known only once every other rule has
    reported, so the ``# noqa`` filter (``diagnostics.unsuppressed``) reports this rule."""
    del context
    yield from ()


UNUSED_NOQA_RULE = Rule(
    code=UNUSED_NOQA,
    name="unused-noqa",
    summary="a `# noqa` code that silences no diagnostic",
    boundary="suppression",
    check=after_suppression,
    severity="warning",
    default_enabled=False,
)
