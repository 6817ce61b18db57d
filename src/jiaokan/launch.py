"""The ``jiaokan`` console command: Ctrl-C at any moment ends with one line and status 130.

Why a module of its own: the command line imports the readers, lxml and OpenCC before
:func:`jiaokan.cli.main` can catch anything, and an interrupt during those imports gave
a ``KeyboardInterrupt`` traceback (or, swallowed inside a library's import, an
``ImportError`` one).  This module imports nothing heavy, records the interrupt in its
own handler, and only then imports and runs the command line.
"""

from __future__ import annotations

import signal
import sys
from typing import Sequence

EXIT_INTERRUPTED = 130  # 128 + SIGINT, what shells report for a job stopped by Ctrl-C

_interrupted = False


def _on_sigint(signum: int, frame: object) -> None:
    global _interrupted
    _interrupted = True
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not when the caller ignores SIGINT
        signal.signal(signal.SIGINT, _on_sigint)
    status: int | None = None
    try:
        from .cli import main as cli_main

        status = cli_main(argv)
        import gc

        gc.freeze()  # the process ends now: no collection (at exit either) of what the OS takes back whole
    except BaseException:
        if not _interrupted:
            raise
    if _interrupted or status is None:
        if status != EXIT_INTERRUPTED:  # cli.main says so itself when the interrupt reaches it
            sys.stderr.write("jiaokan: error: interrupted\n")
        return EXIT_INTERRUPTED
    return status
