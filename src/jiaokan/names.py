"""Names that become XML ids or file names: sigla, collation names, output file names.

Why one module: a siglum ends up as ``xml:id`` (``<witness xml:id="JS">``), as the
prefix of every passage id (``JS10.10``) and in ``@wit="#JS"``; a collation name ends up
as a file name under ``OUT/apparatus/`` and a page of the site.  A bad one used to be
written as given (``xml:id="004_E265"``, ``name = "../../x"``) and broke every later
command, or wrote outside the output folder.  So a name the user gives is checked once,
where it enters (a manifest key, a command-line option), with an error that says what is
allowed; a name jiaokan derives (from a file name) is made valid by construction.
"""

from __future__ import annotations

import re
from pathlib import Path

#: A siglum: ASCII so that it is an XML NCName, a CSS-safe class and a plain file-name part.
_SIGLUM = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}")
SIGLUM_RULE = "a letter, then at most 31 ASCII letters, digits, '_' or '-' (it becomes an xml:id)"

#: A collation name: one plain file name (any script), no folder, not hidden, not an option.
_NAME = re.compile(r"[^\W_][\w.-]{0,99}")
NAME_RULE = "letters, digits, '_', '.' or '-' (up to 100), starting with a letter or digit: a plain file name"

#: What ``jiaokan ingest -`` (standard input) is called: ``OUT/stdin.xml``.
STDIN_STEM = "stdin"


def siglum_problem(siglum: str) -> str | None:
    """Why ``siglum`` cannot be a siglum, or None when it can."""
    if _SIGLUM.fullmatch(siglum):
        return None
    return f"siglum {siglum!r} is not allowed: expected {SIGLUM_RULE}"


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot name an output file (a collation), or None when it can."""
    if _NAME.fullmatch(name):
        return None
    return f"name {name!r} is not allowed: expected {NAME_RULE}"


def derive_siglum(path: str | Path) -> str:
    """A valid siglum made from a file name, for a file no manifest or option describes.

    The ASCII letters, digits, '_' and '-' of the stem, upper-cased, at most 8; a stem
    that does not start with a letter gets a ``W`` in front (``004_e265843f….txt`` →
    ``W004_E26``); a stem with none of them is ``W``.
    """
    kept = re.sub(r"[^A-Za-z0-9_-]", "", Path(path).stem).upper()
    if not kept[:1].isalpha():
        kept = "W" + kept
    return kept[:8]


def output_stem(path: str | Path) -> str:
    """The stem of the TEI file written for input ``path``: its own stem; ``stdin`` for ``-``."""
    return STDIN_STEM if str(path) == "-" else Path(path).stem
