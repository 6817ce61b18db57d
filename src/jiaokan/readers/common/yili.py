"""Facts about the work itself (《仪礼》) that readers use as layout cues.

The seventeen 篇 titles let a reader recognise a chapter heading line in any
transcription, simplified or traditional, with or without ``第N``.
"""

from __future__ import annotations

import re

#: The 17 篇 of 仪礼 in order (traditional forms).
PIAN: tuple[str, ...] = (
    "士冠禮", "士昏禮", "士相見禮", "鄉飲酒禮", "鄉射禮", "燕禮", "大射儀", "聘禮", "公食大夫禮",
    "覲禮", "喪服", "士喪禮", "既夕禮", "士虞禮", "特牲饋食禮", "少牢饋食禮", "有司徹",
)

# characters that differ between the scripts or by variant form in these titles
_ALT = {
    "禮": "禮礼", "鄉": "鄉乡郷鄕", "飲": "飲饮飮", "昏": "昏昬", "見": "見见", "儀": "儀仪", "覲": "覲觐",
    "喪": "喪丧", "饋": "饋馈", "徹": "徹彻", "夫": "夫", "虞": "虞",
}
_NUM = "一二三四五六七八九十"


def _pattern(title: str) -> str:
    return "".join(f"[{_ALT[c]}]" if c in _ALT else re.escape(c) for c in title)


PIAN_HEADING_RE = re.compile(
    r"^\s*(?P<title>" + "|".join(_pattern(t) for t in PIAN) + rf")(?:第(?P<n>[{_NUM}]+)(?:之[{_NUM}]+)?)?\s*$"
)


def pian_heading(line: str) -> str | None:
    """The 篇 title if ``line`` is a chapter heading such as ``大射仪`` or ``鄉射禮第五``."""
    m = PIAN_HEADING_RE.match(line)
    return m.group("title") if m else None



def pian_index(line: str) -> int | None:
    """0-based place in :data:`PIAN` of the 篇 a heading line names (``鄕飮酒禮第四`` → 3), else None.

    Why not the matched text: variant forms (鄕, 飮, 昬) name the same 篇, and the book
    groups files by 篇, so every form must come to one key.
    """
    m = PIAN_HEADING_RE.match(line)
    if m is None:
        return None
    for i, title in enumerate(PIAN):
        if re.fullmatch(_pattern(title), m.group("title")):
            return i
    return None
