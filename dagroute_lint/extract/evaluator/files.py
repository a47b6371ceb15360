"""The repository's own files, read as the DAG file reads them when DagBag imports it.

``open(path).read()``, ``json.load``, ``yaml.safe_load``, ``Path.read_text``, ``glob``,
``os.walk``, ``os.listdir`` and ``os.path`` on paths the walk knows (``__file__`` and what is
built from it) are answered from the repository itself through ``sources.data_files``: inside
the repository only, bounded in bytes and files, each read recorded so that the file's summary
is made again when what it read changes. Nothing is executed: a YAML loader that may build
Python objects, a pickle or a subprocess stays unknown, with why. A path that is not known, a
read refused (outside the repository, over a bound) or failing is unknown with the reason, and a
loop that builds tasks over it says so (DRL106). A listing's order is the file system's, which
differs between machines: it is kept as not known (``ListObject.unordered``). Once the walked
code opens a file for writing or changes one through ``Path`` (``write_text``, ``unlink``...),
every later read is unknown (``files_written``): the files are no longer the repository's.

A ``pathlib.Path`` is the model's ``Operation("path", (text,))``; a file object is an unknown
held in ``open_files`` with its path, as the instances of repository classes are.
"""

from __future__ import annotations

import json
import os
import posixpath
from collections.abc import Callable
from pathlib import PurePosixPath

import libcst as cst

from dagroute_lint.extract.bindings import SET, Binding, CallArguments, DictObject, ListObject
from dagroute_lint.extract.evaluator.state import WalkerState
from dagroute_lint.model import Const, Operation, Unknown
from dagroute_lint.sources.data_files import WORKING_DIRECTORY, Refused

# The YAML loaders that build only plain data (the others may build Python objects).
SAFE_YAML_LOADERS = frozenset(
    {"yaml.SafeLoader", "yaml.CSafeLoader", "yaml.BaseLoader", "yaml.CBaseLoader"}
)
YAML_EXTRA = "reading YAML needs PyYAML: install dagroute-lint[deploy]"
LISTING = "a folder's listing, in the file system's order"
# Open modes that read text (a binary read's bytes are never a routing value).
TEXT_READ_MODES = frozenset({"r", "rt", "tr"})
# Pure functions of path texts, computed as ``os.path`` (POSIX, as Airflow runs) does.
PATH_TEXT_FUNCTIONS: dict[str, Callable[..., object]] = {
    "os.path.join": posixpath.join,
    "os.path.dirname": posixpath.dirname,
    "os.path.basename": posixpath.basename,
    "os.path.splitext": posixpath.splitext,
    "os.path.normpath": posixpath.normpath,
    "os.path.abspath": os.path.abspath,
}
PATH_KINDS = {
    "os.path.exists": ("file", "folder"),
    "os.path.isfile": ("file",),
    "os.path.isdir": ("folder",),
}
# ``Path`` methods that change the repository's files: a later read may differ from the file's.
PATH_WRITES = frozenset(
    {"write_text", "write_bytes", "touch", "unlink", "mkdir", "rmdir", "rename", "replace"}
)
PATH_METHOD_KINDS = {"exists": ("file", "folder"), "is_file": ("file",), "is_dir": ("folder",)}


# ``str(x)`` of a value folded later is the f-string field ``f"{x!s}"`` (``builtins._str``).
STR_FIELD = (Const("s"), Const(""))


def reads_utf8(arguments: CallArguments, allowed: frozenset[str] = frozenset()) -> bool:
    """Whether a read's keywords are ``allowed`` ones or an ``encoding`` the walk reads with
    (UTF-8, as the files are read; any other decodes the same bytes differently)."""
    encoding = arguments.bindings.get("encoding", Const("utf-8"))
    return (
        not arguments.spreads
        and set(arguments.bindings) <= {"encoding", *allowed}
        and isinstance(encoding, Const)
        and str(encoding.value).lower().replace("_", "-") in ("utf-8", "utf8")
    )


def path_text(value: Binding) -> str | None:
    """The text of a path the walk knows: a literal string or a ``Path`` of one."""
    if isinstance(value, Const) and isinstance(value.value, str):
        return value.value
    if isinstance(value, Operation) and value.op == "path" and len(value.operands) == 1:
        return path_text(value.operands[0])
    if isinstance(value, Operation) and value.op == "field" and value.operands[1:] == STR_FIELD:
        inner = value.operands[0]
        return path_text(inner) if isinstance(inner, Operation) and inner.op == "path" else None
    return None


def as_path(text: str) -> Operation:
    """``pathlib.Path(text)``; its text is normalised as ``PurePosixPath`` does."""
    return Operation("path", (Const(str(PurePosixPath(text))),))


def sorted_paths(items: list[Binding], level: int) -> ListObject | None:
    """``sorted()`` of ``Path`` objects the walk knows, ordered as ``PurePosixPath`` orders
    them (by parts, not by text: ``a/b`` before ``a-b``)."""
    texts = [path_text(item) if isinstance(item, Operation) else None for item in items]
    known = [text for text in texts if text is not None]
    if len(known) != len(items):
        return None
    return ListObject([as_path(text) for text in sorted(known, key=PurePosixPath)], level)


def data_binding(value: object, level: int, where: str) -> Binding:
    """What ``json.load``/``yaml.safe_load`` returned, as the walk's values (dicts and lists
    that may be changed afterwards, as the file may)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return Const(value)
    if isinstance(value, dict):
        parts: list[tuple[str, Binding | None, Binding]] = [
            (SET, data_binding(key, level, where), data_binding(item, level, where))
            for key, item in value.items()
        ]
        return DictObject(parts, level)
    if isinstance(value, list):
        return ListObject([data_binding(item, level, where) for item in value], level)
    return Unknown(f"a {type(value).__name__} read from {where}", data=True)


class Files(WalkerState):
    """The calls that read the repository's files, and the path values they take."""

    def file_call(
        self, qualname: str, positional: list[Binding], arguments: CallArguments
    ) -> Binding | None:
        """``qualname(...)`` when it reads files or computes a path, else ``None`` (the call
        is someone else's)."""
        if qualname in PATH_TEXT_FUNCTIONS:
            texts = [path_text(value) for value in positional]
            if arguments.named or arguments.spreads or None in texts or not texts:
                return None
            if qualname == "os.path.abspath" and not os.path.isabs(texts[0]):  # type: ignore[arg-type]
                return Unknown(f"os.path.abspath({texts[0]!r}) {WORKING_DIRECTORY}", data=True)
            result = PATH_TEXT_FUNCTIONS[qualname](*texts)
            if isinstance(result, tuple):
                return ListObject([Const(part) for part in result], self.uncertain)
            return Const(result)  # type: ignore[arg-type]
        if qualname in PATH_KINDS:
            return self.path_kind(positional, PATH_KINDS[qualname])
        reader = _READERS.get(qualname)
        return reader(self, qualname, positional, arguments) if reader is not None else None

    def path_kind(self, positional: list[Binding], kinds: tuple[str, ...]) -> Binding:
        text = path_text(positional[0]) if len(positional) == 1 else None
        if text is None:
            return Unknown("whether a path not known statically exists", data=True)
        return self.answered(lambda: Const(self.data_files.kind(text) in kinds))

    def answered(self, read: Callable[[], Binding]) -> Binding:
        """``read()``, or unknown with why the read was refused, or why the file system may
        no longer be the repository's (``files_written``)."""
        if self.files_written is not None:
            return Unknown(self.files_written, data=True)
        try:
            return read()
        except Refused as refused:
            return Unknown(str(refused), data=True)

    def open_file(self, positional: list[Binding], arguments: CallArguments) -> Binding:
        """``open(path)`` for reading text: a file object whose path the walk knows."""
        mode = positional[1] if len(positional) > 1 else arguments.bindings.get("mode", Const("r"))
        text = path_text(positional[0]) if positional else None
        if not isinstance(mode, Const) or mode.value not in TEXT_READ_MODES:
            if not isinstance(mode, Const) or set(str(mode.value)) & set("wax+"):
                self.wrote_files(f"the file opens {text or 'a file'} for writing before")
            return Unknown("a file opened for other than reading text", data=True)
        if len(positional) > 2 or not reads_utf8(arguments, frozenset({"mode"})):
            return Unknown("a file opened with arguments not modelled (UTF-8 only)", data=True)
        if text is None:
            return Unknown("a file at a path not known statically", data=True)
        handle = Unknown(f"the file object of {text}", data=True)
        self.open_files[id(handle)] = (handle, text)
        return handle

    def opened_text(
        self, value: Binding, stream: bool = True, string: bool = True
    ) -> Binding | None:
        """The whole text of a file object ``open()`` gave (``stream``), read once: unknown
        with why when it cannot be read, or when it was read or closed before (Python gives
        what is left, or raises); a string given as is (``string``); ``None`` for anything
        else (the call's own unknown)."""
        held = self.open_files.get(id(value))
        if stream and held is not None and held[0] is value:
            return self.read_once(value, held[1])
        if string and isinstance(value, Const) and isinstance(value.value, str):
            return value
        return None

    def read_once(self, handle: Binding, path: str) -> Binding:
        """The whole text of the file object ``handle`` of ``path``, or unknown with why (a
        second read gets what is left, or raises)."""
        if id(handle) in self.consumed_files:
            return Unknown(f"the file object of {path}, read or closed before", data=True)
        self.consumed_files.add(id(handle))
        return self.answered(lambda: Const(self.data_files.text(path)))

    def wrote_files(self, reason: str) -> None:
        """The walked code may have changed the repository's files: every later read, listing
        or test of a path is unknown, never the repository's stale content."""
        if self.files_written is None:
            self.files_written = reason

    def file_method(
        self, node: cst.Call, callee: Binding, positional: list[Binding]
    ) -> Binding | None:
        """``f.read()``, ``f.readlines()`` on a file object ``open()`` gave (``f.read`` is the
        object itself, as attributes of unknowns are)."""
        func = node.func
        held = self.open_files.get(id(callee))
        if held is None or held[0] is not callee or not isinstance(func, cst.Attribute):
            return None
        method = func.attr.value
        if method == "close" and not positional:
            self.consumed_files.add(id(callee))
            return Const(None)
        if method not in ("read", "readlines") or positional:
            return Unknown(f"result of calling {method}() on a file object", data=True)
        text = self.read_once(callee, held[1])
        if method == "read" or not isinstance(text, Const):
            return text
        lines = str(text.value).splitlines(keepends=True)
        return ListObject([Const(line) for line in lines], self.uncertain)

    def path_method(self, path: str, name: str, positional: list[Binding]) -> Binding | None:
        """A method of ``Path(path)``: reads, listings and the pure ones."""
        if name in PATH_METHOD_KINDS and not positional:
            return self.answered(
                lambda: Const(self.data_files.kind(path) in PATH_METHOD_KINDS[name])
            )
        if name == "read_text" and not positional:
            return self.answered(lambda: Const(self.data_files.text(path)))
        if name == "open" and not positional:
            return self.open_file([Const(path)], CallArguments())
        if name in ("resolve", "absolute") and not positional:
            if not os.path.isabs(path):
                return Unknown(f"Path({path!r}).{name}() {WORKING_DIRECTORY}", data=True)
            return as_path(os.path.abspath(path))
        if name == "joinpath":
            parts = [path_text(value) for value in positional]
            if None in parts:
                return None
            return as_path(posixpath.join(path, *parts))  # type: ignore[arg-type]
        if name == "iterdir" and not positional:
            return self.answered(
                lambda: self.listing(
                    [
                        as_path(posixpath.join(path, entry))
                        for entry in self.data_files.listing(path)
                    ],
                    "Path.iterdir()",
                )
            )
        if name in ("glob", "rglob") and len(positional) == 1:
            pattern = path_text(positional[0])
            if pattern is None:
                return Unknown("a glob pattern not known statically", data=True)
            matched = pattern

            def matches() -> Binding:
                found = self.data_files.path_glob(path, matched, name)
                return self.listing([as_path(each) for each in found], f"Path.{name}()")

            return self.answered(matches)
        return None

    def path_attribute(self, path: str, attr: str) -> Binding | None:
        """``Path(...).parent``, ``.name``, ``.stem``, ``.suffix`` of a path the walk knows."""
        pure = PurePosixPath(path)
        if attr == "parent":
            return as_path(str(pure.parent))
        if attr in ("name", "stem", "suffix"):
            return Const(getattr(pure, attr))
        return None

    def listing(self, entries: list[Binding], iterator: str | None = None) -> ListObject:
        """A listing in the file system's order; ``iterator`` names the call when Python's
        value is a generator (``os.walk()``, ``Path.glob()``), which a first pass empties."""
        return ListObject(entries, self.uncertain, unordered=LISTING, iterator=iterator)

    def glob_call(
        self, qualname: str, positional: list[Binding], arguments: CallArguments
    ) -> Binding:
        pattern = path_text(positional[0]) if len(positional) == 1 else None
        recursive = arguments.bindings.get("recursive", Const(False))
        if set(arguments.bindings) - {"recursive"} or not isinstance(recursive, Const):
            return Unknown(f"{qualname}() with arguments not modelled", data=True)
        if pattern is None:
            return Unknown("a glob pattern not known statically", data=True)
        deep = bool(recursive.value)
        return self.answered(
            lambda: self.listing(
                [Const(path) for path in self.data_files.glob(pattern, deep)],
                "glob.iglob()" if qualname == "glob.iglob" else None,
            )
        )

    def listdir_call(
        self, qualname: str, positional: list[Binding], arguments: CallArguments
    ) -> Binding:
        path = path_text(positional[0]) if len(positional) == 1 else "." if not positional else None
        if path is None or arguments.bindings:
            return Unknown("a folder not known statically", data=True)
        return self.answered(
            lambda: self.listing([Const(name) for name in self.data_files.listing(path)])
        )

    def walk_call(
        self, qualname: str, positional: list[Binding], arguments: CallArguments
    ) -> Binding:
        """``os.walk(top)``: (folder, subfolders, files) for each folder, top-down."""
        top = path_text(positional[0]) if len(positional) == 1 else None
        if top is None or arguments.bindings:
            return Unknown("os.walk() of a folder not known statically", data=True)

        def triples() -> Binding:
            found: list[Binding] = []
            for entry in self.data_files.walk(top):
                folder, subfolders, files = entry.split("\0")
                names = [
                    self.listing([Const(name) for name in part.split("/") if name])
                    for part in (subfolders, files)
                ]
                found.append(ListObject([Const(folder), *names], self.uncertain))
            return self.listing(found, "os.walk()")

        return self.answered(triples)

    def json_call(
        self, qualname: str, positional: list[Binding], arguments: CallArguments
    ) -> Binding | None:
        if len(positional) != 1 or arguments.bindings or arguments.spreads:
            return None
        stream = qualname == "json.load"
        text = self.opened_text(positional[0], stream=stream, string=not stream)
        if not isinstance(text, Const) or not isinstance(text.value, str):
            return text
        try:
            parsed = json.loads(text.value)
        except ValueError as error:
            return Unknown(f"{qualname}() raises on this text ({error})", data=True)
        return data_binding(parsed, self.uncertain, "JSON")

    def yaml_call(
        self, qualname: str, positional: list[Binding], arguments: CallArguments
    ) -> Binding | None:
        """``yaml.safe_load(f)``, ``yaml.load(f, Loader=yaml.SafeLoader)`` and their ``_all``
        forms, with a loader that builds only plain data; parsed by PyYAML when installed."""
        loader: Binding = arguments.bindings.get("Loader", Const("yaml.SafeLoader"))
        if qualname in ("yaml.load", "yaml.load_all") and len(positional) == 2:
            positional, loader = positional[:1], positional[1]
        elif qualname.startswith("yaml.load") and "Loader" not in arguments.bindings:
            return Unknown(f"{qualname}() without a Loader", data=True)
        name = loader.value if isinstance(loader, Const) else getattr(loader, "qualname", None)
        if name not in SAFE_YAML_LOADERS or len(positional) != 1:
            return Unknown(f"{qualname}() with a loader that may build Python objects", data=True)
        text = self.opened_text(positional[0])
        if not isinstance(text, Const) or not isinstance(text.value, str):
            return text
        try:
            import yaml
        except ImportError:
            return Unknown(YAML_EXTRA, data=True)
        kind = str(name).rpartition(".")[2].removeprefix("C")
        chosen = getattr(yaml, f"C{kind}", None) or getattr(yaml, kind)
        try:
            if qualname.endswith("_all"):
                documents = list(yaml.load_all(text.value, Loader=chosen))
                return ListObject(
                    [data_binding(doc, self.uncertain, "YAML") for doc in documents], self.uncertain
                )
            return data_binding(yaml.load(text.value, Loader=chosen), self.uncertain, "YAML")
        except yaml.YAMLError as error:
            problem = str(error).splitlines()[0]
            return Unknown(f"{qualname}() raises on this text ({problem})", data=True)


_Reader = Callable[[Files, str, list[Binding], CallArguments], Binding | None]
_READERS: dict[str, _Reader] = {
    "glob.glob": Files.glob_call,
    "glob.iglob": Files.glob_call,
    "os.listdir": Files.listdir_call,
    "os.walk": Files.walk_call,
    "json.load": Files.json_call,
    "json.loads": Files.json_call,
    "yaml.safe_load": Files.yaml_call,
    "yaml.safe_load_all": Files.yaml_call,
    "yaml.load": Files.yaml_call,
    "yaml.load_all": Files.yaml_call,
}
