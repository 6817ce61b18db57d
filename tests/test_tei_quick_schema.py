"""The profile with its optional attributes interleaved (:func:`jiaokan.tei.validate._quick_rng`), which
:func:`~jiaokan.tei.validate.tree_errors` asks first, says yes and no where the profile does: on the TEI of
real witnesses and of a real apparatus, as written and with an attribute added, dropped or changed on
each kind of element; and where it says no, the errors are the profile's own."""

from __future__ import annotations

import random

from lxml import etree

from jiaokan.collate.apparatus import collation_to_tei
from jiaokan.collate.engine import collate
from jiaokan.tei.validate import _RNG, _quick_rng, find_schema_dir, profile_schema, tree_errors
from jiaokan.tei.writer import TEI_NS, witness_to_tei

_T = "{%s}" % TEI_NS
_XML_ID = "{http://www.w3.org/XML/1998/namespace}id"


def _mutants(root: etree._Element, rng: random.Random, n: int):
    """``root`` ``n`` times, each time with one attribute of one element added, dropped or given a bad value
    (changed in place, and put back once the caller has looked: a copy of a witness's tree each time cost most)."""
    els = [e for e in root.iter() if isinstance(e.tag, str) and e.tag.startswith(_T)
           and etree.QName(e).localname not in ("TEI", "teiHeader")]
    for _ in range(n):
        el = rng.choice(els)
        before = dict(el.attrib)
        how = rng.randrange(5)
        names = list(before)
        if how == 0 or not names:
            el.set(rng.choice(["bogus", "cert", "type", "n", "wit", "source", "subtype"]), "x y")
        elif how == 1:
            del el.attrib[rng.choice(names)]
        elif how == 2:
            el.set(rng.choice(names), "1 not a name")
        elif how == 3:
            el.set(_XML_ID, "1bad")
        else:
            el.set("cert", "maybe")
        yield root
        el.attrib.clear()
        el.attrib.update(before)


def _same_answers(root: etree._Element, seed: int, n: int = 150) -> int:
    quick = _quick_rng(str(find_schema_dir() / "jiaokan.rng"))
    profile = profile_schema()
    assert quick.validate(etree.ElementTree(root)) and profile.validate(etree.ElementTree(root))
    rng = random.Random(seed)
    refused = 0
    for doc in _mutants(root, rng, n):
        said = profile.validate(etree.ElementTree(doc))
        assert quick.validate(etree.ElementTree(doc)) == said
        if not said:
            refused += 1
            assert tree_errors(doc)[:1] == [f"jiaokan profile: {list(profile.error_log)[0].message}"]
    assert quick.validate(etree.ElementTree(root))  # (put back as it was)
    return refused


def test_quick_schema_interleaves_only_groups_of_optional_attributes():
    root = etree.parse(str(find_schema_dir() / "jiaokan.rng")).getroot()
    n_optional = len([o for o in root.iter(_RNG + "optional") if len(o) == 1 and o[0].tag == _RNG + "attribute"])
    quick = _quick_rng(str(find_schema_dir() / "jiaokan.rng"))
    assert quick.validate  # compiles
    # (rebuilt here as _quick_rng does: every interleave stands in a group and holds optional attributes only)
    from jiaokan.tei import validate as v
    made = etree.parse(str(find_schema_dir() / "jiaokan.rng")).getroot()
    v._interleave_optional_attributes(made)
    inter = list(made.iter(_RNG + "interleave"))
    assert inter and all(il.getparent().tag in v._GROUPS for il in inter)
    assert all(v._optional_attribute(x) for il in inter for x in il if isinstance(x.tag, str))
    assert sum(len(il) for il in inter) <= n_optional


def test_quick_schema_answers_as_the_profile_on_real_witnesses(read_kanripo):
    refused = 0
    for seed, stem in enumerate(("KR1d0030_003", "KR1d0028_003", "KR1d0026_003", "KR1d0027_003")):
        refused += _same_answers(witness_to_tei(read_kanripo(stem)).getroot(), seed)
    assert refused > 100  # the mutants were refused (else the test could not fail)


def test_quick_schema_answers_as_the_profile_on_a_real_apparatus(read_kanripo):
    col = collate([read_kanripo("KR1d0026_003"), read_kanripo("KR1d0028_003")])
    root = collation_to_tei(col, {}).getroot()
    assert root.find(f".//{_T}app") is not None
    assert _same_answers(root, 7, 300) > 100
