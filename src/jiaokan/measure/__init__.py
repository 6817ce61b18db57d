"""Measures: the figures the project reports about its own results, computed in the package.

Each module here is logic that a script in ``scripts/`` runs from the command line and
that the tests check; the scripts only add the paths of this checkout (``corpus/``,
``../shared/kanripo``) as defaults.  Why here and not in the scripts: tests import a
module, they do not load a file by its path, and a measure that lives in the package
cannot drift from the code it measures.

* :mod:`.an_census` — every 案 note of a raw 集释 transcription, joined and parsed;
* :mod:`.an_check` — the 案 notes of Kanripo 集释 卷 checked against the 注疏 卷 of their 篇;
* :mod:`.layer_agreement` — how often a witness's 经/commentary split agrees with a reference;
* :mod:`.zhushu_voices` — the prior of the 注疏 reader's 注/经 boundary models, counted.
"""
