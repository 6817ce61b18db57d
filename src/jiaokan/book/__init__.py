"""The whole book: witnesses that span many files, the 篇 each file holds, and ``jiaokan init``.

A *witness* is a text (李如圭《儀禮集釋》 in the 文渊阁 edition), not a file: the
Kanripo clone gives it as one file per 卷, a 篇 can run over several 卷 and a 卷 can
end one 篇 and begin the next.  Readers still read one file at a time (each file keeps
its own 卷, pages and lines); :mod:`.pian` finds the 篇 of every stretch of a file
from the text itself, and :mod:`.assemble` joins the stretches of one witness into one
:class:`~jiaokan.model.Witness` per 篇, the unit that is collated and checked.
"""
