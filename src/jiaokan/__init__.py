"""jiaokan (校勘): critical editions of classical Chinese texts with commentary.

The pipeline, one package per stage:
  readers/   witness formats → the model (:mod:`jiaokan.model`)
  tei/       the model ↔ layered TEI P5, validation against the project's profile
  normalize/ comparison keys: script, 异体, taboo forms, gaiji
  collate/   layer-aware character alignment, variant typing, apparatus
  emend/     the 四库 editors' 案 notes: parse, apply, check
  render/    the parallel-text HTML edition
"""

__version__ = "0.1.0"
