"""The corpus manifest (``corpus/corpus.toml``): which files, in which format, with which siglum."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from .model import ROLES, WitnessMeta
from .readers.base import ReaderError

MANIFEST = "corpus.toml"
_FIELDS = ("siglum", "format", "title", "work", "chapter", "juan", "script", "source", "licence", "edition", "author", "role")


@dataclass
class Entry:
    path: Path
    meta: WitnessMeta

    @property
    def stem(self) -> str:
        return self.path.stem


def load_manifest(corpus_dir: str | Path) -> list[Entry]:
    """Read ``corpus.toml``; a one-line :class:`ReaderError` for a missing or malformed manifest."""
    corpus_dir = Path(corpus_dir)
    mpath = corpus_dir / MANIFEST
    if not mpath.is_file():
        raise ReaderError(str(mpath), "no corpus manifest here (expected corpus.toml listing the witnesses)")
    try:
        data = tomllib.loads(mpath.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ReaderError(str(mpath), f"malformed manifest: {exc}") from None
    entries: list[Entry] = []
    for i, w in enumerate(data.get("witness", []), 1):
        if "file" not in w or "siglum" not in w:
            raise ReaderError(str(mpath), f"[[witness]] number {i} needs at least 'file' and 'siglum'")
        # the ** keys are _FIELDS, all str fields of WitnessMeta; mypy cannot tell them from 'extra' (a dict)
        meta = WitnessMeta(file=w["file"], **{k: str(w.get(k, "")) for k in _FIELDS if k != "format"}, format=w.get("format", ""))  # type: ignore[arg-type]
        if meta.role and meta.role not in ROLES:
            raise ReaderError(str(mpath), f"[[witness]] number {i} ({w['file']}): unknown role {meta.role!r}; "
                              f"known roles: {', '.join(ROLES)}")
        entries.append(Entry(corpus_dir / w["file"], meta))
    if not entries:
        raise ReaderError(str(mpath), "the manifest lists no [[witness]]")
    return entries


@dataclass
class CollationSpec:
    """One collation `jiaokan build` runs: the manifest witnesses of a chapter against a base."""

    name: str
    chapter: str
    base: str | None
    entries: list[Entry]


def load_collations(corpus_dir: str | Path, entries: list[Entry]) -> list[CollationSpec]:
    """The [[collation]] tables of the manifest; without any, every chapter shared by 2+ witnesses."""
    mpath = Path(corpus_dir) / MANIFEST
    data = tomllib.loads(mpath.read_text(encoding="utf-8"))
    specs: list[CollationSpec] = []
    tables = data.get("collation")
    if tables is None:
        chapters: dict[str, list[Entry]] = {}
        for e in entries:
            if e.meta.chapter:
                chapters.setdefault(e.meta.chapter, []).append(e)
        tables = [{"name": f"chapter{i}", "chapter": ch} for i, ch in enumerate(chapters, 1) if len(chapters[ch]) > 1]
    for i, t in enumerate(tables, 1):
        if "chapter" not in t:
            raise ReaderError(str(mpath), f"[[collation]] number {i} needs a 'chapter'")
        members = [e for e in entries if e.meta.chapter == t["chapter"]]
        specs.append(CollationSpec(t.get("name", f"chapter{i}"), t["chapter"], t.get("base"), members))
    return specs


def find_entry(path: str | Path) -> Entry | None:
    """The manifest entry for ``path`` when it sits in a corpus folder, else None."""
    path = Path(path).resolve()
    mpath = path.parent / MANIFEST
    if not mpath.is_file():
        return None
    try:
        for e in load_manifest(path.parent):
            if e.path.resolve() == path:
                return e
    except ReaderError:
        return None
    return None
