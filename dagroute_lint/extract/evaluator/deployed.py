"""Values the deployment decides: ``os.getenv``, ``os.environ`` and ``Variable.get``.

The answers come from the inventory's ``[environment]`` and ``[variables]`` (the DAG
processor's, ``deployment.parse_environment``), which key the summary's cache entry; without
those tables each read is unknown with its reason, as before. What the walked code does to
``os.environ`` (an item set or removed, ``update``, ``load_dotenv()``) or to the Variables
(``Variable.set``) is followed where it is exact, and makes what it may have changed unknown
otherwise: a value read after it is the file's, never the inventory's stale one.
"""

from __future__ import annotations

from dagroute_lint.catalog import airflow_names as names
from dagroute_lint.deployment.parse_environment import (
    SECRETS_BACKEND,
    UNSET,
    VARIABLE_PREFIX,
)
from dagroute_lint.extract.bindings import Binding, CallArguments
from dagroute_lint.extract.evaluator.state import WalkerState
from dagroute_lint.model import Const, Unknown, as_expr

# ``os.environ`` methods that only read it.
_READS = frozenset({"get", "copy", "keys", "values", "items", "__contains__", "__getitem__"})
_ENVIRONMENT_READS = frozenset({"os.getenv", "os.environ.get"})


class Deployed(WalkerState):
    """Reads and changes of the deployment's environment and Variables."""

    def deployed_call(
        self, qualname: str, positional: list[Binding], arguments: CallArguments
    ) -> Binding | None:
        """The value of a call that reads or changes the deployment's values; ``None`` for any
        other call."""
        if qualname in _ENVIRONMENT_READS:
            return self.environment_read(qualname, positional, arguments)
        if qualname in names.VARIABLE_GETS:
            return self.variable_read(qualname, positional, arguments)
        if qualname in names.VARIABLE_CHANGES:
            method = ".".join(qualname.rsplit(".", 2)[-2:]) + "()"
            self.variables_spoiled = f"the file calls {method} before"
            self.note_change(method)
            return Unknown(f"{method} changes a Variable", data=True)
        if qualname in names.ENVIRON_LOADERS:
            self.spoil_environ(f"the file calls {qualname}(), which changes os.environ, before")
            self.note_change(f"{qualname}()")
            return None
        owner, _, method = qualname.rpartition(".")
        if owner == names.ENVIRON and method not in _READS:
            self.environ_changed_by_call(method, positional)
        return None

    def environment_read(
        self, qualname: str, positional: list[Binding], arguments: CallArguments
    ) -> Binding:
        """``os.getenv(name[, default])``, ``os.environ.get(name[, default])``."""
        reason = names.DYNAMIC_CALLS[qualname]
        takes, default = self.default_argument(positional, arguments, "default")
        name = positional[0] if positional else None
        if not takes or not isinstance(name, Const) or not isinstance(name.value, str):
            return Unknown(reason, data=True)
        found = self.environ_value(name.value, reason)
        if found is UNSET:
            return Const(None) if default is None else default
        return found  # type: ignore[return-value]

    def environ_item(self, key: Binding) -> Binding:
        """``os.environ[name]``: a name certainly unset fails the file's import (KeyError)."""
        reason = names.DYNAMIC_MAPPINGS[names.ENVIRON]
        if not isinstance(key, Const) or not isinstance(key.value, str):
            return Unknown(reason, data=True)
        found = self.environ_value(key.value, reason)
        if found is UNSET:
            return Unknown(
                f"{reason}: '{key.value}' is not set in the deployment (KeyError at parse time)",
                data=True,
            )
        return found  # type: ignore[return-value]

    def environ_has(self, key: Binding) -> bool | None:
        """``name in os.environ``, when known."""
        if not isinstance(key, Const) or not isinstance(key.value, str):
            return None
        found = self.environ_value(key.value, "")
        if isinstance(found, Unknown):
            return None
        return found is not UNSET

    def environ_value(self, name: str, reason: str) -> Binding | object:
        """A name's text as a ``Const``, ``UNSET``, or an ``Unknown`` saying why."""
        if name in self.environ_changes:
            changed = self.environ_changes[name]
            if isinstance(changed, Unknown):
                return changed
            return UNSET if changed is None else Const(changed)
        if self.environ_spoiled is not None:
            return Unknown(f"{reason}: {self.environ_spoiled}", data=True)
        if self.parse_environment is None:
            return Unknown(reason, data=True)
        answer = self.parse_environment.getenv(name)
        if not answer.known:
            return Unknown(f"{reason}: {answer.reason}", data=True)
        self.deployment_read = True
        return UNSET if answer.value is UNSET else Const(str(answer.value))

    def variable_read(
        self, qualname: str, positional: list[Binding], arguments: CallArguments
    ) -> Binding:
        """``Variable.get(key[, default], deserialize_json=...)``."""
        reason = names.DYNAMIC_CALLS[qualname]
        keyword = names.VARIABLE_GETS[qualname]
        takes, default = self.default_argument(
            positional, arguments, keyword, ("deserialize_json",)
        )
        key = positional[0] if positional else None
        as_json: Binding = arguments.named.get("deserialize_json", Const(False))
        if len(positional) > 2:
            as_json = positional[2]
        if (
            not takes
            or not isinstance(key, Const)
            or not isinstance(key.value, str)
            or not isinstance(as_json, Const)
            or not isinstance(as_json.value, bool)
        ):
            return Unknown(reason, data=True)
        changed = self.variable_changed(key.value)
        if changed is not None:
            return Unknown(f"{reason}: {changed}", data=True)
        if self.parse_environment is None:
            return Unknown(reason, data=True)
        answer = self.parse_environment.variable(key.value, as_json.value)
        if not answer.known:
            return Unknown(f"{reason}: {answer.reason}", data=True)
        self.deployment_read = True
        if answer.value is not UNSET:
            return as_expr(answer.value)
        if default is not None:
            return default
        return Unknown(
            f"{reason}: Variable '{key.value}' is not set in the deployment (Variable.get "
            "fails at parse time)",
            data=True,
        )

    def variable_changed(self, key: str) -> str | None:
        """Why the walked code may have changed what ``Variable.get(key)`` returns."""
        if self.variables_spoiled is not None:
            return self.variables_spoiled
        if self.environ_spoiled is not None:
            return self.environ_spoiled
        for name in (VARIABLE_PREFIX + key.upper(), SECRETS_BACKEND):
            if name in self.environ_changes:
                return f"os.environ['{name}'] is changed by the file"
        return None

    def default_argument(
        self,
        positional: list[Binding],
        arguments: CallArguments,
        keyword: str,
        others: tuple[str, ...] = (),
    ) -> tuple[bool, Binding | None]:
        """Whether the call passes only what the function takes (else it raises ``TypeError``,
        or spreads ``**`` the walk cannot check), and its default (the second positional, or
        ``keyword``), ``None`` when not given."""
        names_taken = (keyword, *others)
        if (
            arguments.spreads
            or any(name not in names_taken for name in arguments.named)
            or len(positional) > 1 + len(names_taken)
            or any(name in arguments.named for name in names_taken[: len(positional) - 1])
        ):
            return False, None
        if len(positional) > 1:
            return True, positional[1]
        if keyword in arguments.bindings:
            return True, arguments.bindings[keyword]
        return True, arguments.named.get(keyword)

    def environ_changed(self, key: Binding, value: Binding | None) -> None:
        """``os.environ[key] = value`` (``None``: ``del os.environ[key]``)."""
        if not isinstance(key, Const) or not isinstance(key.value, str):
            self.spoil_environ("the file changes an item of os.environ before")
            self.note_change("an item of os.environ")
            return
        self.note_change(f"os.environ['{key.value}']")
        if self.uncertain or (value is not None and not isinstance(value, Const)):
            self.environ_changes[key.value] = Unknown(
                f"os.environ['{key.value}'] is changed by the file to a value not known statically",
                data=True,
            )
            return
        if value is None:
            self.environ_changes[key.value] = None
        elif isinstance(value.value, str):
            self.environ_changes[key.value] = value.value
        else:  # os.environ takes only strings: the store raises TypeError
            self.environ_changes[key.value] = Unknown(
                f"os.environ['{key.value}'] is given a value that is not a string (TypeError)",
                data=True,
            )

    def environ_changed_by_call(self, method: str, positional: list[Binding]) -> None:
        """``os.environ.setdefault/pop/update/...``: exact for a literal ``setdefault`` and
        ``pop``, anything else may change every name."""
        key = positional[0] if positional else None
        if method in ("setdefault", "pop") and isinstance(key, Const):
            if method == "pop":
                self.environ_changed(key, None)
                return
            if len(positional) == 2:
                current = self.environ_value(str(key.value), "")
                if current is UNSET:
                    self.environ_changed(key, positional[1])
                elif isinstance(current, Unknown):
                    self.environ_changed(key, Unknown("os.environ.setdefault"))
                return
        self.spoil_environ(f"the file calls os.environ.{method}() before")
        self.note_change(f"os.environ.{method}()")

    def note_change(self, what: str) -> None:
        """The first change the module makes to the environment or the Variables, for the
        files that import it (``Module.changes_deployment``)."""
        if self.deployment_changed_by is None:
            self.deployment_changed_by = what

    def spoil_environ(self, reason: str) -> None:
        """Anything in ``os.environ`` may have changed: what the file set before too."""
        self.environ_spoiled = reason
        self.environ_changes.clear()
