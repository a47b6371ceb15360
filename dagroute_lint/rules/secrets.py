"""DRL401: credentials written into DAG files, where every reader of the repository sees them.

Every pattern here is linear in the length of the text: no nested quantifiers, and the URI pattern
can only start at a literal ``://``, whose runs stop at the next ``/``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.records import record
from dagroute_lint.rules.arguments import written_settings
from dagroute_lint.rules.base import Context, Rule

# Names whose last word says "this value is a secret": password, db_password, api_key, apiKey,
# aws_secret_access_key, client_secret, auth_token. ``token_url`` or ``secret_name`` are not.
_SECRET_NAME = re.compile(
    r"(?:^|_)(?:password|passwd|passphrase|secret|token|api_?key|access_?key|secret_?key"
    r"|private_?key|auth_?key|authorization)$"
)
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
# ``scheme://user:password@host``; the user may be empty (``redis://:password@host``). The scheme
# is read backwards from ``://`` in plain Python, so the pattern starts with a literal.
_URI_PASSWORD = re.compile(r"://([^/\s:@]*):([^/\s@]+)@")
_SCHEME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-")
_MAX_SCHEME = 32
# Values that stand for a secret rather than being one: masks, <angle>, ${VAR}, $VAR, %(name)s.
_PLACEHOLDER = re.compile(r"[*xX._#-]*|<[^<>]*>|\$\{[^{}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|%\([^()]*\)s")
_PLACEHOLDER_WORDS = frozenset(
    {
        "changeme",
        "change_me",
        "placeholder",
        "redacted",
        "dummy",
        "example",
        "none",
        "null",
        "todo",
        "tbd",
        "fixme",
        "password",
        "secret",
    }
)
_TEMPLATE_MARKERS = ("{{", "{%")


@record
class Finding:
    where: str  # the argument path: password, env['DB_PASSWORD'], conn_uri
    what: str  # what was found, masked: never the secret itself


def secret_name(name: str) -> bool:
    words = _CAMEL_BOUNDARY.sub("_", name).lower().replace("-", "_")
    return bool(_SECRET_NAME.search(words))


def stands_in(value: str) -> bool:
    """True for values that are not a literal secret: templates, masks, placeholders."""
    text = value.strip()
    if any(marker in text for marker in _TEMPLATE_MARKERS):
        return True
    return text.lower() in _PLACEHOLDER_WORDS or bool(_PLACEHOLDER.fullmatch(text))


def uri_passwords(text: str) -> Iterator[str]:
    """Each ``scheme://user:password@`` in ``text``, masked as ``scheme://user:****@``."""
    for match in _URI_PASSWORD.finditer(text):
        user, password = match.group(1), match.group(2)
        if not stands_in(password):
            yield f"{_scheme_before(text, match.start())}://{user}:****@"


def _scheme_before(text: str, end: int) -> str:
    start = end
    while start > max(0, end - _MAX_SCHEME) and text[start - 1] in _SCHEME_CHARACTERS:
        start -= 1
    return text[start:end]


def findings(where: str, name: str, value: object) -> Iterator[Finding]:
    """Literal secrets in one argument value, walking into dicts and lists."""
    if isinstance(value, str):
        if value.strip() and secret_name(name) and not stands_in(value):
            yield Finding(where, "a literal secret")
        for masked in uri_passwords(value):
            yield Finding(where, f"a connection URI with a literal password ({masked})")
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str):
                yield from findings(f"{where}[{json.dumps(key)}]", key, item)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from findings(f"{where}[{index}]", name, item)


def check_hardcoded_credential(context: Context) -> Iterator[Diagnostic]:
    for written in written_settings(context.tasks):
        setting = written.setting
        for found in findings(setting.name, setting.name, setting.value):
            yield context.report(
                setting.position,
                f"{written.owner} sets {found.what} in '{found.where}'; anyone who can read the "
                "DAG files or the task's rendered arguments sees it: read it from an Airflow "
                "connection, Variable or secrets backend instead",
                kind="credential",
                item=found.where,
                task=written.task,
            )


HARDCODED_CREDENTIAL = Rule(
    code="DRL401",
    name="hardcoded-credential",
    summary="a literal secret in operator arguments, default_args or connection URIs",
    boundary="execution",
    check=check_hardcoded_credential,
)
