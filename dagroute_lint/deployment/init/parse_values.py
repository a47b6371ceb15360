"""``[environment]`` and ``[variables]`` for ``inventory init``: what DAG files read at parse time.

The environment written is what is the same in every component that parses DAG files: the DAG
processor (else the scheduler) and the workers, which parse the file again before running a
task. A name set differently (or only) in some of them, or known only at deploy time, is left
out and said in a comment, so the table is never complete: the image sets variables no file
here shows. Values that look secret (a name Airflow's secrets masker hides, a connection
``AIRFLOW_CONN_*``, a ``[database]``/``[celery]`` URL, a ``[secrets]`` option other than
``backend``, a value holding ``user:password@``) are never copied into the inventory.

Variables come from an ``airflow variables export`` file (``--variables``): ``{key: value}``,
a string being the Variable's text, any other JSON value what its text parses to; Airflow 3
wraps a value that has a description as ``{"value": ..., "description": ...}``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from dagroute_lint.catalog.airflow_defaults import SENSITIVE_FIELDS
from dagroute_lint.deployment.init.dotenv import read_dotenv
from dagroute_lint.deployment.init.facts import DeploymentFacts, Fact
from dagroute_lint.errors import ConfigError, read_user_file

# ``AIRFLOW__SECTION__KEY`` options whose values are URLs with credentials, or keys.
_SECRET_OPTIONS = frozenset(
    {"sql_alchemy_conn", "broker_url", "result_backend", "fernet_key", "secret_key", "jwt_secret"}
)
_OPTION = re.compile(r"AIRFLOW__(?P<section>[A-Z0-9_]+?)__(?P<key>[A-Z0-9_]+)")
_CREDENTIALS = re.compile(r"://[^/\s@]*:[^/\s@]*@")
# A name ending in the word "key" (``WOS_KEY``, ``AIRFLOW_VAR_PUBMED_KEY``, a compose file's own
# ``AIRFLOW_FERNET_KEY``): an API or encryption key, where the masker's words name only some
# (``api_key``); a routing choice is never read from one.
_KEY_NAME = re.compile(r"(?:^|_)key$|fernet")
# (component, its variables: name -> (value, or None when known only at deploy time; where)).
Component = tuple[str, Mapping[str, tuple[str | None, str]]]


def withheld(name: str, value: str) -> bool:
    """Whether a variable looks secret, and so is not copied into the inventory."""
    option = _OPTION.fullmatch(name.upper())
    if option is not None:
        if option["section"] == "SECRETS":
            return option["key"] != "BACKEND"  # backend_kwargs may hold credentials
        if option["key"].lower().removesuffix("_cmd").removesuffix("_secret") in _SECRET_OPTIONS:
            return True
        lowered = option["key"].lower()
    else:
        lowered = name.lower()
    if name.upper().startswith("AIRFLOW_CONN_"):
        return True
    if _KEY_NAME.search(lowered):
        return True
    return any(field in lowered for field in SENSITIVE_FIELDS) or bool(_CREDENTIALS.search(value))


def shared_environment(
    components: Sequence[Component],
) -> tuple[dict[str, Fact[str]], dict[str, str]]:
    """The variables every component sets alike, with where; and each other name, with why it
    is left out."""
    found: dict[str, Fact[str]] = {}
    left: dict[str, str] = {}
    names = dict.fromkeys(name for _, variables in components for name in variables)
    for name in names:
        having = [(label, variables[name]) for label, variables in components if name in variables]
        lacking = [label for label, variables in components if name not in variables]
        deferred = [where for _, (value, where) in having if value is None]
        values = {value for _, (value, _) in having}
        if lacking:
            setters = ", ".join(label for label, _ in having)
            left[name] = f"set for {setters} but not for {', '.join(lacking)}"
        elif deferred:
            left[name] = f"known only at deploy time ({deferred[0]})"
        elif len(values) > 1:
            left[name] = "set differently for " + ", ".join(label for label, _ in having)
        elif withheld(name, str(having[0][1][0])):
            left[name] = "looks secret: not copied"
        else:
            value, where = having[0][1]
            found[name] = Fact(str(value), where)
    return found, left


def env_file_facts(paths: Sequence[Path]) -> DeploymentFacts:
    """``--env-file``: ``.env`` files the DAG processor's environment is loaded from (as the
    Astro CLI loads a project's ``.env``), later files winning."""
    components: list[Component] = []
    merged: dict[str, tuple[str | None, str]] = {}
    for path in paths:
        for name, value in read_dotenv(path, {}).items():
            merged[name] = (value, f"{path}: {name}")
    components.append((" + ".join(map(str, paths)), merged))
    environment, left = shared_environment(components)
    return DeploymentFacts(
        sources=tuple(f"environment file {path}" for path in paths),
        environment=environment,
        environment_left=left,
    )


def variables_facts(path: Path) -> DeploymentFacts:
    """``--variables``: an ``airflow variables export`` file."""
    try:
        document = json.loads(read_user_file(path))
    except ValueError as error:
        raise ConfigError(f"{path}: not JSON ({error})") from None
    if not isinstance(document, dict):
        raise ConfigError(f"{path}: expected the JSON object `airflow variables export` writes")
    variables: dict[str, Fact[object]] = {}
    left: dict[str, str] = {}
    for key, exported in document.items():
        value = exported
        if isinstance(exported, dict) and set(exported) == {"value", "description"}:
            value = exported["value"]  # Airflow 3's form of a Variable with a description
        if withheld(key, value if isinstance(value, str) else json.dumps(value)):
            left[key] = "looks secret: not copied"
        elif value is None:
            left[key] = "its value is JSON null, which TOML cannot hold"
        else:
            variables[key] = Fact(value, f"{path}: {key}")
    return DeploymentFacts(
        sources=(f"Variables export {path}",), variables=variables, variables_left=left
    )
