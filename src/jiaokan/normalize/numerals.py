"""Chinese numerals as the texts write them: 卷 and 篇 numbers, and the counts of 案 notes.

One parser for both uses, strict enough to tell a count from text: ``二十`` is 20, but
``二二`` is not a numeral (the 案 grammar must not read 二耦 or 三三 as a count), and a
unit may not repeat or follow a smaller one (``十百``).
"""

from __future__ import annotations

__all__ = ["NUMERAL_CHARS", "chinese_numeral"]

_DIGITS: dict[str, int] = {
    "〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
}
_UNITS: dict[str, int] = {"十": 10, "百": 100}
_CONTRACTED: dict[str, str] = {"廿": "二十", "卅": "三十"}

#: Every character that may occur in a numeral :func:`chinese_numeral` reads.
NUMERAL_CHARS: frozenset[str] = frozenset(_DIGITS) | frozenset(_UNITS) | frozenset(_CONTRACTED)


def chinese_numeral(s: str) -> int | None:
    """The value of a numeral (五, 十四, 二十, 廿四, 两, 一百二十, 一百〇五; also ASCII ``10``); ``None`` if not one.

    A zero (〇/零) stands alone or holds a place after a unit (一百〇五).
    """
    if not s:
        return None
    if s.isascii() and s.isdigit():
        return int(s)
    for short, full in _CONTRACTED.items():
        s = s.replace(short, full)
    total, cur, last_unit = 0, None, 1000
    for ch in s:
        if ch in _DIGITS:
            d = _DIGITS[ch]
            if d == 0 and cur is None and total:  # 一百〇五: the zero holds the tens' place
                continue
            if cur is not None:
                return None
            cur = d
        elif ch in _UNITS:
            u = _UNITS[ch]
            if u >= last_unit or cur == 0:
                return None
            total += (1 if cur is None else cur) * u
            cur, last_unit = None, u
        else:
            return None
    return total + (cur or 0)
