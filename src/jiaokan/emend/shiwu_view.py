"""A static HTML view of the 識誤 check: per 篇, each entry, its place, each witness's reading, the verdict.

One self-contained page (no script, no network), written by ``jiaokan build`` as
``OUT/shiwu/index.html`` from the same reports as the JSON and CSV beside it.
"""

from __future__ import annotations

from html import escape

from ..ui import counted

VERDICT_MARK = {"confirmed": "✓ as chosen", "contradicted": "✗ not", "not covered": "? uncertain"}
STYLE = """
body{font-family:"Noto Serif CJK TC","Noto Serif CJK SC",serif;margin:1.5em;max-width:80em}
table{border-collapse:collapse;width:100%;margin-bottom:2em}td,th{border:1px solid #ccc;padding:.25em .5em;
vertical-align:top}th{background:#f3f0e8}.confirmed{background:#e6f4e6}.contradicted{background:#fbe4e4}
.not-covered{background:#f1f1f1;color:#666}.hw{font-size:1.4em}.why{font-size:.8em;color:#555}.note{color:#7a4b00}
"""


def page(reports: list[dict]) -> str:
    """The HTML of the view; ``reports``: the per-篇 reports of :func:`jiaokan.build.shiwu_stage` (JSON form)."""
    out = ["<!DOCTYPE html><html lang='zh-Hant'><head><meta charset='utf-8'><title>儀禮識誤: claims checked</title>",
           f"<style>{STYLE}</style></head><body><h1>張淳《儀禮識誤》: each entry checked against the witnesses</h1>",
           "<p>Verdicts: <b>✓</b> the witness reads as 張淳 chose; <b>✗</b> it reads otherwise; <b>?</b> the place is "
           "not found, or the reading is uncertain (the reason is given). Entries that are no claim about one "
           "reading (a transposition, a note on usage) are listed unchecked.</p>"]
    for rep in reports:
        sigla = sorted({c["witness"] for e in rep["by_entry"] for c in e["claims"] if c["witness"]})
        out.append(f"<h2>{escape(rep['pian'])} <small>({counted(rep['entries'], 'entry', 'entries')})</small></h2><table><tr>"
                   "<th>entry</th><th>place</th>" + "".join(f"<th>{escape(s)}</th>" for s in sigla) + "</tr>")
        for e in rep["by_entry"]:
            by = {c["witness"]: c for c in e["claims"] if c["witness"]}
            place = next((c["anchor"] for c in by.values() if c.get("anchor")), None) or "".join(
                p["layer"] + "曰" + p["quote"] for p in e["places"])
            notes = "".join(f"<div class='note'>({escape(n)})</div>" for n in e["notes"])
            head = (f"<td><span class='hw'>{escape(e['headword'])}</span> <small>{escape(e['kind'])}"
                    f"{' ← ' + escape(e['rejected']) if e['rejected'] else ''}; {escape(str(e['page']))}:"
                    f"{e['line']}{'; 從' + escape(e['source']) if e['source'] else ''}</small>{notes}</td>")
            cells = []
            for s in sigla:
                c = by.get(s)
                if c is None:
                    cells.append("<td class='not-covered'>—</td>")
                    continue
                v = c["verdict"] or "not covered"
                cells.append(f"<td class='{v.replace(' ', '-')}'>{escape(c['readings'].get(s, ''))} "
                             f"{VERDICT_MARK.get(v, v)}<div class='why'>{escape(c['why'])}</div></td>")
            out.append(f"<tr>{head}<td>{escape(place)}</td>{''.join(cells)}</tr>")
        out.append("</table>")
    out.append("</body></html>")
    return "\n".join(out)


__all__ = ["page"]
