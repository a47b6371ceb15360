"""Parse requirement strings such as ``amazon>=9`` and check their PEP 440 specifiers."""

from __future__ import annotations

import re

from dagroute_lint.records import record

# Written here rather than taken from ``packaging``, which is not a runtime dependency; only what
# the inventory needs is covered: names with extras and version specifiers (no URLs, no markers).

# PEP 508 distribution name (also fits provider ids such as ``cncf.kubernetes``).
_NAME = r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?"
_NAME_RE = re.compile(_NAME)
_REQUIREMENT_RE = re.compile(
    rf"\s*(?P<name>{_NAME})\s*(?:\[(?P<extras>[^\]]*)\])?\s*(?P<spec>.*?)\s*",
    re.DOTALL,
)

# The PEP 440 appendix B version pattern (the same one ``packaging`` uses), anchored.
_VERSION = r"""
    v?
    (?:(?P<epoch>[0-9]+)!)?
    (?P<release>[0-9]+(?:\.[0-9]+)*)
    (?P<pre>[-_.]?(?P<pre_l>alpha|a|beta|b|preview|pre|c|rc)[-_.]?(?P<pre_n>[0-9]+)?)?
    (?P<post>(?:-(?P<post_n1>[0-9]+))|(?:[-_.]?(?P<post_l>post|rev|r)[-_.]?(?P<post_n2>[0-9]+)?))?
    (?P<dev>[-_.]?(?P<dev_l>dev)[-_.]?(?P<dev_n>[0-9]+)?)?
    (?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?
"""
_VERSION_RE = re.compile(_VERSION, re.VERBOSE | re.IGNORECASE)
_PREFIX_RE = re.compile(r"v?(?:[0-9]+!)?[0-9]+(?:\.[0-9]+)*\.\*", re.IGNORECASE)
_CLAUSE_RE = re.compile(r"\s*(?P<op>~=|===|==|!=|<=|>=|<|>)\s*(?P<version>[^\s,]*)\s*")


def _quote(text: str) -> str:
    return f'"{text}"' if "'" in text else f"'{text}'"


@record
class ParsedRequirement:
    """A requirement string split into its name as written, extras and normalised specifier."""

    name: str
    extras: tuple[str, ...]
    specifier: str


def parse_requirement(text: str) -> ParsedRequirement:
    """Split ``name[extras] specifier``; raise ``ValueError`` saying what is wrong."""
    if ";" in text:
        raise ValueError(f"{_quote(text)}: environment markers (';') are not supported")
    if "@" in text:
        raise ValueError(f"{_quote(text)}: direct references ('@ url') are not supported")
    match = _REQUIREMENT_RE.fullmatch(text)
    if match is None or not match.group("name"):
        raise ValueError(
            f"{_quote(text)}: not a distribution name with an optional version specifier"
        )
    extras: tuple[str, ...] = ()
    if match.group("extras") is not None:
        extras = tuple(part.strip() for part in match.group("extras").split(","))
        bad = [extra for extra in extras if not _NAME_RE.fullmatch(extra)]
        if bad:
            raise ValueError(f"{_quote(text)}: invalid extra name '{bad[0]}'")
    spec = match.group("spec")
    # PEP 508 also allows the specifier in parentheses: ``name (>=1.0)``.
    if spec.startswith("(") and spec.endswith(")"):
        spec = spec[1:-1]
    try:
        specifier = normalise_specifier(spec)
    except ValueError as exc:
        raise ValueError(f"{_quote(text)}: {exc}") from None
    return ParsedRequirement(match.group("name"), extras, specifier)


def normalise_specifier(specifier: str) -> str:
    """Validate a PEP 440 specifier set and return it without spaces (``">=2,<3"``)."""
    if not specifier.strip():
        return ""
    clauses = []
    for clause in specifier.split(","):
        match = _CLAUSE_RE.fullmatch(clause)
        if match is None:
            if not clause.strip():
                raise ValueError("empty version specifier clause (a stray ',')")
            raise ValueError(
                f"invalid version specifier '{clause.strip()}' (expected an operator "
                "==, !=, <=, >=, <, >, ~= or === and a version)"
            )
        op, version = match.group("op"), match.group("version")
        _check_clause(op, version)
        clauses.append(op + version)
    return ",".join(clauses)


def _check_clause(op: str, version: str) -> None:
    """Apply PEP 440's per-operator limits on the version that follows the operator."""
    if not version:
        raise ValueError(f"'{op}' needs a version")
    if op == "===":
        return  # arbitrary equality: any string without spaces
    if version.endswith(".*"):
        if op not in ("==", "!=") or not _PREFIX_RE.fullmatch(version):
            raise ValueError(
                f"invalid version specifier '{op}{version}' ('.*' only after == or !=)"
            )
        return
    match = _VERSION_RE.fullmatch(version)
    if match is None:
        raise ValueError(f"invalid version '{version}' in '{op}{version}'")
    if op not in ("==", "!=") and match.group("local"):
        raise ValueError(f"invalid version specifier '{op}{version}' (local version with {op})")
    if op == "~=" and "." not in match.group("release"):
        raise ValueError(f"invalid version specifier '{op}{version}' (~= needs at least X.Y)")


def release_tuple(version: str) -> tuple[int, ...]:
    """The release segments of a PEP 440 version as written (``"2.10.5"`` -> ``(2, 10, 5)``)."""
    match = _VERSION_RE.fullmatch(version.strip())
    if match is None:
        raise ValueError(f"invalid version '{version}'")
    return tuple(int(part) for part in match.group("release").split("."))
