"""Parse requirement strings such as ``amazon>=9`` and compare PEP 440 versions."""

from __future__ import annotations

import re
from dataclasses import dataclass

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
_PRE_RANK = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2, "pre": 2, "preview": 2}


def _quote(text: str) -> str:
    return f'"{text}"' if "'" in text else f"'{text}'"


@dataclass(frozen=True)
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


@dataclass(frozen=True, order=True)
class _Version:
    """A PEP 440 version reduced to a sort key; ``local`` is kept aside for ``==``."""

    epoch: int
    release: tuple[int, ...]
    pre: tuple[int, ...]
    post: tuple[int, ...]
    dev: tuple[int, ...]
    local: str | None

    @property
    def is_prerelease(self) -> bool:
        return self.pre[0] == 0 or self.dev[0] == 0

    @property
    def is_postrelease(self) -> bool:
        return self.post[0] == 0


def _parse_version(text: str) -> _Version:
    match = _VERSION_RE.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"invalid version '{text}'")
    release = tuple(int(part) for part in match.group("release").split("."))
    while len(release) > 1 and release[-1] == 0:
        release = release[:-1]  # 1.0 == 1.0.0
    pre_l, post_n, dev_l = match.group("pre_l"), None, match.group("dev_l")
    if match.group("post"):
        post_n = int(match.group("post_n1") or match.group("post_n2") or 0)
    # Sort order from PEP 440: X.devN < X.aN < X.bN < X.rcN < X < X.postN.
    if pre_l:
        pre: tuple[int, ...] = (0, _PRE_RANK[pre_l.lower()], int(match.group("pre_n") or 0))
    elif dev_l and post_n is None:
        pre = (-1,)
    else:
        pre = (1,)
    post: tuple[int, ...] = (-1,) if post_n is None else (0, post_n)
    dev: tuple[int, ...] = (1,) if not dev_l else (0, int(match.group("dev_n") or 0))
    local = match.group("local")
    return _Version(
        int(match.group("epoch") or 0), release, pre, post, dev, local.lower() if local else None
    )


def _public(version: _Version) -> _Version:
    return _Version(version.epoch, version.release, version.pre, version.post, version.dev, None)


def _base(version: _Version) -> tuple[int, tuple[int, ...]]:
    return version.epoch, version.release


def _release_as_written(version: str) -> tuple[int, tuple[int, ...]]:
    """Epoch and release segments without trimming zeros: ``~=2.0`` and ``==2.0.*`` need them."""
    match = _VERSION_RE.match(version.strip())
    if match is None:
        raise ValueError(f"invalid version '{version}'")
    release = tuple(int(part) for part in match.group("release").split("."))
    return int(match.group("epoch") or 0), release


def _prefix_match(candidate: _Version, epoch: int, prefix: tuple[int, ...]) -> bool:
    padded = candidate.release + (0,) * max(0, len(prefix) - len(candidate.release))
    return candidate.epoch == epoch and padded[: len(prefix)] == prefix


def _clause_holds(candidate: _Version, raw: str, op: str, version: str) -> bool:
    if op == "===":
        return raw.strip().lower() == version.lower()
    if op in ("==", "!="):
        if version.endswith(".*"):
            equal = _prefix_match(candidate, *_release_as_written(version[: -len(".*")]))
        else:
            wanted = _parse_version(version)
            # Without a local label in the specifier, the candidate's local label is ignored.
            equal = (candidate if wanted.local else _public(candidate)) == wanted
        return equal if op == "==" else not equal
    wanted = _parse_version(version)
    public = _public(candidate)
    if op == "~=":
        # ~=X.Y.Z means >=X.Y.Z together with ==X.Y.*
        epoch, release = _release_as_written(version)
        return public >= wanted and _prefix_match(candidate, epoch, release[:-1])
    if op == ">=":
        return public >= wanted
    if op == "<=":
        return public <= wanted
    if op == ">":
        # PEP 440: >V excludes post-releases of V unless V is itself a post-release.
        if (
            not wanted.is_postrelease
            and candidate.is_postrelease
            and _base(candidate) == _base(wanted)
        ):
            return False
        return public > wanted
    # op == "<": excludes pre-releases of V unless V is itself a pre-release.
    if not wanted.is_prerelease and candidate.is_prerelease and _base(candidate) == _base(wanted):
        return False
    return public < wanted


def satisfies(version: str, specifier: str) -> bool:
    """Whether ``version`` meets every clause of ``specifier`` (``""`` accepts any version).

    Unlike ``packaging``, a pre-release is judged on its value and never excluded just for
    being a pre-release: the question here is whether a version that is installed fits.
    """
    candidate = _parse_version(version)
    for clause in normalise_specifier(specifier).split(","):
        if not clause:
            continue
        match = _CLAUSE_RE.fullmatch(clause)
        assert match is not None  # normalise_specifier validated it
        if not _clause_holds(candidate, version, match.group("op"), match.group("version")):
            return False
    return True


def release_tuple(version: str) -> tuple[int, ...]:
    """The release segments of a PEP 440 version as written (``"2.10.5"`` -> ``(2, 10, 5)``)."""
    if _VERSION_RE.fullmatch(version.strip()) is None:
        raise ValueError(f"invalid version '{version}'")
    return _release_as_written(version)[1]
