"""Input files are regular files: a FIFO, a device or a socket is refused before it is opened.

Why: reading a witness means reading the whole file.  A FIFO blocks forever in ``open``
(no writer) or in ``read`` (a writer that never closes), and ``/dev/zero`` or
``/dev/urandom`` are read until the memory runs out, so one wrong name on a command line
or in a manifest hung or crashed a whole build.  Checked with ``stat`` (which does not
open the file), the refusal is one line naming the file and what it is.  Standard input
(``-``) is read through its own path and is not affected.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))


def not_a_regular_file(path: str | Path) -> str | None:
    """Why ``path`` cannot be read as an input file, or None when it is a regular file (or a link to one).

    A path that does not exist or cannot be examined is left to the reader, whose own
    message ("no such file", "permission denied") says it better.
    """
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return None
    if stat.S_ISREG(mode):
        return None
    kind = next((what for test, what in _KINDS if test(mode)), "not a regular file")
    return f"is {kind}, not a regular file: jiaokan reads input from regular files only (or '-' for standard input)"
