"""What ``os.getenv`` and ``Variable.get`` return where DAG files are parsed, from the inventory.

The inventory's ``[environment]`` and ``[variables]`` tables describe the DAG processor's
process: a table that is absent leaves every name open; a present table lists names it knows,
and says whether that is all of them (``complete = true``: a name it leaves out is unset). The
answers follow Airflow's own look-up (``airflow/secrets``, 2.10 and 3.3): a Variable is searched
in a configured secrets backend first, then in the environment (``AIRFLOW_VAR_`` + the key
upper-cased), then in the metastore; the walk asks these questions, so this module stays free
of anything extraction should not import.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping

from dagroute_lint.records import record

VARIABLE_PREFIX = "AIRFLOW_VAR_"
# ``[secrets] backend`` as an environment variable: such a backend is searched before the others.
SECRETS_BACKEND = "AIRFLOW__SECRETS__BACKEND"


class _Unset:
    """The answer "not set": ``os.getenv`` gives its default, ``Variable.get`` its default."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET = _Unset()


@record
class Answer:
    """A known ``value`` (``UNSET`` when certainly not set), or why it is not known."""

    value: object = None
    reason: str | None = None

    @property
    def known(self) -> bool:
        return self.reason is None


@record
class ParseEnvironment:
    """The environment variables and Airflow Variables of the DAG processor, as far as the
    inventory says; ``None``: the table is absent, nothing is assumed."""

    environment: Mapping[str, str] | None = None
    environment_complete: bool = False
    # A string is the Variable's text; any other JSON value is what its text parses to.
    variables: Mapping[str, object] | None = None
    variables_complete: bool = False
    # Why every answer is unknown: a repository module the file imports changes them.
    changed: str | None = None

    def key(self) -> str:
        """Everything extraction's answers depend on, for the cache key of a summary."""
        return json.dumps(
            [
                self.environment,
                self.environment_complete,
                self.variables,
                self.variables_complete,
                self.changed,
            ],
            sort_keys=True,
            default=repr,
        )

    def getenv(self, name: str) -> Answer:
        """``os.environ.get(name)``: its text, ``UNSET``, or why it is not known."""
        if self.changed is not None:
            return Answer(reason=self.changed)
        if self.environment is None:
            return Answer(reason=f"'{name}' is not known: the inventory has no [environment]")
        if name in self.environment:
            return Answer(self.environment[name])
        if self.environment_complete:
            return Answer(UNSET)
        return Answer(reason=f"'{name}' is not in the inventory's [environment]")

    def variable(self, key: str, deserialize_json: bool) -> Answer:
        """``Variable.get(key, deserialize_json=...)`` without a default: its value, ``UNSET``
        (then Airflow returns the default, or fails), or why it is not known.

        ``[variables]`` states what ``Variable.get`` returns for the keys it lists; the
        environment's ``AIRFLOW_VAR_<KEY>``, when ``[environment]`` lists it, is searched before
        the metastore, as Airflow does, unless a secrets backend is configured, which Airflow
        searches before both: then only ``[variables]`` answers."""
        if self.changed is not None:
            return Answer(reason=self.changed)
        backend = self.getenv(SECRETS_BACKEND)
        with_backend = isinstance(backend.value, str) and bool(backend.value.strip())
        from_environment = self.getenv(VARIABLE_PREFIX + key.upper())
        in_environment = from_environment.known and isinstance(from_environment.value, str)
        if backend.known and not with_backend and in_environment:
            return _parsed(key, str(from_environment.value), deserialize_json)
        stored = self._stored(key, deserialize_json)
        if stored is not None:
            return stored
        if with_backend or (in_environment and not backend.known):
            which = (
                f"the secrets backend {backend.value} is"
                if with_backend
                else f'a secrets backend may be (give {SECRETS_BACKEND} in [environment], "" for '
                "none)"
            )
            return Answer(
                reason=f"Variable '{key}' is not in the inventory's [variables], and {which} "
                "searched before the environment"
            )
        if not from_environment.known:
            return Answer(
                reason=f"Variable '{key}' is not in the inventory's [variables] and may come "
                f"from the environment ({from_environment.reason})"
            )
        if self.variables is not None and self.variables_complete:
            return Answer(UNSET)
        table = (
            "not in the inventory's [variables]"
            if self.variables is not None
            else "not known: the inventory has no [variables]"
        )
        return Answer(reason=f"Variable '{key}' is {table}")

    def _stored(self, key: str, deserialize_json: bool) -> Answer | None:
        if self.variables is None or key not in self.variables:
            return None
        value = self.variables[key]
        if isinstance(value, str):
            return _parsed(key, value, deserialize_json)
        if deserialize_json:
            return Answer(value)
        return Answer(
            reason=f"Variable '{key}' is a JSON value in the inventory, whose exact text is not "
            "known (read with deserialize_json=True, or give its text as a string)"
        )


def _parsed(key: str, text: str, deserialize_json: bool) -> Answer:
    if not deserialize_json:
        return Answer(text)
    try:
        return Answer(json.loads(text))
    except ValueError:
        return Answer(reason=f"Variable '{key}' is not JSON: json.loads fails at parse time")


def table_listing(table: str, names: Collection[str], complete: bool) -> str:
    """``[environment] 2 names, complete (one not listed is unset): A, B``, for ``inventory
    check``: the names only, since values may be secrets."""
    what = "Variables" if table == "variables" else "names"
    if complete:
        reading = "complete: one not listed is unset"
    else:
        reading = "open: one not listed is not known"
    listed = ", ".join(sorted(names)) or "none"
    return f"[{table}] {len(names)} {what} ({reading}): {listed}"


def same_variable(text: str, value: object) -> bool:
    """Whether ``AIRFLOW_VAR_<KEY>``'s ``text`` is the Variable ``value`` (its text, or the JSON
    value its text parses to)."""
    if isinstance(value, str):
        return value == text
    try:
        return bool(json.loads(text) == value)
    except ValueError:
        return False
