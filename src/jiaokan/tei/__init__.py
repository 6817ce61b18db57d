"""The model ↔ layered TEI P5 (the project's profile in ``schemas/``)."""

from .reader import read_tei, witness_from_tei
from .writer import TEI_NS, XML_NS, witness_to_tei, write_tei

__all__ = ["TEI_NS", "XML_NS", "witness_to_tei", "write_tei", "read_tei", "witness_from_tei"]
