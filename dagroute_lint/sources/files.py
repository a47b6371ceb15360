"""Read source files safely, and write files atomically so a reader never sees half of one."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

# Larger source files are not analysed (``max-file-size``, a setting; reading stops one byte
# after). A DAG file embedding a big SQL string is still far below the default: a 10 MB file
# of one string is linted in under two seconds.
DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024
# The most the setting allows, and the limit for text given on stdin (``extract.source``).
MAX_FILE_BYTES = 64 * 1024 * 1024
# A FIFO named ``x.py`` would block ``open`` until a writer comes; a link to ``/dev/zero``
# would never end. Opened non-blocking, then anything but a regular file is refused.
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
# What a read asks for once the file has turned out longer than ``fstat`` said.
_CHUNK = 1024 * 1024


def read_source(path: Path | str, limit: int) -> bytes:
    """At most ``limit`` bytes of a regular file; ``OSError`` for anything else."""
    return read_source_status(path, limit)[0]


def read_source_status(path: Path | str, limit: int) -> tuple[bytes, os.stat_result]:
    """``read_source``, with the file's status as ``fstat`` gave it before the bytes were read
    (``pipeline.import_index`` trusts what it learnt from the bytes while the status holds).

    With ``os.read`` on the descriptor rather than a file object: a one-file run reads every file
    of the DAG folders to find the file's importers, and a buffered stream per file was a third of
    that. The first read asks for one byte more than the file's size: a short read that brings
    all ``fstat`` said is the end, without another system call (or list of chunks); anything else
    (a file that grew, a file system that reads short, ``/proc`` files of size 0) is read on to
    an empty read or ``limit``.
    """
    descriptor = os.open(path, _READ_FLAGS)
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        wanted = min(limit, status.st_size + 1)
        chunk = os.read(descriptor, wanted) if wanted > 0 else b""
        if len(chunk) < wanted and len(chunk) == status.st_size:
            return chunk, status  # all that fstat said, in one read: nearly always
        chunks = [chunk]
        total = len(chunk)
        while chunk and total < limit:
            chunk = os.read(descriptor, min(limit - total, _CHUNK))
            chunks.append(chunk)
            total += len(chunk)
        return b"".join(chunks), status
    finally:
        os.close(descriptor)


def stamp(path: str) -> str:
    """The path with the file's modification time and size: what tells one build or install of
    some code from another without reading it (the caches' keys)."""
    try:
        status = os.stat(path)
    except OSError:
        return f"{path}:missing"
    return f"{path}@{status.st_mtime_ns}:{status.st_size}"


def stamps_below(folder: str) -> list[str]:
    """``stamp`` of every file below ``folder``, in a fixed order, ``__pycache__`` left out."""
    found = []
    for here, folders, names in os.walk(folder):
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        found += [stamp(os.path.join(here, name)) for name in sorted(names)]
    return found


def write_atomically(path: Path, data: bytes) -> None:
    """Write to a temporary file beside ``path``, then rename it over ``path``."""
    import tempfile  # with shutil and random behind it: only runs that write pay for it

    directory = path.parent if str(path.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        # mkstemp creates the file private (0600); give it the mode a plain open() would.
        os.chmod(temporary, _mode_for(path))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _mode_for(path: Path) -> int:
    """The existing file's permissions, or the default ones under the process umask."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
