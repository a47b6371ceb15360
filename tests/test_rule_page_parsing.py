"""How a rule page is read: its title, the description right under it, and which fenced blocks
are the examples (a bare fence is neither)."""

from __future__ import annotations

from dagroute_lint.rules.pages import RulePage, load_page, parse_page

PAGE = """\
# DRL999 made-up
Reports what a made-up rule reports.

```
a bare block, not an example
```

## Example

```python
bad = 1
```

```python
good = 1
```
"""


def test_a_page_is_parsed_into_its_parts() -> None:
    assert parse_page("DRL999", PAGE) == RulePage(
        code="DRL999",
        text=PAGE,
        title="DRL999 made-up",
        description=(
            "Reports what a made-up rule reports.\n\n```\na bare block, not an example\n```"
        ),
        inventory=None,
        bad="bad = 1\n",
        good="good = 1\n",
    )


def test_pages_are_found_by_code() -> None:
    page = load_page("DRL101")
    assert page is not None and page.code == "DRL101"
    assert page.title.startswith("DRL101 ")
    assert load_page("DRL999") is None
