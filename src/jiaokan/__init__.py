"""jiaokan (校勘): critical editions of classical Chinese texts with commentary.

The Python API is here (see :mod:`jiaokan.api`)::

    import jiaokan
    js = jiaokan.read("corpus/jishi-juan10-dasheyi-simplified.txt")    # format sniffed
    col = jiaokan.collate([js, "corpus/zhushu-dasheyi-excerpt.txt"])
    jiaokan.to_tei(col, "dasheyi.xml"); jiaokan.render(col, out="site")

The pipeline, one package per stage:
  readers/   witness formats → the model (:mod:`jiaokan.model`)
  tei/       the model ↔ layered TEI P5, validation against the project's profile
  normalize/ comparison keys: script, 异体, taboo forms, gaiji
  collate/   layer-aware character alignment, variant typing, apparatus
  emend/     the 四库 editors' 案 notes: parse, apply, check
  render/    the parallel-text HTML edition
"""

__version__ = "0.1.0"

import sys
import types
from typing import TYPE_CHECKING

__all__ = [
    "__version__", "read", "read_collatex", "collate", "emend", "to_tei", "to_json", "render",
    "Witness", "Collation", "EmendResult",
    "JiaokanError", "InputError", "ReaderError", "CollationError", "EmendationError", "OutputError",
]

if TYPE_CHECKING:  # for type checkers and IDEs; at run time the names load on first use (below)
    from .api import (
        Collation,
        CollationError,
        EmendationError,
        EmendResult,
        InputError,
        JiaokanError,
        OutputError,
        ReaderError,
        Witness,
        collate,
        emend,
        read,
        read_collatex,
        render,
        to_json,
        to_tei,
    )


class _Package(types.ModuleType):
    """``jiaokan`` itself.  Three API names are also subpackage names (collate/, emend/, render/).

    Importing a submodule binds it as an attribute of its parent (``jiaokan.render = <module>``),
    which would replace the function the moment the CLI or a stage first imports that
    subpackage.  Here the API name wins; the subpackages stay importable as always
    (``from jiaokan.collate.engine import …``: that goes through ``sys.modules``).
    """

    def __setattr__(self, name: str, value: object) -> None:
        if name in __all__ and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __dir__() -> list[str]:
    """The module's own names and the API's, which load on first use (so ``dir(jiaokan)`` lists ``read``…)."""
    return sorted(set(globals()) | set(__all__))


def __getattr__(name: str):
    """Load the API on first use (PEP 562), so ``jiaokan --version`` and the CLI start fast."""
    if name in __all__:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'jiaokan' has no attribute {name!r}")
