"""A third-party reader, as another package would ship it (loaded by tests/test_registry.py
through a real entry point)."""

from jiaokan.model import Witness, WitnessMeta
from jiaokan.readers import Reader
from jiaokan.readers.common.base import SourceText, WitnessBuilder


class LinesReader(Reader):
    """One 经 passage per line: the simplest format there is."""

    name = "x-lines"
    description = "one 经 passage per line (a test plugin)"

    def sniff(self, src: SourceText) -> float:
        return 0.01 if src.text.startswith("x-lines\n") else 0.0

    def parse(self, src: SourceText, meta: WitnessMeta) -> Witness:
        b = WitnessBuilder(meta, src, self.gaiji_table())
        for n, line in enumerate(src.lines[1:], 2):
            if line.strip():
                b.line(n)
                b.piece("jing")
                b.text(line)
        return b.finish()


class TushuBlocksImpostor(LinesReader):
    name = "tushu-blocks"


NOT_A_READER = object()
