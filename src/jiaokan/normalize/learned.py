"""Variant pairs a scholar accepted from the build's proposals (``[variants] accept`` in ``corpus.toml``).

Why a registry and not a table: these pairs are the corpus's own knowledge, learned from its alignment
(:mod:`jiaokan.collate.learned` proposes them in ``build/variants-proposed.tsv``) and decided by a person,
so they live in the manifest of that corpus, not in the package.  An accepted pair is typed
``orthographic`` by :func:`jiaokan.normalize.relation` (source ``learned``); it never changes a key, so
alignment and every other corpus are untouched.
"""

from __future__ import annotations

from typing import Iterable

from .fold import key

_accepted: set[frozenset[str]] = set()
_rejected: set[frozenset[str]] = set()
_forms: set[frozenset[str]] = set()


def pair_keys(a: str, b: str) -> frozenset[str]:
    """The pair as the registry holds it: the two comparison keys (so 𤼵/發 also covers 𤼵/发)."""
    return frozenset((key(a), key(b)))


def set_accepted(pairs: Iterable[tuple[str, str]]) -> None:
    """Replace the accepted pairs (the build calls this once, before collating, from the manifest)."""
    _accepted.clear()
    _accepted.update(pair_keys(a, b) for a, b in pairs if key(a) != key(b))


def set_rejected(pairs: Iterable[tuple[str, str]]) -> None:
    """Replace the rejected pairs: never typed orthographic, not even where they recur (:mod:`jiaokan.collate.learned`)."""
    _rejected.clear()
    _rejected.update(pair_keys(a, b) for a, b in pairs if key(a) != key(b))


def rejected_pairs() -> set[frozenset[str]]:
    return set(_rejected)


def set_form_pairs(pairs: Iterable[tuple[str, str]]) -> None:
    """Replace the pairs of a form no registry knows and the character the whole book's witnesses read at its
    places (the build calls this once, before collating: :func:`jiaokan.collate.learned.learn_forms`)."""
    _forms.clear()
    _forms.update(pair_keys(a, b) for a, b in pairs if key(a) != key(b))


def form_pairs() -> set[frozenset[str]]:
    return set(_forms)


def is_accepted(a: str, b: str) -> bool:
    """Did a scholar accept ``a``/``b`` as one character written two ways?"""
    return bool(_accepted) and pair_keys(a, b) in _accepted


def accepted_pairs() -> list[frozenset[str]]:
    return sorted(_accepted, key=lambda p: "".join(sorted(p)))
