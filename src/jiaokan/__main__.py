"""``python -m jiaokan``: the same command line as the ``jiaokan`` script (for a venv without it on PATH)."""

import sys

from .cli import main

sys.exit(main())
