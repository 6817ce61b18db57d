"""One sentence per verdict: the edition's 案 dialog says what the ``jiaokan emend`` report says.

The sentences have one home (:func:`jiaokan.emend.words.claim_sentences`); the page (the chapter data
the dialog reads, ``site/search/NAME.js``), the JSON report (``by_note`` … ``sentences``) and the CSV
(``sentence``, ``why``) of the shipped corpus's build are compared claim by claim.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from jiaokan.emend.verdict import ClaimEvidence, NoteVerdict
from jiaokan.emend.words import claim_sentences
from jiaokan.render.search_index import expand_notes
from jiaokan.render.sentences import say_en, say_hans, say_zh
from jiaokan.render.truth import Shown


def _chapter_notes(site: Path) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for f in sorted((site / "search").glob("*.js")):
        if f.name == "book.js":
            continue
        s = f.read_text(encoding="utf-8")
        data = json.loads(s[s.index("={", s.index("chapters")) + 1 : s.rindex(";}")])
        out.update(expand_notes(data.get("notes") or {}))  # every member, as the page's script reads them
    return out


def test_the_page_and_the_report_say_the_same_sentence(site: Path):
    emend_dir = site.parent / "emend"
    report: dict[str, ClaimEvidence] = {}  # read as the project reads it (the English is ``why`` where not given)
    for f in sorted(emend_dir.glob("*.json")):
        data = json.loads(f.read_text(encoding="utf-8"))
        for record in (data.get("by_note") or {}).values():
            for c in NoteVerdict.from_dict(record).claims:
                report[c.id] = c
    rows: dict[str, dict] = {}
    for f in sorted(emend_dir.glob("*.csv")):
        with f.open(encoding="utf-8-sig", newline="") as fh:
            for row in csv.DictReader(fh):
                rows[row["claim"]] = row
    compared = 0
    for nid, n in _chapter_notes(site).items():
        for c in ((n.get("v") or {}).get("claims") or []):
            own = c.get("verdict") or "unchecked"
            if c.get("shown") != own or c["id"] not in report:
                continue  # a verdict the page does not show as the report gives it says so itself
            said = report[c["id"]].sentences
            assert c["say_hans"] == said["zh-Hans"], (nid, c["id"])
            assert c["say_en"] == said["en"], (nid, c["id"])
            assert c["say_hant"] == said["zh-Hant"], (nid, c["id"])
            if c["id"] in rows:
                assert rows[c["id"]]["sentence"] == said["zh-Hans"], c["id"]
            compared += 1
    assert compared > 50  # the shipped corpus's 案 notes, with their claims about the 宋本 and 释文


def test_the_renderer_asks_the_one_home():
    c = ClaimEvidence("X1.an1", "corruption", "比", "北", "zhushu", "confirmed", "agrees", "why", "司射【比】耦",
                      "卷十 葉一b 行5", "ZS", {"JS": "比", "ZS": "北"},
                      {"zh-Hans": "今注疏本此处作「北」，与案语合。", "zh-Hant": "今注疏本此處作「北」，與案語合。",
                       "en": "Confirmed: in the 注疏 it reads 北 here, as the note says."})
    shown = Shown("confirmed")
    assert say_hans(c, shown, {}) == c.sentences["zh-Hans"] == claim_sentences(c)["zh-Hans"]
    assert say_zh(c, shown, {}) == c.sentences["zh-Hant"]
    assert say_en(c, shown, {}) == c.sentences["en"]
    # shown otherwise than the record's own verdict (the truth check's safety net): said from the record's table
    other = claim_sentences(c, "uncertain")
    assert other["zh-Hans"] != c.sentences["zh-Hans"] and "存疑" in other["zh-Hans"] and "「北」" in other["zh-Hans"]
    assert say_zh(c, Shown("uncertain", "r"), {}) == other["zh-Hant"]
    # a record without sentences of its own (read back from a CSV): made from its fields, in every language
    bare = ClaimEvidence("X1.an1@songben", "corruption", "比", "比", "songben", "confirmed", "songben-agrees", "",
                         None, None, "SB", {"JS": "比", "SB": "比"})
    made = claim_sentences(bare)
    assert set(made) == {"zh-Hans", "zh-Hant", "en"} and "SB作「比」" in made["zh-Hans"] and "宋本" in made["zh-Hans"]


def test_the_sentences_need_no_html_package():
    """The 案 check (run in each collation worker) makes its sentences without importing jiaokan.render
    (jinja2 and the page modules: 0.03–0.07 s of CPU per worker), and the page's truth check asks the
    same list of words a reader must not see."""
    import subprocess
    import sys

    from jiaokan.emend.words import internal_words
    from jiaokan.render.truth import internal_words as truth_words

    assert truth_words is internal_words
    code = ("import sys; from jiaokan.emend.verdict import ClaimEvidence; from jiaokan.emend.words import claim_sentences;"
            "c = ClaimEvidence('n1', 'corruption', '北', '比', 'zhushu', 'confirmed', 'r', 'agrees otherwise', 'n1',"
            " None, 'ZS', {'ZS': '比'});"
            "claim_sentences(c); print(sorted(m for m in sys.modules if m == 'jinja2' or m.startswith('jiaokan.render')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_traditional_sentence_is_traditional_throughout(site: Path):
    """The zh-Hant sentence is written in traditional characters outside what it quotes: the clause naming
    evidence no witness here holds (唐石經 …) was once appended in its simplified form to the traditional one."""
    import re

    from jiaokan.normalize.script import s2t_char

    checked = 0
    for f in sorted((site.parent / "emend").glob("*.json")):
        for record in (json.loads(f.read_text(encoding="utf-8")).get("by_note") or {}).values():
            for c in NoteVerdict.from_dict(record).claims:
                frame = re.sub(r"「[^」]*」|【[^】]*】", "", c.sentences["zh-Hant"])
                simplified = [x for x in frame if s2t_char(x) != x]
                assert not simplified, (c.id, c.sentences["zh-Hant"], simplified)
                checked += 1
    assert checked > 50
