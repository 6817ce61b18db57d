"""Facts about the work itself (《仪礼》) that readers use as layout cues.

The seventeen 篇 titles let a reader recognise a chapter heading line in any
transcription, simplified or traditional, with or without ``第N``.
"""

from __future__ import annotations

import re

from ...normalize.translate import LazyTable

#: The 17 篇 of 仪礼 in order (traditional forms).
PIAN: tuple[str, ...] = (
    "士冠禮", "士昏禮", "士相見禮", "鄉飲酒禮", "鄉射禮", "燕禮", "大射儀", "聘禮", "公食大夫禮",
    "覲禮", "喪服", "士喪禮", "既夕禮", "士虞禮", "特牲饋食禮", "少牢饋食禮", "有司徹",
)

_NUM = "一二三四五六七八九十"

#: A heading line: the title, an optional ``第N``, and optionally, after a space, who wrote
#: what (``喪服第十一　子夏傳``, ``士冠禮第一　儀禮　鄭氏注``).  The title is up to six characters.
PIAN_LINE_RE = re.compile(
    rf"^\s*(?P<title>\S{{2,6}}?)(?:第(?P<n>[{_NUM}]+)(?:之[{_NUM}]+)?)?(?:[\s\u3000]+(?P<rest>\S.{{0,16}}))?\s*$")


def _fold_char(ch: str) -> str:
    from ...normalize import key  # the normalizer's variant tables: 昬 = 昏, 飮 = 飲, 䘮 = 喪, 鄕 = 鄉 …

    return key(ch) or ch


_FOLD = LazyTable(_fold_char)


def _folded(text: str) -> str:
    """Each character's key (itself where the key is empty), in one ``str.translate``: every short line of a
    file is asked whether it is a 篇 heading, where a Python step per character folded it."""
    return text.translate(_FOLD)


#: Titles some editions print short (``既夕第十三``) or with another form the variant tables keep
#: apart (餽 for 饋 in 饋食, which in general words are different characters), → the 篇 they name.
PIAN_ALIASES: dict[str, str] = {
    "既夕": "既夕禮", "特牲餽食禮": "特牲饋食禮", "少牢餽食禮": "少牢饋食禮", "喪服經傳": "喪服", "大射": "大射儀",
    "有司": "有司徹",
}

#: Aliases that are also everyday words (有司 "the officers"): a heading only with its number (有司第十七).
_NUMBERED_ONLY = frozenset({"有司"})

_FOLDED_TITLES: dict[str, str] = {}


def _titles() -> dict[str, str]:
    """Folded title or alias → the 篇 in :data:`PIAN` (made on first use: folding needs the variant tables)."""
    if not _FOLDED_TITLES:
        _FOLDED_TITLES.update({_folded(t): t for t in PIAN})
        _FOLDED_TITLES.update({_folded(a): t for a, t in PIAN_ALIASES.items()})
    return _FOLDED_TITLES


_FIRST_CHARS: set[str] = set()


def _first_chars() -> set[str]:
    """The first characters of the folded titles and aliases (made with them, on first use)."""
    if not _FIRST_CHARS:
        _FIRST_CHARS.update(t[0] for t in _titles())
    return _FIRST_CHARS


def pian_heading(line: str) -> str | None:
    """The 篇 title (as written) if ``line`` is a chapter heading such as ``大射仪`` or ``鄉射禮第五``.

    Titles are compared in their folded form, so every variant or script form the
    normalizer knows is recognised (``士昬禮第二``, ``鄕飮酒禮第四``, ``䘮服第十一　子夏傳``);
    a trailing statement of responsibility after a space is allowed.
    """
    # first, the question a text line fails at once: does it open with a character a (folded) title opens
    # with?  (the title is the first characters after the white space, ``\s`` being ``str.isspace``); every
    # line of a file is asked, and the pattern's attempts at each length of title cost several times more
    stripped = line.lstrip()
    # (its key taken from the table, without a translate; :func:`_fold_char` never gives an empty one)
    if not stripped or (_FOLD[ord(stripped[0])] or "")[:1] not in _first_chars():
        return None
    m = PIAN_LINE_RE.match(line)
    if m is None or _folded(m.group("title")) not in _titles():
        return None
    if m.group("title") in _NUMBERED_ONLY and not m.group("n"):
        return None
    return m.group("title")


def canonical_pian(title: str) -> str | None:
    """The canonical (traditional) form in :data:`PIAN` of a title as written, or None."""
    return _titles().get(_folded(title.strip()))


def pian_index(line: str) -> int | None:
    """0-based place in :data:`PIAN` of the 篇 a heading line names (``鄕飮酒禮第四`` → 3), else None.

    Why not the matched text: variant forms (鄕, 飮, 昬) name the same 篇, and the book
    groups files by 篇, so every form must come to one key.
    """
    found = pian_heading(line)
    canonical = canonical_pian(found) if found else None
    return PIAN.index(canonical) if canonical else None
