"""``python -m jiaokan``: the same as the ``jiaokan`` command."""

import sys

from .launch import main

sys.exit(main())
