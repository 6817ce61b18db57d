"""CollateX's JSON input (``{"witnesses": [{"id", "content" | "tokens"}]}``) → witnesses jiaokan collates.

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
* The text is the concatenation of the tokens' ``t`` (CollateX keeps a token's trailing
  whitespace in ``t``), so the witness reads exactly as CollateX's would.  jiaokan
  aligns character by character on its own comparison keys (script, 异体, taboo folds),
  so a token's ``n`` is not used for matching: a normalization that spans a whole token
  cannot be expressed per character.  This is said in ``jiaokan collate --help``.
* The ``id`` becomes the siglum, so it must be usable as a TEI siglum (an XML name).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from ..errors import InputError
from ..model import Div, Gaiji, Loc, Piece, Unit, Witness, WitnessMeta, text_nodes

FORMAT = "collatex-json"
_NCNAME = re.compile(r"^[A-Za-z_][\w.\-]*$")


def looks_like_collatex(data: object) -> bool:
    """A JSON value in CollateX's input shape (an object with a ``witnesses`` list of objects with an ``id``)."""
    return (isinstance(data, dict) and isinstance(data.get("witnesses"), list)
            and all(isinstance(w, dict) and "id" in w for w in data["witnesses"]))


def _witness_text(w: dict, where: str, name: str) -> str:
    if "content" in w:
        if not isinstance(w["content"], str):
            raise InputError(name, f"{where}.content: expected a string, found {type(w['content']).__name__}")
        return w["content"]
    tokens = w.get("tokens")
    if not isinstance(tokens, list):
        raise InputError(name, f"{where}: expected 'content' (a string) or 'tokens' (a list of {{\"t\": …}})")
    parts: list[str] = []
    for j, tok in enumerate(tokens):
        if not isinstance(tok, dict) or not isinstance(tok.get("t"), str):
            raise InputError(name, f"{where}.tokens[{j}]: expected an object with a string 't'")
        parts.append(tok["t"])
    return "".join(parts)


def witnesses_from_collatex(data: object, name: str = "<json>") -> list[Witness]:
    """The witnesses of a parsed CollateX JSON input; a one-line :class:`InputError` for a malformed one."""
    if not isinstance(data, dict) or not isinstance(data.get("witnesses"), list):
        raise InputError(name, 'not CollateX JSON input: expected an object {"witnesses": [{"id": …, "content": …}, …]}')
    out: list[Witness] = []
    seen: set[str] = set()
    for i, w in enumerate(data["witnesses"]):
        where = f"witnesses[{i}]"
        if not isinstance(w, dict) or not isinstance(w.get("id"), str) or not w["id"]:
            raise InputError(name, f"{where}: expected an object with a string 'id'")
        sig = w["id"]
        if not _NCNAME.match(sig):
            raise InputError(name, f"{where}: id {sig!r} cannot be a TEI siglum: use letters, digits, '_', '-', '.', "
                              "starting with a letter or '_'")
        if sig in seen:
            raise InputError(name, f"{where}: id {sig!r} is used twice: witness ids must be unique")
        seen.add(sig)
        text = _witness_text(w, where, name)
        if not text.strip():
            raise InputError(name, f"{where}: witness {sig!r} has no text")
        meta = WitnessMeta(siglum=sig, file=name, format=FORMAT, title=sig, work="")
        content = text_nodes(text)  # a control character XML cannot hold becomes its marker
        piece = Piece(layer="jing", content=content, loc=Loc(line=1))
        div = Div(type="chapter", n="1", title=None, units=[Unit(id=f"{sig}.1", pieces=[piece])], id=f"{sig}.d1")
        chars = {n.code: None for n in content if isinstance(n, Gaiji)}
        out.append(Witness(meta=meta, divs=[div], char_decl=dict(chars)))
    if not out:
        raise InputError(name, "the CollateX input lists no witnesses")
    return out


def read_collatex_json(path: str | Path) -> list[Witness]:
    """Read a CollateX JSON input file; errors are one line with the file (and line for bad JSON)."""
    name = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise InputError(name, f"cannot read: {exc.strerror or exc}") from None
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise InputError(name, f"not UTF-8 (byte {exc.start}): JSON input must be UTF-8") from None
    except json.JSONDecodeError as exc:
        raise InputError(name, f"not valid JSON: {exc.msg} (column {exc.colno})", line=exc.lineno) from None
    return witnesses_from_collatex(data, name)
