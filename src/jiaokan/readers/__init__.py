"""Witness formats → the witness model.

Each reader knows one transcription format; :func:`read_witness` picks the
reader (sniffing the format when it is not given), decodes the file safely and
returns a :class:`~jiaokan.model.Witness`.

The folder says what each module is:

* ``formats/`` — one module per witness format (the Mandoku family is a folder:
  its three readers and the Mandoku file model they share); each reader class
  registers itself with :func:`~jiaokan.readers.registry.register`;
* ``layouts/`` — layout models several formats share: how a 集释 page or a 注疏
  page lays out its layers, whatever file the page comes in (``jishi``,
  ``zhushu`` and its 注/经 boundary model ``zhushu_boundary``);
* ``common/`` — the machinery every reader uses: the decoded source and the
  witness builder (``base``), encodings, losslessness, facts of 《仪礼》 (``yili``);
* ``registry.py`` — the format names, and plugins from other packages.
"""

from __future__ import annotations

from pathlib import Path

from ..model import Witness, WitnessMeta
from ..names import derive_siglum
from .formats import jishi_flat, jishi_pages, mandoku, tushu_blocks, tushu_wikisource, zhushu_ctext  # noqa: F401  (they register)
from .common.base import Reader, ReaderError, SourceText, load_source
from .registry import READERS, load_plugins, register

load_plugins()


def sniff(src: SourceText) -> Reader | None:
    """The reader most confident that it can read ``src``, or None."""
    scored = sorted(((r.sniff(src), r.name) for r in READERS.values()), reverse=True)
    if scored and scored[0][0] > 0:
        return READERS[scored[0][1]]
    return None


def get_reader(name: str) -> Reader:
    try:
        return READERS[name]
    except KeyError:
        raise ReaderError(name, f"unknown format '{name}'; known formats: {', '.join(sorted(READERS))}") from None


def read_witness(path: str | Path, meta: WitnessMeta | None = None, fmt: str | None = None) -> Witness:
    """Read one witness file.  ``fmt`` None: sniff it.  Raises :class:`ReaderError` on bad input."""
    src = load_source(path)
    if fmt:
        reader = get_reader(fmt)
        if reader.sniff(src) <= 0:
            guess = sniff(src)
            hint = (f"; it looks like '{guess.name}' (try --format {guess.name}, or format = \"{guess.name}\" in a "
                    "manifest)" if guess else "")
            raise ReaderError(src.path, f"does not look like a '{reader.name}' file: expected {reader.expected()}{hint}")
    else:
        found = sniff(src)
        if found is None:
            raise ReaderError(src.path, "unknown format: no reader recognises this file (`jiaokan formats` lists them)")
        reader = found
    if meta is None:
        meta = WitnessMeta(siglum=derive_siglum(path), file=str(path), format=reader.name)
    else:
        meta.format = reader.name
    meta.role = meta.role or reader.role
    w = reader.read(src, meta, check_format=False)
    w.meta.author = w.meta.author or reader.author  # when neither the manifest nor the file names one
    return w


def default_role(fmt: str) -> str:
    """The role a file of format ``fmt`` has when nothing says otherwise."""
    reader = READERS.get(fmt)
    return reader.role if reader is not None else "reference"


__all__ = ["READERS", "Reader", "ReaderError", "default_role", "register", "read_witness", "sniff", "get_reader", "load_source"]
