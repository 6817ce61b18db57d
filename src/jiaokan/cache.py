"""Where jiaokan keeps what it compiled once, for the next process: the one cache directory.

Two things live there, each only ever a copy that is remade when it is missing, stale or unreadable: the 案
grammar's compiled patterns (:mod:`jiaokan.emend.pattern_cache`) and the site's compiled templates
(:mod:`jiaokan.render.templatecache`).  Why one home: both must agree on the directory and on how a user turns it
off, and neither is the other's business.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_dir"]


def cache_dir() -> Path | None:
    """``$JIAOKAN_CACHE`` (set empty: no cache, None), else ``$XDG_CACHE_HOME/jiaokan``, else ``~/.cache/jiaokan``."""
    env = os.environ.get("JIAOKAN_CACHE")
    if env is not None:
        return Path(env) if env else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "jiaokan"
