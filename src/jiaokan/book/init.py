"""``jiaokan init PATH... -o corpus.toml``: find the witness files, group them into witnesses, write a manifest.

What a scholar has is folders (Kanripo clones, a folder of exports) and files; what
``jiaokan build`` needs is a manifest.  ``init`` writes the one from the other and says
what it decided, so the scholar edits a proposal rather than starting from nothing:

* every ``*.txt`` under the paths whose format a reader recognises is a witness file;
* Kanripo files are grouped by text and edition (``KR1d0030`` + ``WYG`` from the page
  tags): one witness, all its 卷; any other file is a witness of its own;
* each witness gets a siglum from its role (JS 集释, ZS 注疏, SB 宋本/四部丛刊, TS
  图书集成, W other) and the base is the 集释 when there is one (its 案 notes are the
  point of the edition), else the 注疏;
* every file is read to find the 篇 it holds (:mod:`.pian`), exactly as ``build`` will.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..io import atomic_write_bytes
from ..model import Witness, WitnessMeta
from ..readers import default_role, read_witness, sniff
from ..readers.common.base import load_source
from ..readers.formats.mandoku.source import KANRIPO_PB_RE, MODE_RE, text_id_of
from ..ui import counted
from .assemble import FilePart, place_files
from .pian import FRONT

#: The siglum a witness of each role is proposed under (a second one of a role gets a number).
ROLE_SIGLA = {"jishi": "JS", "zhushu": "ZS", "songben": "SB", "danshu": "DS", "shiwu": "SW"}
PB_ID_RE = re.compile(r"<pb:([^>\s]+)>")


@dataclass
class Found:
    """One witness file: its sniffed format, Kanripo text id and edition, and what reading it placed."""

    path: Path
    format: str
    text_id: str | None = None
    edition: str = ""
    title: str = ""
    juan: str = ""
    pians: list[tuple[str | None, str]] = field(default_factory=list)  # (篇 or None, how), in order


@dataclass
class Group:
    """The files of one witness (one file, or every 卷 of one Kanripo text and edition)."""

    files: list[Found]
    format: str
    role: str
    siglum: str = ""

    @property
    def key(self) -> str:
        f = self.files[0]
        return f"{f.text_id} {f.edition}" if f.text_id else str(f.path)


@dataclass
class Survey:
    groups: list[Group]
    skipped: list[str]  # "path: why" for witness files that fail to read
    base: str | None = None
    #: files no reader recognises (a README beside the witnesses, a format jiaokan has no reader for): not witnesses
    #: here, so left out with a warning, not as damaged witness files whose 篇 the build would lack
    unrecognised: list[str] = field(default_factory=list)

    def unplaced(self) -> list[str]:
        return [f"{f.path}: no 篇 found (no heading and none open from an earlier 卷)"
                for g in self.groups for f in g.files if any(p is None for p, _ in f.pians)]


def candidates(paths: list[str]) -> list[Path]:
    """Every ``*.txt`` file under the given folders, and the given files, once each, sorted."""
    out: dict[Path, None] = {}
    for p in map(Path, paths):
        if p.is_dir():
            for f in sorted(p.rglob("*.txt")):
                if not any(part.startswith(".") for part in f.relative_to(p).parts):
                    out[f] = None
        elif p.is_file():
            out[p] = None
        else:
            raise InputError(str(p), "no such file or folder")
    return list(out)


def _found(path: Path) -> Found | str | None:
    """What sniffing says about ``path``; why it could not be read; or None where no reader recognises it."""
    try:
        src = load_source(path)
    except InputError as exc:
        return str(exc)
    reader = sniff(src)
    if reader is None:  # a file that names a Kanripo text, or has its mode line or page tags, claims to be a witness
        head = src.lines[:400]
        claims = text_id_of(src) is not None or any("<pb:" in ln or MODE_RE.match(ln) for ln in head)
        return (f"{path}: no reader recognises this file, though it looks like a Kanripo text (its mode line, text id "
                "or page tags): is it cut off or damaged?") if claims else None
    f = Found(path, reader.name, text_id_of(src))
    for ln in src.lines[:400]:
        if m := PB_ID_RE.search(ln):
            if pb := KANRIPO_PB_RE.match(m.group(1)):
                f.edition = pb.group("ed")
            break
    return f


def survey(paths: list[str]) -> Survey:
    """Find, sniff, group and read every witness file under ``paths``."""
    groups: dict[str, list[Found]] = {}
    skipped: list[str] = []
    unrecognised: list[str] = []
    for path in candidates(paths):
        f = _found(path)
        if f is None:
            unrecognised.append(str(path))
            continue
        if isinstance(f, str):
            skipped.append(f)
            continue
        key = f"{f.text_id} {f.edition}" if f.text_id else str(f.path)
        groups.setdefault(key, []).append(f)
    out: list[Group] = []
    for files in groups.values():
        fmt = Counter(f.format for f in files).most_common(1)[0][0]
        g = Group(files, fmt, default_role(fmt))
        _place(g, skipped)
        if g.files:
            out.append(g)
    order = {r: i for i, r in enumerate(("jishi", "zhushu", "songben", "danshu", "shiwu"))}
    out.sort(key=lambda g: (order.get(g.role, len(order)), g.key))  # the witness with 案 notes first
    _sigla(out)
    base = next((g.siglum for role in ("jishi", "zhushu") for g in out if g.role == role), None)
    return Survey(out, skipped, base or (out[0].siglum if out else None), unrecognised)


def _place(g: Group, skipped: list[str]) -> None:
    """Read every file of ``g`` (in 卷 order) and record the 篇 of each, as ``build`` will find them."""
    read: list[tuple[Found, Witness]] = []
    for f in g.files:
        meta = WitnessMeta(siglum="W", file=str(f.path), format="", role=g.role)
        try:
            w = read_witness(f.path, meta, f.format)
        except InputError as exc:
            skipped.append(str(exc))
            continue
        f.title, f.juan = w.meta.title, w.meta.juan
        read.append((f, w))
    read.sort(key=lambda fw: (int(fw[0].juan) if fw[0].juan.isdigit() else 10**6, fw[0].path.name))
    g.files = [f for f, _ in read]
    for f, pl in zip(g.files, place_files([FilePart(str(f.path), w) for f, w in read])):
        f.pians = [(st.pian, st.how) for st in pl.stretches]


def _sigla(groups: list[Group]) -> None:
    used: Counter[str] = Counter()
    for g in groups:
        stem = ROLE_SIGLA.get(g.role) or ("TS" if g.format.startswith("tushu") else "W")
        used[stem] += 1
        g.siglum = stem if used[stem] == 1 else f"{stem}{used[stem]}"


# --------------------------------------------------------------------------
# The manifest


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


#: How many folders above the manifest's a path ``init`` writes may climb and still be written relative to it.
UP = 1


def manifest_path(target: Path, root: Path) -> str:
    """How the manifest in folder ``root`` names ``target`` (a file or a folder).

    Relative when ``target`` is under the manifest's folder or in a folder beside it (``k/…``,
    ``../kanripo/…``): the book moved or copied with its corpus keeps working.  Absolute
    otherwise: a corpus elsewhere on the machine (``init /work/shared/kanripo -o book/corpus.toml``)
    is found wherever the book goes, where ``../../../../..`` would point nowhere once it moved.
    Relative to the folder as named (symbolic links kept, as the user spelt them) when that
    reaches the same place, else to where the folders really are.
    """
    real = target.resolve()
    for t, r in ((Path(os.path.abspath(target)), Path(os.path.abspath(root))), (real, root.resolve())):
        try:
            rel = Path(os.path.relpath(t, r))
        except ValueError:  # another drive (Windows): only an absolute path names it
            continue
        if rel.parts.count("..") <= UP and (root / rel).resolve() == real:
            return rel.as_posix()
    spelt = Path(os.path.abspath(target))
    return (spelt if spelt.resolve() == real else real).as_posix()


def _files_value(g: Group, root: Path) -> list[str]:
    """The witness's files as the manifest in ``root`` names them (:func:`manifest_path`): one glob per
    folder when it matches exactly these files."""
    by_dir: dict[Path, list[Path]] = {}
    for f in g.files:
        by_dir.setdefault(f.path.parent, []).append(f.path)
    out: list[str] = []
    for d, paths in by_dir.items():
        where = manifest_path(d, root)
        tid = g.files[0].text_id
        pattern = f"{tid}_*.txt" if tid else ""
        if pattern and {p.resolve() for p in d.glob(pattern)} == {p.resolve() for p in paths}:
            out.append(_join(where, pattern))
        else:
            out.extend(_join(where, p.name) for p in paths)
    return out


def _join(folder: str, name: str) -> str:
    return name if folder == "." else f"{folder.rstrip('/')}/{name}"


#: The licence of the Kanseki Repository's transcriptions (https://www.kanripo.org), which ``init`` writes for
#: a witness made of Kanripo files: the TEI says it in ``availability/licence`` (with the deed as ``@target``).
KANRIPO_LICENCE = "Kanseki Repository (Kanripo) transcription: CC BY-SA 4.0"


def manifest_text(s: Survey, root: Path) -> str:
    """The manifest ``init`` proposes, with comments that say what was found and how to change it."""
    lines = [
        "# The corpus manifest, proposed by `jiaokan init`: read it, edit it, then `jiaokan build --corpus THIS_FILE`.",
        "#",
        "# One [[witness]] per text and edition.  `files` lists its files (globs relative to this file's folder, or",
        "# absolute where they are neither in it nor beside it); each file keeps its own 卷, pages and lines.  The 篇",
        "# of every part of a file is found from the text (headings such as 鄉射禮第五; a 卷 that opens mid-篇",
        "# continues the open one).  Where the text does not say, set it:",
        "#   [witness.overrides.\"FILE\"]  chapter = \"聘禮\"   (also: format, juan)",
        "# `role`: jishi (its 案 notes are checked), zhushu (what they are checked against), songben, reference,",
        "#   danshu (the 单疏本 《儀禮疏》: its 疏 is collated with the 注疏's), shiwu (張淳《儀禮識誤》: its claims are checked).",
        "# `base` (under [corpus]): the witness every 篇 is collated against when it holds the 篇.",
        *_left_out(s),
        "",
        "[corpus]",
        f"title = {_q(proposed_title(s))}",
        'work = "仪礼"',
    ]
    if s.base:
        lines.append(f"base = {_q(s.base)}")
    for g in s.groups:
        f0 = g.files[0]
        lines += ["", f"# {g.key}: {counted(len(g.files), 'file')}, format {g.format}"]
        for f in g.files:
            where = ", ".join(f"{p or '??? (not placed)'} ({how})" for p, how in f.pians) or "no text"
            lines.append(f"#   {f.path.name}  卷 {f.juan or '?'}: {where}")
        lines += ["[[witness]]", f"siglum = {_q(g.siglum)}", f"role = {_q(g.role)}", f"format = {_q(g.format)}"]
        if f0.title:
            lines.append(f"title = {_q(f0.title + (' (' + f0.edition + ')' if f0.edition else ''))}")
        if f0.edition:
            lines.append(f"edition = {_q(f0.edition)}")
        if f0.text_id:
            lines.append(f"source = {_q(f'Kanseki Repository {f0.text_id}, {f0.edition} branch')}")
            lines.append(f"licence = {_q(KANRIPO_LICENCE)}  # the Kanseki Repository's licence of its transcriptions")
        if len(g.files) == 1 and not f0.text_id:
            lines.append(f"file = {_q(manifest_path(f0.path, root))}")
            pian = next((p for p, _ in f0.pians if p and p != FRONT), None)
            if pian:
                lines.append(f"chapter = {_q(pian)}")
            continue
        lines.append("files = [" + ", ".join(_q(v) for v in _files_value(g, root)) + "]")
        for f in g.files:
            rel = _join(manifest_path(f.path.parent, root), f.path.name)
            if f.format != g.format:
                lines += [f"[witness.overrides.{_q(rel)}]",
                          f"format = {_q(f.format)}  # its body does not show the {g.format} layout (front matter?)"]
            if any(p is None for p, _ in f.pians):
                lines += [f"# [witness.overrides.{_q(rel)}]", '# chapter = "…"  # no 篇 found for this file: say which']
    return "\n".join(lines) + "\n"


def coverage(s: Survey) -> list[tuple]:
    """One row per 篇: the witnesses (sigla) and files that hold it, in book order."""
    rows: dict[str, dict[str, list[str]]] = {}
    for g in s.groups:
        for f in g.files:
            for p, _ in f.pians:
                if p is not None:
                    rows.setdefault(p, {}).setdefault(g.siglum, []).append(f.path.stem.rsplit("_", 1)[-1])
    return [(p, " ".join(f"{sig}({','.join(js)})" for sig, js in by.items())) for p, by in rows.items()]


def _left_out(s: Survey) -> list[str]:
    """Comment lines naming the files found but left out of every witness, because they could not be read.

    Why in the manifest, not only in `init`'s error lines: a witness whose files are then listed one by one
    (not by a pattern, which would take the bad file in) builds without those 卷, and the build, which respects
    a list the user wrote, does not ask why; the manifest is where the next reader looks."""
    out: list[str] = []
    if s.skipped:
        out += ["#", "# LEFT OUT: these files could not be read (mend them, then run `jiaokan init --force` again, which",
                "# replaces this file); until then the 篇 they hold are built without them:"] + [f"#   {msg}" for msg in s.skipped]
    if s.unrecognised:
        out += ["#", "# NOT WITNESSES: no reader recognises these files, so they are not in any witness (a witness in a",
                "# format jiaokan has no reader for needs one: `jiaokan formats` lists them):"]
        out += [f"#   {path}" for path in s.unrecognised]
    return out


def proposed_title(s: Survey) -> str:
    """The edition's title ``init`` proposes: the work and the texts it collates, by their titles, as the index page
    heads them (仪礼 合校：儀禮集釋 · 儀禮注疏 · 儀禮 (SBCK) · …).  Why: the sigla it was (仪礼 JS · ZS · SB) say
    nothing to a reader who has not opened the manifest.  A text is named by its title, with its edition where
    the title alone is the work's or another text's (the 四部丛刊's 儀禮); by its siglum where it has no title."""
    titles = [g.files[0].title.strip() for g in s.groups]
    names = []
    for g, t in zip(s.groups, titles):
        f0 = g.files[0]
        plain = t and t not in ("仪礼", "儀禮") and titles.count(t) == 1
        names.append(t if plain else f"{t} ({f0.edition})" if t and f0.edition else t or g.siglum)
    return "仪礼 合校：" + " · ".join(names) if names else "仪礼"


def write_manifest(s: Survey, out: Path) -> None:
    atomic_write_bytes(out, manifest_text(s, out.parent).encode("utf-8"))
