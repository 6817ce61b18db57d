"""Naming the encoding of a witness file that is not UTF-8, so the error can say how to convert it.

Why not decode it ourselves: provenance (lines, offsets) and losslessness are stated
against the file the scholar has, and a guess between Big5 and GB18030 can be wrong
in ways that yield plausible characters.  So jiaokan reads UTF-8 only and, for
anything else, says what the file looks like and gives the ``iconv`` command.

What is recognised: byte-order marks (UTF-16/32, either byte order); UTF-16 without
a BOM by its NUL pattern (every ASCII character, the newlines at least, has a zero
byte on the same side) and a clean decode; Big5 against GB18030/GBK by which decoding
yields more of the commonest characters of classical Chinese (both scripts counted),
since GB18030 decodes almost any byte string and Big5 text read as GBK is rare
characters.
"""

from __future__ import annotations

from dataclasses import dataclass

_BOMS: tuple[tuple[bytes, str, str], ...] = (
    (b"\xff\xfe\x00\x00", "UTF-32 (little-endian, with a byte-order mark)", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32 (big-endian, with a byte-order mark)", "UTF-32"),
    (b"\xff\xfe", "UTF-16 (little-endian, with a byte-order mark)", "UTF-16"),
    (b"\xfe\xff", "UTF-16 (big-endian, with a byte-order mark)", "UTF-16"),
)

#: The commonest characters of classical Chinese, traditional and simplified forms both.
COMMON = frozenset("之也而以其者於于曰不人為为有所此故大子無无言則则一二三上下中西東东北南禮礼射"
                   "賓宾主公君臣王天是與与如又亦乃皆謂谓云注疏經经文字日月年時时")


@dataclass(frozen=True)
class Guess:
    """What a file looks like: a description for the message and the ``iconv -f`` name."""

    name: str
    iconv: str

    def hint(self) -> str:
        return f"it looks {self.name}: convert it with `iconv -f {self.iconv} -t UTF-8`"


def guess_encoding(data: bytes) -> Guess | None:
    """The encoding ``data`` (not valid UTF-8, or holding NUL bytes) most likely is, or None."""
    for bom, name, iconv in _BOMS:
        if data.startswith(bom):
            return Guess(name, iconv)
    utf16 = _utf16_without_bom(data[:65536])
    if utf16 is not None:
        return utf16
    if b"\x00" in data[:65536]:
        return None
    return _big5_or_gb(data[:65536])


def _plausible(text: str) -> float:
    """Share of characters that are CJK, CJK punctuation, ASCII printable or whitespace."""
    if not text:
        return 0.0
    ok = sum(1 for c in text if c.isspace() or " " <= c <= "~" or "\u3000" <= c <= "\u9fff"
             or "\uf900" <= c <= "\uffef" or "\U00020000" <= c <= "\U0003134f")
    return ok / len(text)


def _utf16_without_bom(sample: bytes) -> Guess | None:
    nul = sample.count(b"\x00")
    if nul == 0:
        return None
    even = sum(1 for i in range(0, len(sample), 2) if sample[i] == 0)
    odd = nul - even
    order = "le" if odd > even * 4 else "be" if even > odd * 4 else None
    if order is None:
        return None
    cut = len(sample) - len(sample) % 2
    try:
        text = sample[:cut].decode(f"utf-16-{order}")
    except UnicodeDecodeError:
        # a sample cut inside a surrogate pair: drop the last code unit and retry
        try:
            text = sample[: cut - 2].decode(f"utf-16-{order}")
        except UnicodeDecodeError:
            return None
    if _plausible(text) < 0.95:
        return None
    big = order == "be"
    return Guess(f"UTF-16 ({'big' if big else 'little'}-endian, no byte-order mark)", "UTF-16BE" if big else "UTF-16LE")


def _decode_share(sample: bytes, codec: str) -> float | None:
    """Share of common classical characters when ``sample`` is decoded with ``codec`` (None: it does not decode)."""
    try:
        text = sample.decode(codec)
    except UnicodeDecodeError as exc:
        if exc.end < len(sample) - 4:  # fails inside the sample, not just at a cut character
            return None
        text = sample[: exc.start].decode(codec)
    han = [c for c in text if "\u3400" <= c <= "\u9fff"]
    return sum(1 for c in han if c in COMMON) / len(han) if han else 0.0


def _big5_or_gb(sample: bytes) -> Guess | None:
    big5 = _decode_share(sample, "cp950")
    gb = _decode_share(sample, "gb18030")
    if big5 is None and gb is None:
        return None
    if gb is None or (big5 is not None and big5 > gb):
        return Guess("Big5-encoded (traditional Chinese)", "BIG5")
    return Guess("GBK/GB18030-encoded", "GB18030")
