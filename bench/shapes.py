"""Inputs shaped to expose a reader that is not linear: the one home of the huge-line generator.

``bench/bench_readers.py --scaling`` times reading them per MB; ``tests/test_robustness.py`` holds
every reader to a bound on them.  One generator, so that the bench measures the very file the
test bounds (two copies had drifted apart once: the bench's had no ``block`` shape).
"""

from __future__ import annotations

from pathlib import Path

_ROOT = Path(__file__).resolve().parents[1]
_CORPUS = _ROOT / "corpus"
_KANRIPO = _ROOT.parent / "shared" / "kanripo"

#: format → a real file of it (the corpus copies of the seeds; the Kanripo clones beside the checkout):
#: what both the bench and the test shape into huge lines
SOURCES = {
    "jishi-flat": _CORPUS / "jishi-juan05-xiangsheli-traditional.txt",
    "jishi-pages": _CORPUS / "jishi-juan10-dasheyi-simplified.txt",
    "tushu-blocks": _CORPUS / "tushu-juan275-shebu-huikao.txt",
    "tushu-wikisource": _CORPUS / "tushu-juan276-xiangsheli.txt",
    "zhushu-ctext": _CORPUS / "zhushu-dasheyi-excerpt.txt",
    "mandoku-jishi": _KANRIPO / "KR1d0030_005.txt",
    "mandoku-zhushu": _KANRIPO / "KR1d0028_005.txt",
    "mandoku-sbck": _KANRIPO / "KR1d0026_005.txt",
}


def repeated(text: str, times: int) -> str:
    """The file with its body (after the ``#`` header lines) ``times`` over."""
    lines = text.split("\n")
    head = 0
    while head < len(lines) and lines[head].startswith("#"):
        head += 1
    return "\n".join(lines[:head] + lines[head:] * times)


def one_huge_line(text: str, size: int, shape: str = "line") -> str:
    """``text`` (a witness file) with one line from its middle made ``size`` bytes long.

    ``block``: thirty lines joined and repeated, so the line holds every kind of piece opener
    (鄭注, 〈朱注〉, 【, 疏曰 …) many thousand times; ``line``: one commentary line (after the
    middle, one opening as most indented lines do, e.g. with 鄭注; else the longest line of the
    middle third) repeated, so one passage holds 10^5 pieces.  Both shapes made a reader quadratic.
    """
    if shape not in ("line", "block"):
        raise ValueError(f"unknown shape {shape!r}: line or block")
    lines = text.split("\n")
    mid = len(lines) // 2
    if shape == "block":
        unit, span = "".join(ln.rstrip("¶") for ln in lines[mid:mid + 30]) or lines[mid], 30
    else:
        indented = [ln.strip()[:2] for ln in lines if ln[:1] in (" ", "\u3000") and ln.strip()[:2].isalpha()
                    and len(ln.strip()) > 2]
        opener = max(set(indented), key=indented.count) if indented else None  # 鄭注 in a 集释
        at = next((k for k in range(mid, len(lines)) if opener and lines[k][:1] in (" ", "\u3000")
                   and lines[k].strip().startswith(opener)),
                  max(range(len(lines) // 3, 2 * len(lines) // 3 + 1), key=lambda k: len(lines[k])))
        mid, unit, span = at, lines[at], 1
    copies = max(1, size // len(unit.encode("utf-8")))
    return "\n".join(lines[:mid] + [unit * copies] + lines[mid + span:])
