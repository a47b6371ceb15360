"""Read source files safely, and write files atomically so a reader never sees half of one."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
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


def read_source(path: Path, limit: int) -> bytes:
    """At most ``limit`` bytes of a regular file; ``OSError`` for anything else."""
    descriptor = os.open(path, _READ_FLAGS)
    with os.fdopen(descriptor, "rb") as stream:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        return stream.read(limit)


def write_atomically(path: Path, data: bytes) -> None:
    """Write to a temporary file beside ``path``, then rename it over ``path``."""
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
