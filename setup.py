"""Packaging hook: the TEI profile ships inside the wheel.

Why: every command validates what it writes against ``schemas/jiaokan.rng``, so an
installed jiaokan (``pip install .``, not ``-e``) needs the profile without a checkout.
The profile is kept once, in the repository's ``schemas/`` (beside its documentation,
where the README points); building the package copies it to ``jiaokan/schemas/``, where
:func:`jiaokan.tei.validate.find_schema_dir` looks first.  Everything else the commands
read at run time already lives in the package (``data/``, ``templates/``, ``static/``).
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
PACKAGED_SCHEMAS = ("jiaokan.rng",)


class BuildPyWithSchemas(build_py):
    """``build_py`` that also copies the profile from ``schemas/`` into the built package."""

    def run(self) -> None:
        if not getattr(self, "editable_mode", False):
            # a clean tree: setuptools reuses build/lib, so a module deleted from src/ would still ship
            stale = Path(self.build_lib) / "jiaokan"
            if stale.is_dir():
                shutil.rmtree(stale)
        super().run()
        if getattr(self, "editable_mode", False):  # an editable install finds the checkout's schemas/
            return
        target = Path(self.build_lib) / "jiaokan" / "schemas"
        self.mkpath(str(target))
        for name in PACKAGED_SCHEMAS:
            self.copy_file(str(HERE / "schemas" / name), str(target / name))


setup(cmdclass={"build_py": BuildPyWithSchemas})
