"""Emendation: the 四库 editors' 案 notes as machine-readable collation claims.

:mod:`jiaokan.emend.notes` parses one joined note (``案比今注疏本讹作北据唐石经及宋本改正``)
into a :class:`~jiaokan.emend.notes.NoteRecord`: what kind of claim it makes
(corruption, omission, addition, variant, conjecture, lacuna, or a plain comment), on which
characters (lemma) and which other reading, about which witness (target), on what
evidence, and how to find the place in the layer text (position, scope).  The words of
the note language live apart from that parser, in :mod:`jiaokan.emend.lexicon`.

Anchoring the records in the text and applying them (emended readings, checks against
the aligned 注疏 witness) are separate later stages that consume these records
(:mod:`.anchor`, :mod:`.check`, :mod:`.apply`; reports in :mod:`.report`, TEI in :mod:`.tei`).
:mod:`jiaokan.emend.verdict` holds what this package and the renderer share: the kinds of
claim, the verdicts, and the :class:`~jiaokan.emend.verdict.NoteVerdict` record of a note.
"""
