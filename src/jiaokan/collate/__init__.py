"""Collation: character-level alignment of witnesses (see :mod:`jiaokan.collate.align`)."""
