"""SARIF 2.1.0, for code scanning (GitHub and other SARIF viewers): rules with their pages, results.

Every registered rule is described, so that ``ruleIndex`` is stable from run to run and a viewer
shows a rule's page beside each result. Paths are URIs relative to ``%SRCROOT%`` (the directory
the linter ran in, normally the repository root); absolute paths become ``file:`` URIs. Each
result's ``properties`` hold the diagnostic's facts, as the JSON format's ``facts`` object, and
its ``relatedLocations`` where the routing value it is about was set (the JSON's ``related``).

A rule's ``helpUri`` points at its page where the page really is: under the documentation URL
the installed distribution declares (``[project.urls]``), else the page file this installation
ships (what ``explain`` prints). The project has no public site, and an address written here
would be a guess.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from pathlib import Path, PurePath
from typing import Any
from urllib.parse import quote

from dagroute_lint import __version__
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.formatters.json import facts_object
from dagroute_lint.rules import AnyRule
from dagroute_lint.rules.pages import description, page_file, page_text
from dagroute_lint.rules.registry import all_rules

SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
_HOME_LABELS = ("homepage", "home", "repository", "source", "documentation")
SOURCE_ROOT = "%SRCROOT%"
_INLINE_MARKUP = re.compile(r"`|\*\*")


def format_sarif(diagnostics: Sequence[Diagnostic]) -> str:
    rules = all_rules()
    index = {rule.code: position for position, rule in enumerate(rules)}
    documentation = documentation_uri()
    driver: dict[str, Any] = {
        "name": "dagroute-lint",
        "version": __version__,
        "semanticVersion": __version__,
        "rules": [_descriptor(rule, documentation) for rule in rules],
    }
    home = information_uri()
    if home is not None:
        driver["informationUri"] = home
    log = {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": driver},
                "columnKind": "unicodeCodePoints",
                "results": [_result(diagnostic, index) for diagnostic in diagnostics],
            }
        ],
    }
    # ASCII with \u escapes: any file name (even undecodable bytes) can be written anywhere.
    return json.dumps(log, indent=2) + "\n"


def information_uri() -> str | None:
    """The home page the installed distribution declares (``[project.urls]``), if any."""
    return _declared_url(_HOME_LABELS)


def documentation_uri() -> str | None:
    """The documentation URL the installed distribution declares (``[project.urls]``
    ``Documentation``): where the repository's files are read, so that a rule's page is
    ``rules/DRLnnn.md`` under it, as the README's own links resolve."""
    return _declared_url(("documentation",))


def _declared_url(labels: Sequence[str]) -> str | None:
    """The first ``Project-URL`` of the installed distribution whose label is one of
    ``labels`` (compared in lower case), in the order ``labels`` gives.

    Taken from the metadata rather than written here, so the log never points at a guess.
    Imported here: reading distribution metadata is for SARIF output only, not every lint.
    """
    from importlib import metadata

    try:
        declared: list[str] = metadata.metadata("dagroute-lint").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    found: dict[str, str] = {}
    for entry in declared:
        label, _, url = entry.partition(",")
        found.setdefault(label.strip().lower(), url.strip())
    return next((found[label] for label in labels if found.get(label)), None)


def help_uri(code: str, documentation: str | None) -> str | None:
    """Where the page of rule ``code`` can be read: under ``documentation`` when the
    distribution declares it, else the page file of this installation as a ``file:`` URI;
    ``None`` for a rule without a page (a rule pack's)."""
    page = page_file(code)
    if page is None:
        return None
    if documentation is not None:
        return f"{documentation.rstrip('/')}/rules/{quote(code)}.md"
    # A packaged page inside a zip archive has no file of its own to point at.
    return page.resolve().as_uri() if isinstance(page, Path) else None


def _descriptor(rule: AnyRule, documentation: str | None) -> dict[str, Any]:
    text = page_text(rule.code)
    descriptor: dict[str, Any] = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "defaultConfiguration": {"level": rule.severity},
        "properties": {"tags": [rule.boundary]},
    }
    if text is not None:
        descriptor["fullDescription"] = _both(description(text))
        descriptor["help"] = _both(text)
    uri = help_uri(rule.code, documentation)
    if uri is not None:
        descriptor["helpUri"] = uri
    return descriptor


def _both(markdown: str) -> dict[str, str]:
    return {"text": _plain(markdown), "markdown": markdown}


def _plain(markdown: str) -> str:
    """Markdown read as plain text: no fences or inline markup; code stays indented."""
    lines: list[str] = []
    in_code = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif in_code:
            lines.append(f"    {line}" if line else "")
        else:
            lines.append(
                _INLINE_MARKUP.sub("", line.lstrip("# ") if line.startswith("#") else line)
            )
    return "\n".join(lines).strip()


def _result(diagnostic: Diagnostic, index: dict[str, int]) -> dict[str, Any]:
    rule = index.get(diagnostic.code)
    result: dict[str, Any] = {"ruleId": diagnostic.code}
    if rule is not None:
        result["ruleIndex"] = rule
        # The finding's own level: a rule's may differ (DRL204 warns of a deprecated import and
        # errs on one that fails); ``defaultConfiguration`` holds the rule's.
        result["level"] = diagnostic.severity
    result["message"] = {"text": diagnostic.message}
    result["locations"] = [
        {
            "physicalLocation": {
                "artifactLocation": _artifact_location(diagnostic.path),
                "region": {"startLine": diagnostic.line, "startColumn": diagnostic.column},
            }
        }
    ]
    if diagnostic.related:
        result["relatedLocations"] = [
            {
                "id": number,
                "physicalLocation": {
                    "artifactLocation": _artifact_location(place.path),
                    "region": {"startLine": place.line, "startColumn": place.column},
                },
                "message": {"text": place.message},
            }
            for number, place in enumerate(diagnostic.related)
        ]
    result["properties"] = facts_object(diagnostic.facts)
    return result


def _artifact_location(path: str) -> dict[str, str]:
    """A URI reference for ``path``: its bytes percent-encoded, so no name breaks the URI syntax."""
    pure = PurePath(path)
    if pure.is_absolute():
        return {"uri": pure.as_uri()}
    return {"uri": quote(os.fsencode(pure.as_posix()), safe="/"), "uriBaseId": SOURCE_ROOT}
