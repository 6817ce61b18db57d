"""CollateX's JSON input (``{"witnesses": [{"id", "content" | "tokens"}]}``) → witnesses jiaokan collates.

(Its JSON output, an alignment table, is read back by :mod:`.alignment_table`: the same door, the
``.json`` a command or :func:`jiaokan.collate` is given, tells the two apart by their shape.)

The format is CollateX's documented input (https://collatex.net/doc/, "JSON input";
the REST service and the Python port read the same shape): a ``witnesses`` list whose
objects have a unique ``id`` and either ``content`` (the plain text) or ``tokens``
(objects with ``t``, the token as written, and optionally ``n``, a normalized form;
other properties are allowed and carried through by CollateX, ignored here).

How such a witness maps onto jiaokan's model, and why:

* A CollateX witness has no layers.  Its whole text becomes one 经 (``jing``) piece
  in one passage, so it collates against the 经 of TEI witnesses (and against other
  CollateX witnesses) and every 经-only rule applies.  There is no "unknown" layer in
  the profile, and 经 is what a bare text of a classic is.
* The text is the concatenation of the tokens (CollateX keeps a token's trailing
  whitespace in ``t``).  A token's ``n`` is, as CollateX documents it, the form "the
  collator should use in precedence over the original token while matching": where a
  token has one, ``n`` is what jiaokan collates (and then folds on its own keys: script,
  异体, taboo forms), and a warning on the witness says how many tokens were so read,
  with the first ``t`` → ``n``.  Tokens without ``n`` are read as ``t``.
* Any string ``id`` is accepted (``"1"``, ``"Ms A"``, ``"Ａ²"``): the siglum is an XML
  name made from it (:func:`siglum_for_id`), and the id itself stays the witness's label
  (its title: the ``listWit/witness`` a viewer shows).  Ids are checked on entry.

Hostile input is refused on entry, in one line (exit status 2), never with a traceback:
a file over :data:`MAX_BYTES`, arrays or objects nested deeper than :data:`MAX_DEPTH`, a
number longer than :data:`MAX_NUMBER` characters (Python refuses to convert integers of
over 4,300 digits, with a ValueError), an id that is empty, over :data:`MAX_ID` characters
or holds a control character.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

from ..model import EXTENT, WHOLE, Div, Gaiji, Loc, Piece, ReaderWarning, Unit, Witness, WitnessMeta, text_nodes
from ..names import siglum_problem
from ..readers.common.base import ReaderError, decode_utf8
from .alignment_table import looks_like_alignment_table, witnesses_from_table

FORMAT = "collatex-json"
MAX_BYTES = 256 * 1024 * 1024  # a whole book is some 10 MB of text; more than this is not a witness list
MAX_DEPTH = 64  # CollateX input nests 4 deep ({witnesses: [{tokens: [{…}]}]}); extra token properties a little more
MAX_NUMBER = 100  # characters of one JSON number
MAX_ID = 200  # characters of a witness id

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = re.compile(rb"[\[\]{}]")


def looks_like_collatex(data: object) -> bool:
    """A JSON value in CollateX's input shape (an object with a ``witnesses`` list of objects with an ``id``)."""
    return (isinstance(data, dict) and isinstance(data.get("witnesses"), list)
            and all(isinstance(w, dict) and "id" in w for w in data["witnesses"]))


def siglum_for_id(wid: str) -> str:
    """An XML name usable as a siglum, made from a CollateX witness id.

    NFKC first (``Ａ²`` → ``A2``), then every run of characters a siglum may not hold becomes
    ``_``; an id that does not then start with an ASCII letter gets a ``W`` in front
    (``"1"`` → ``W1``, ``"Ms A"`` → ``Ms_A``, ``"甲本"`` → ``W``: the caller makes it unique).
    """
    if not siglum_problem(wid):
        return wid
    s = re.sub(r"[^A-Za-z0-9_-]+", "_", unicodedata.normalize("NFKC", wid)).strip("_")
    if not s[:1].isascii() or not s[:1].isalpha():
        s = "W" + s
    return s[:32]


def _id_problem(wid: object) -> str | None:
    if not isinstance(wid, str) or not wid.strip():
        return "expected an object with a string 'id'"
    if len(wid) > MAX_ID:
        return f"id of {len(wid)} characters: at most {MAX_ID}"
    bad = next((c for c in wid if unicodedata.category(c) in ("Cc", "Cs", "Cn")), None)
    if bad is not None:
        return f"id holds U+{ord(bad):04X}, a character no label can show"
    return None


def _witness_text(w: dict, where: str, name: str) -> tuple[str, list[tuple[str, str]]]:
    """The witness's text (``n`` where a token gives one) and the tokens read as their ``n`` (t, n)."""
    if "content" in w:
        if not isinstance(w["content"], str):
            raise ReaderError(name, f"{where}.content: expected a string, found {type(w['content']).__name__}")
        return w["content"], []
    tokens = w.get("tokens")
    if not isinstance(tokens, list):
        raise ReaderError(name, f"{where}: expected 'content' (a string) or 'tokens' (a list of {{\"t\": …}})")
    parts: list[str] = []
    normalized: list[tuple[str, str]] = []
    for j, tok in enumerate(tokens):
        if not isinstance(tok, dict) or not isinstance(tok.get("t"), str):
            raise ReaderError(name, f"{where}.tokens[{j}]: expected an object with a string 't'")
        n = tok.get("n")
        if n is not None and not isinstance(n, str):
            raise ReaderError(name, f"{where}.tokens[{j}].n: expected a string, found {type(n).__name__}")
        if n is not None and n.strip() != tok["t"].strip():
            # CollateX keeps a token's trailing whitespace in t, not in n: keep it, so tokens stay apart
            trail = tok["t"][len(tok["t"].rstrip()):]
            parts.append(n.strip() + trail)
            normalized.append((tok["t"], n))
        else:
            parts.append(tok["t"])
    return "".join(parts), normalized


def witnesses_from_collatex(data: object, name: str = "<json>") -> list[Witness]:
    """The witnesses of a parsed CollateX JSON input; a one-line :class:`ReaderError` for a malformed one."""
    if looks_like_alignment_table(data):  # CollateX's output (jiaokan's --json): its witnesses read back
        return witnesses_from_table(data, name)  # type: ignore[arg-type]
    if not isinstance(data, dict) or not isinstance(data.get("witnesses"), list):
        raise ReaderError(name, 'not CollateX JSON input: expected an object {"witnesses": [{"id": …, "content": …}, …]}')
    out: list[Witness] = []
    seen: set[str] = set()
    sigla: set[str] = set()
    for i, w in enumerate(data["witnesses"]):
        where = f"witnesses[{i}]"
        problem = _id_problem(w.get("id") if isinstance(w, dict) else None)
        if problem:
            raise ReaderError(name, f"{where}: {problem}")
        wid: str = w["id"]
        if wid in seen:
            raise ReaderError(name, f"{where}: id {wid!r} is used twice: witness ids must be unique")
        seen.add(wid)
        sig = base = siglum_for_id(wid)
        k = 2
        while sig in sigla:  # two ids that make the same name ("Ms A", "Ms-A"?): number the later one
            sig = f"{base}_{k}"
            k += 1
        sigla.add(sig)
        text, normalized = _witness_text(w, where, name)
        if not text.strip():
            raise ReaderError(name, f"{where}: witness {wid!r} has no text")
        meta = WitnessMeta(siglum=sig, file=name, format=FORMAT, title=wid, work="",
                           extra={EXTENT: WHOLE, **({"collatex-id": wid} if sig != wid else {})})
        content = text_nodes(text)  # a control character XML cannot hold becomes its marker
        piece = Piece(layer="jing", content=content, loc=Loc(line=1))
        div = Div(type="chapter", n="1", title=None, units=[Unit(id=f"{sig}.1", pieces=[piece])], id=f"{sig}.d1")
        chars = {n.code: None for n in content if isinstance(n, Gaiji)}
        wit = Witness(meta=meta, divs=[div], char_decl=dict(chars))
        if normalized:
            t0, n0 = normalized[0]
            wit.warnings.append(ReaderWarning(name, 1, "collatex-n", (
                f"witness {wid!r}: {len(normalized)} token(s) collated as their normalized form n "
                f"(first: {t0!r} → {n0!r}); the text here is n where a token gives one")))
        out.append(wit)
    if not out:
        raise ReaderError(name, "the CollateX input lists no witnesses")
    return out


def _check_shape(raw: bytes, name: str) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` before the parser recurses into it (linear time)."""
    depth = 0
    stripped = _STRING.sub(b'""', raw)  # brackets inside strings are text
    for m in _BRACKETS.finditer(stripped):
        if m.group() in (b"[", b"{"):
            depth += 1
            if depth > MAX_DEPTH:
                line = stripped.count(b"\n", 0, m.start()) + 1  # a JSON string holds no raw newline
                raise ReaderError(name, f"arrays or objects nested over {MAX_DEPTH} deep: not CollateX input", line=line)
        else:
            depth -= 1


def _number(text: str) -> int | float:
    if len(text) > MAX_NUMBER:
        raise ValueError(f"a number of {len(text)} characters (at most {MAX_NUMBER})")
    return float(text) if any(c in text for c in ".eE") else int(text)


def read_collatex_json(path: str | Path) -> list[Witness]:
    """Read a CollateX JSON input file; errors are one line with the file (and line for bad JSON)."""
    name = str(path)
    p = Path(path)
    try:
        if not p.is_file():
            raise ReaderError(name, "not a regular file" if p.exists() else "no such file")
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise ReaderError(name, f"{size} bytes: CollateX input is read whole, at most {MAX_BYTES}")
        raw = p.read_bytes()
    except OSError as exc:
        raise ReaderError(name, f"cannot read: {exc.strerror or exc}") from None
    return collatex_from_bytes(raw, name)


def collatex_from_bytes(raw: bytes, name: str = "<json>") -> list[Witness]:
    """The witnesses of CollateX JSON input given as bytes (see :func:`read_collatex_json`)."""
    if len(raw) > MAX_BYTES:
        raise ReaderError(name, f"{len(raw)} bytes: CollateX input is read whole, at most {MAX_BYTES}")
    text = decode_utf8(name, raw)  # (a file cut inside a character says so: a truncated table or input)
    _check_shape(raw, name)
    try:
        data = json.loads(text, parse_int=_number, parse_float=_number, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise ReaderError(name, f"not valid JSON: {exc.msg} (column {exc.colno})", line=exc.lineno) from None
    except (ValueError, RecursionError) as exc:
        raise ReaderError(name, f"not CollateX input: {exc}") from None
    return witnesses_from_collatex(data, name)


def _no_constant(text: str) -> float:
    raise ValueError(f"{text} is not JSON")
