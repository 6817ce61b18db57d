"""The site's templates compiled, kept on disk between processes (Jinja's bytecode cache, as Python keeps bytecode).

Why: every build compiled the site's templates afresh (Jinja lexes and parses each, writes Python source for it and
has Python compile that): 0.06–0.1 s of CPU in every build, alone in the render stage at ``-j 1``.  Loading them
compiled takes a few milliseconds.

The cache is only ever a copy:

* a template edited since: Jinja names a template's file by the template's name and path, and keeps the hash of
  its source in it; a file of another source is compiled again (and written again);
* what Jinja does not check — its own version, and the environment's settings that shape the code it writes
  (delimiters, ``trim_blocks``, ``lstrip_blocks``, autoescaping …) — names the folder (:func:`_key`): another Jinja
  or another setting reads and writes another folder (Python's version is in Jinja's own check);
* a file that cannot be read whole (truncated, foreign) is ignored and the template compiled as before; a folder
  that cannot be made or written only costs the compile; a folder that is not this user's is not used (its files
  are code that is run).

The folder is ``templates-KEY`` in the project's cache directory (:func:`jiaokan.cache.cache_dir`:
``$JIAOKAN_CACHE``, set empty for no cache, else ``$XDG_CACHE_HOME/jiaokan``, else ``~/.cache/jiaokan``).
"""

from __future__ import annotations

import hashlib
import os

import jinja2
from jinja2 import Environment
from jinja2.bccache import Bucket, BytecodeCache, FileSystemBytecodeCache

from ..cache import cache_dir

__all__ = ["template_cache"]


class _Cache(FileSystemBytecodeCache):
    """Jinja's file cache, whose failures only cost the compile."""

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # a truncated or foreign file (marshal's EOFError, ValueError …), an unreadable one
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:  # a read-only folder, a full disk: the next process compiles again
            pass


def _key(env: Environment) -> str:
    """What shapes the code Jinja writes for a template, but the template's source (which Jinja checks)."""
    auto = env.autoescape
    settings = (
        jinja2.__version__, env.block_start_string, env.block_end_string, env.variable_start_string,
        env.variable_end_string, env.comment_start_string, env.comment_end_string, env.line_statement_prefix,
        env.line_comment_prefix, env.trim_blocks, env.lstrip_blocks, env.newline_sequence, env.keep_trailing_newline,
        env.optimized, sorted(env.extensions),
        [(name, auto(name) if callable(auto) else auto) for name in env.list_templates()],
    )
    return hashlib.sha256(repr(settings).encode("utf-8")).hexdigest()[:16]


def template_cache(env: Environment) -> BytecodeCache | None:
    """A bytecode cache for ``env``'s templates (set it as ``env.bytecode_cache`` before the first template is
    loaded); None when there is no cache directory or it cannot be made, or is not this user's."""
    base = cache_dir()
    if base is None:
        return None
    folder = base / f"templates-{_key(env)}"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = folder.stat()
    except OSError:
        return None
    if not folder.is_dir() or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
        return None
    return _Cache(str(folder))
