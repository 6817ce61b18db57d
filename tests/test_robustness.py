"""No input makes a reader crawl or a command print a traceback (issue #25).

* every reader reads a 5 MB single-line file in a time linear in its length;
* input must be a regular file (a FIFO blocked for ever, /dev/zero ran out of memory);
* messages that quote input escape control characters;
* ``jiaokan.read(text=…)`` with a lone surrogate is a jiaokan error;
* a witness that repeats its own text, or holds a passage too big to align, is refused with the reason.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

import jiaokan
from bench.shapes import SOURCES, one_huge_line  # the one home of the huge-line generator (the bench times the same)
from jiaokan.cli import main
from jiaokan.collate import limits
from jiaokan.errors import CollationError, JiaokanError, printable
from jiaokan.readers import read_witness
from jiaokan.readers.common.lossless import witness_han

#: CPU seconds for reading a 5 MB line; linear readers take 1–6 s here, the quadratic ones took hours
BOUND = 60.0


@pytest.mark.parametrize("shape,size", [("line", 5_000_000), ("block", 1_000_000)])
@pytest.mark.parametrize("fmt", sorted(SOURCES))
def test_a_five_megabyte_line_is_read_in_linear_time(fmt, shape, size, tmp_path):
    src = SOURCES[fmt]
    if not src.exists():
        pytest.skip(f"{src} not available")
    path = tmp_path / f"huge-{fmt}.txt"
    path.write_text(one_huge_line(src.read_text(encoding="utf-8"), size, shape), encoding="utf-8")
    t = time.process_time()
    try:
        w = read_witness(path, fmt=fmt)
    except JiaokanError as exc:  # a one-line refusal is an answer too; a crawl is not
        assert "\n" not in str(exc)
        w = None
    took = time.process_time() - t
    assert took < BOUND * size / 5_000_000, f"{fmt}: {took:.0f} s CPU for a {size / 1e6:.0f} MB line"
    if w is not None:  # every character kept (the reader checks it, and warns when it cannot)
        assert len(witness_han(w)) > size / 5
        assert not [x for x in w.warnings if x.code == "lost-text"], w.warnings[:3]


# --------------------------------------------------------------------------- regular files only

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("name", ["w.txt", "w.xml"])
def test_a_fifo_is_refused_in_one_line(name, tmp_path, capsys):
    fifo = tmp_path / name
    os.mkfifo(fifo)
    out = tmp_path / "out"
    for argv in (["ingest", str(fifo), "-o", str(out)], ["text", str(fifo)]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "FIFO" in err and str(fifo) in err, err
    assert not out.exists() or not any(out.iterdir())
    with pytest.raises(JiaokanError, match="regular file"):
        jiaokan.read(fifo)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_device_is_refused_in_one_line(capsys, tmp_path):
    assert main(["ingest", "/dev/zero", "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "/dev/zero: is a character device" in err, err
    with pytest.raises(JiaokanError, match="character device"):
        jiaokan.read("/dev/zero")


# --------------------------------------------------------------------------- messages

def test_control_characters_in_messages_are_escaped(tmp_path, capsys):
    src = SOURCES["mandoku-jishi"]
    if not src.exists():
        pytest.skip(f"{src} not available")
    text = src.read_text(encoding="utf-8")
    first_pb = text.index("<pb:") + 4
    bad = tmp_path / "esc.txt"
    bad.write_text(text[:first_pb] + "KR1d0030_\x1b[2J\x1b[31m" + text[first_pb + len("KR1d0030_"):], encoding="utf-8")
    assert main(["ingest", str(bad), "-o", str(tmp_path / "out"), "-v"]) == 0
    err = capsys.readouterr().err
    assert "\x1b" not in err
    assert "\\x1b[2J\\x1b[31m" in err


def test_printable_escapes_controls_bidi_and_surrogates():
    assert printable("a\x1b[31mb\tc\n") == "a\\x1b[31mb\\x09c\\x0a"
    assert printable("\u202eevil\x85\udcff") == "\\u202eevil\\x85\\udcff"
    assert printable("鄉射禮第五　（案）") == "鄉射禮第五　（案）"
    err = JiaokanError("f\x1b.txt", "bad \x07 byte", 3)
    assert str(err) == "f\\x1b.txt:3: bad \\x07 byte"


def test_a_lone_surrogate_in_text_is_a_jiaokan_error():
    with pytest.raises(jiaokan.ReaderError, match="lone surrogate U\\+DC80"):
        jiaokan.read(text="司射\n命設\udc80豐\n")


# --------------------------------------------------------------------------- collation limits

def _jishi_copies(tmp_path: Path, copies: int) -> Path:
    src = SOURCES["jishi-pages"]
    lines = src.read_text(encoding="utf-8").split("\n")
    path = tmp_path / f"x{copies}.txt"
    path.write_text("\n".join(lines + lines[1:] * (copies - 1)), encoding="utf-8")
    return path


def test_ten_copies_of_one_juan_are_refused_with_the_reason(tmp_path, capsys):
    ten = jiaokan.read(_jishi_copies(tmp_path, 10), siglum="TEN")
    one = jiaokan.read(SOURCES["jishi-pages"], siglum="ONE")
    assert sum(1 for _ in ten.passages()) > 5 * sum(1 for _ in one.passages())
    with pytest.raises(CollationError, match="repeats its own text"):
        jiaokan.collate([one, ten])
    rc = main(["collate", str(_jishi_copies(tmp_path, 10)), str(SOURCES["jishi-pages"]), "-o", str(tmp_path / "a.xml")])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and len(err.splitlines()) == 1 and "repeats its own text" in err, err
    assert not (tmp_path / "a.xml").exists()


def test_the_same_juan_once_is_collated(tmp_path):
    one = jiaokan.read(SOURCES["jishi-pages"], siglum="ONE")
    two = jiaokan.read(SOURCES["jishi-pages"], siglum="TWO")
    col = jiaokan.collate([one, two])
    assert col.rows and sum(col.counts().values()) == 0


def test_a_passage_too_big_to_align_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "MAX_PASSAGE_CHARS", 2_000)
    lines = SOURCES["zhushu-ctext"].read_text(encoding="utf-8").split("\n")
    lines[1] = lines[1].replace("司射命设丰", "司射命设丰" + "司射命設豐" * 1_000, 1)
    big = tmp_path / "big.txt"
    big.write_text("\n".join(lines), encoding="utf-8")
    a = jiaokan.read(big, siglum="A")
    b = jiaokan.read(SOURCES["zhushu-ctext"], siglum="B")
    with pytest.raises(CollationError, match="characters of jing, more than the 2,000"):
        jiaokan.collate([a, b])


def test_a_private_use_character_of_plane_15_in_a_mandoku_file_is_kept(tmp_path):
    """The Mandoku layout stood gaiji entities in for U+F0000…: a source holding U+F0000 itself lost it."""
    src = SOURCES["mandoku-zhushu"]
    if not src.exists():
        pytest.skip(f"{src} not available")
    from jiaokan.readers import READERS, load_source
    from jiaokan.readers.common.lossless import check_lossless

    text = src.read_text(encoding="utf-8")
    pos = len(text) // 3
    path = tmp_path / "pua.txt"
    path.write_text(text[:pos] + "\U000f0000" + text[pos:], encoding="utf-8")
    w = read_witness(path)
    assert check_lossless(READERS[w.meta.format], load_source(path), w).ok
    assert "U-F0000" in w.char_decl
