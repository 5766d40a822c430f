"""Build mimomem with its Cython hot path, or pure Python when that is impossible.

The extension ``mimomem._native`` is cythonized from ``_native/*.pyx`` at build time
(Cython is a build requirement in pyproject.toml).  If cythonizing or compiling fails
(no compiler, no headers), the build prints why and installs the pure-Python package,
which is complete on its own.  Set MIMOMEM_PURE_BUILD=1 to skip the extension on purpose,
MIMOMEM_REQUIRE_NATIVE=1 to fail instead of falling back.  MANIFEST.in ships the ``.pyx`` and
``.pxi`` sources in the sdist and keeps the generated ``.cpp`` out of it.

The benchmark corpora stay at the top of the checkout (``corpora/``); a wheel carries their
data files as ``mimomem/_corpora`` so that ``mimomem bench`` runs from an installed package.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

CORPUS_FILES = ("README.md", "*/README.md", "*/corpus.jsonl", "*/queries.jsonl", "*/qrels/*.tsv", "*/cases.json")
"""What ``mimomem bench`` reads from ``corpora/`` (the sources its build script reads stay out)."""


class BuildPyWithCorpora(build_py):
    """Also copy the benchmark corpora's data files into the built package as ``mimomem/_corpora``."""

    def run(self) -> None:
        super().run()
        source = Path("corpora")
        if getattr(self, "editable_mode", False) or not source.is_dir():  # editable: read from the checkout
            return
        target = Path(self.build_lib, "mimomem", "_corpora")
        for pattern in CORPUS_FILES:
            for file in sorted(source.glob(pattern)):
                dest = target / file.relative_to(source)
                self.mkpath(str(dest.parent))
                self.copy_file(str(file), str(dest))


class OptionalBuildExt(build_ext):
    """Compile the extension, but fall back to pure Python if the toolchain fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # compiler missing, headers missing, ...
            self._skip(exc)

    def build_extension(self, ext: object) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            self._skip(exc)

    def _skip(self, exc: Exception) -> None:
        if os.environ.get("MIMOMEM_REQUIRE_NATIVE") == "1":
            raise exc
        print(f"mimomem: native extension NOT built ({exc}); installing pure Python", file=sys.stderr)


def extensions() -> list[object]:
    if os.environ.get("MIMOMEM_PURE_BUILD") == "1":
        return []
    source = Path("_native", "_native.pyx")  # setuptools runs setup.py from the source tree
    if not source.is_file():  # e.g. an sdist made without MANIFEST.in
        message = f"{source} is missing from this source tree (a broken sdist?)"
        if os.environ.get("MIMOMEM_REQUIRE_NATIVE") == "1":
            raise SystemExit(f"mimomem: {message}; cannot build the native extension")
        print(f"mimomem: {message}; installing pure Python", file=sys.stderr)
        return []
    try:
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError as exc:
        if os.environ.get("MIMOMEM_REQUIRE_NATIVE") == "1":
            raise
        print(f"mimomem: Cython unavailable ({exc}); installing pure Python", file=sys.stderr)
        return []
    _generate_tables()
    ext = Extension(
        "mimomem._native",
        sources=["_native/_native.pyx"],
        language="c++",
        # FTS5's bm25() must be reproduced to the last bit: no fused multiply-add.
        extra_compile_args=["-O3", "-std=c++17", "-ffp-contract=off"],
    )
    try:
        return cythonize(
            [ext],
            compiler_directives={"language_level": 3, "embedsignature": True},
            quiet=True,
        )
    except Exception as exc:
        if os.environ.get("MIMOMEM_REQUIRE_NATIVE") == "1":
            raise
        print(f"mimomem: cythonize failed ({exc}); installing pure Python", file=sys.stderr)
        return []


def _generate_tables() -> None:
    """Write _native/_tables.pxi (per-character tables, see _native/gen_tables.py).

    Without ``regex`` at build time the file gets an empty key and the extension computes
    the tables at run time instead (slower start, same results).
    """
    sys.path.insert(0, "_native")
    try:
        import gen_tables

        gen_tables.main()
    except ImportError as exc:
        print(f"mimomem: tables not generated ({exc}); the extension builds them at run time", file=sys.stderr)
        Path("_native", "_tables.pxi").write_text(
            '_TABLES_KEY = ""\n_CLASS_TABLE = b""\n_FOLD_EXCEPTIONS = {}\n', encoding="utf-8"
        )
    finally:
        sys.path.remove("_native")


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPyWithCorpora})
