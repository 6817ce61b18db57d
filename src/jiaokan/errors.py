"""The one error hierarchy: what can go wrong that a user must be told about.

Every error jiaokan raises for a user's input, request or disk is a
:class:`JiaokanError`; the command line catches that class once and prints it
as one line (``jiaokan: error: FILE:LINE: what was expected``) with exit status
2 (1 for an output the system refused).  Anything else reaching the top is a
bug in jiaokan, and a traceback is then the right thing to show.

Why classes by stage and not one: a library caller (a notebook, a build
script) can tell a bad witness file (:class:`InputError`) from an impossible
collation request (:class:`CollationError`) or a disk that is full
(:class:`OutputError`) and react to each.
"""

from __future__ import annotations

import re

#: What a terminal would act on rather than show: C0 and C1 controls and DEL (an ESC
#: sequence clears the screen or recolours it), bidi overrides and isolates (they reorder
#: what follows), line and paragraph separators, and lone surrogates (undecodable bytes
#: that cannot be written at all).
_UNPRINTABLE_RE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(m: re.Match[str]) -> str:
    c = ord(m.group(0))
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def printable(text: str) -> str:
    """``text`` with every control character written as an escape (``\\x1b``, ``\\u202e``).

    The one place where a message that quotes input (a file name, a page tag, a line) is
    made safe to print: it stays on one line and cannot drive the terminal.  Every
    :class:`JiaokanError` and every reader warning passes through here.
    """
    return _UNPRINTABLE_RE.sub(_escape, text)


class JiaokanError(Exception):
    """A user-facing error: one line naming where (file, line or page) and what was expected."""

    #: the command line's exit status for this kind of error
    exit_status = 2

    def __init__(self, file: str | None, message: str, line: int | None = None, page: str | None = None) -> None:
        self.file = file
        self.line = line
        self.page = page
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.file or ""
        if self.file and self.line:
            where = f"{self.file}:{self.line}"
        if self.page:
            where = f"{where} (page {self.page})" if where else f"page {self.page}"
        return printable(f"{where}: {self.message}" if where else self.message)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle by fields, whatever a subclass's ``__init__`` takes: a ``build --jobs`` worker's
        error must reach the parent whole (the default pickling calls ``cls(*args)`` and fails)."""
        return (_rebuild, (type(self), self.__dict__.copy()))


def _rebuild(cls: type[JiaokanError], state: dict[str, object]) -> JiaokanError:
    """Unpickle a :class:`JiaokanError` without calling its ``__init__``."""
    err = cls.__new__(cls)
    err.__dict__.update(state)
    Exception.__init__(err, str(err))
    return err


class InputError(JiaokanError):
    """A file, manifest or argument that cannot be read as what it should be."""


class CollationError(JiaokanError):
    """A collation that cannot be made as asked (unknown siglum, one witness, a bad variant type …)."""

    def __init__(self, message: str, file: str | None = None) -> None:
        super().__init__(file, message)


class EmendationError(JiaokanError):
    """案 notes that cannot be applied or checked as asked (a witness that is not the partner …)."""

    def __init__(self, message: str, file: str | None = None) -> None:
        super().__init__(file, message)


class OutputError(JiaokanError):
    """An output the system refused (no permission, a file in the way, a full disk)."""

    exit_status = 1
