"""Rule pages: each rule's markdown documentation, shipped in the wheel, and its example contract.

A page is ``rules/DRLnnn.md`` at the repository root. The wheel carries the folder as
``dagroute_lint/rule_pages/`` (``force-include`` in pyproject.toml); an editable install does not
see force-included files, so a checkout falls back to the ``rules/`` folder beside the package.

The machine contract of a page: at most one ```toml block (the inventory the examples assume)
and exactly two ```python blocks, the first reported (bad), the second fixed (good). A
```python block whose info string names a path (```python dags/queue.py) is a file of the
repository both examples lie in, not an example: a rule about a module beside the DAG file.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from dagroute_lint.records import record

if TYPE_CHECKING:
    from importlib.abc import Traversable

_PACKAGED = "rule_pages"
_CHECKOUT = Path(__file__).resolve().parents[2] / "rules"
_FENCE = re.compile(r"^```([^`]*)$")


class PageError(ValueError):
    """A page that breaks the machine contract; the message names the page and the problem."""


@record
class RulePage:
    """One rule's page, with the parts other tools use: description and examples."""

    code: str
    text: str
    title: str
    description: str
    inventory: str | None
    bad: str
    good: str
    beside: tuple[tuple[str, str], ...] = ()


def page_file(code: str) -> Traversable | None:
    """Where the page of ``code`` is: the packaged copy when installed, else the checkout's,
    else None (a rule pack's rules have no page)."""
    packaged = resources.files("dagroute_lint") / _PACKAGED
    folder = packaged if packaged.is_dir() else _CHECKOUT
    page = folder / f"{code}.md"
    return page if page.is_file() else None


def page_text(code: str) -> str | None:
    """The page of ``code`` (see ``page_file``)."""
    page = page_file(code)
    return page.read_text(encoding="utf-8") if page is not None else None


def load_page(code: str) -> RulePage | None:
    text = page_text(code)
    return None if text is None else parse_page(code, text)


def parse_page(code: str, text: str) -> RulePage:
    lines = text.splitlines()
    if not lines or not lines[0].startswith("# "):
        raise PageError(f"{code}.md: the first line must be the title '# {code} <name>'")
    blocks = _fenced_blocks(code, lines)
    toml = [body for language, _, body in blocks if language == "toml"]
    python = [body for language, path, body in blocks if language == "python" and not path]
    beside = tuple((path, body) for language, path, body in blocks if language == "python" and path)
    if len(toml) > 1:
        raise PageError(f"{code}.md: {len(toml)} ```toml blocks; at most one (the inventory)")
    if len(python) != 2:
        raise PageError(
            f"{code}.md: {len(python)} ```python blocks; exactly two (reported, then fixed)"
        )
    return RulePage(
        code=code,
        text=text,
        title=lines[0][2:].strip(),
        description=description(text),
        inventory=toml[0] if toml else None,
        bad=python[0],
        good=python[1],
        beside=beside,
    )


def _fenced_blocks(code: str, lines: list[str]) -> list[tuple[str, str, str]]:
    """(language, path, body) of every fenced block: the first word of the info string, and the
    second when it names a path (holds a ``/``), else ``""``."""
    blocks: list[tuple[str, str, str]] = []
    opened: tuple[int, str, str] | None = None
    body: list[str] = []
    for number, line in enumerate(lines, start=1):
        fence = _FENCE.match(line)
        if opened is None:
            if fence:
                words = [*fence.group(1).split(), "", ""]
                opened = (number, words[0], words[1] if "/" in words[1] else "")
                body = []
        elif fence and not fence.group(1).strip():
            blocks.append((opened[1], opened[2], "\n".join(body) + "\n"))
            opened = None
        else:
            body.append(line)
    if opened is not None:
        raise PageError(f"{code}.md:{opened[0]}: code block never closed")
    return blocks


def description(text: str) -> str:
    """The paragraphs between the title and the first section: what the rule reports."""
    taken: list[str] = []
    for line in text.splitlines()[1:]:
        if line.startswith("## "):
            break
        taken.append(line)
    return "\n".join(taken).strip()
