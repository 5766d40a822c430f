"""Build mimomem with its Cython hot path, or pure Python when that is impossible.

The extension ``mimomem._native`` is cythonized from ``_native/*.pyx`` at build time
(Cython is a build requirement in pyproject.toml).  If cythonizing or compiling fails
(no compiler, no headers), the build prints why and installs the pure-Python package,
which is complete on its own.  Set MIMOMEM_PURE_BUILD=1 to skip the extension on purpose,
MIMOMEM_REQUIRE_NATIVE=1 to fail instead of falling back, MIMOMEM_UNOPTIMIZED_BUILD=1 to compile
without optimization (the same code, built in a tenth of the CPU and run slower: for
tests/test_packaging.py's trial install, never for use).  MANIFEST.in ships the ``.pyx`` and
``.pxi`` sources in the sdist and keeps the generated ``.cpp`` out of it.

The benchmark corpora stay at the top of the checkout (``corpora/``); a wheel carries their
data files as ``mimomem/_corpora`` so that ``mimomem bench`` runs from an installed package.

The SQLite extension ``mimomem/sqlite/lib/libmimomem.so`` (the FTS5 tokenizer, ``_native/fts5_mimomem.cc``)
is a plain shared library, not a Python module: it is compiled against SQLite's ``sqlite3ext.h``
and links no SQLite of its own.  Without those headers (Debian/Ubuntu ``libsqlite3-dev``, the
macOS SDK, conda's ``sqlite``; or a directory named by MIMOMEM_SQLITE_INCLUDE) it is skipped with
a message and ``mimomem.sqlite.load()`` says it is missing.  MIMOMEM_REQUIRE_NATIVE=1 requires it
too (CI installs the headers), unless MIMOMEM_NO_SQLITE_EXTENSION=1 skips it on purpose.

``pip install -q`` hides every line this build prints, so what was built, or why not, is also written
into the package as ``mimomem/_build.json`` (``{"native": ..., "sqlite": ...}``: ``"built"`` or the
reason); ``mimomem --version``, the CLI and ``mimomem.sqlite`` read it (``mimomem/common/build.py``).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

CORPUS_FILES = (
    "README.md",
    "*/README.md",
    "*/corpus.jsonl",
    "*/queries.jsonl",
    "*/qrels/*.tsv",
    "*/cases.json",
    "e2e-dev/manifest.json",
    "e2e-dev/questions.jsonl",
    "e2e-dev/distractors-heldout.jsonl",
    "e2e-dev/distractors-split-2.jsonl",
    "e2e-dev/distractors-dev.jsonl",
    "e2e-dev/distractors-split-3.jsonl",
    "e2e-dev/transcripts/*/*.jsonl",
    "e2e-dev/sessions/*.yaml",
    "e2e-dev/host-memory/*/*.md",
)
"""What ``mimomem bench`` and ``bench --e2e`` read from ``corpora/`` (the sources their build scripts read stay out,
except the e2e dev set's sessions, which ``bench --e2e --host`` plays through the real host)."""


STATUS = {"native": "not built: MIMOMEM_PURE_BUILD=1", "sqlite": "not built: MIMOMEM_PURE_BUILD=1"}
"""What this build made of each extension: ``built``, or ``not built: <why>`` (see ``write_status``)."""
STATUS_FILE = ("mimomem", "_build.json")


def write_status(*under: str) -> None:
    """``STATUS`` as ``mimomem/_build.json`` under each directory of ``under`` (build_lib, or the source tree)."""
    for directory in under:
        path = Path(directory, *STATUS_FILE)
        if path.parent.is_dir():
            path.write_text(json.dumps(STATUS, sort_keys=True) + "\n", encoding="utf-8")


class BuildPyWithCorpora(build_py):
    """Also copy the benchmark corpora's data files into the built package as ``mimomem/_corpora``, and say
    what the extensions are (``write_status``; build_ext, which runs next when there are extensions, updates it)."""

    def run(self) -> None:
        super().run()
        write_status(self.build_lib)
        source = Path("corpora")
        if getattr(self, "editable_mode", False) or not source.is_dir():  # editable: read from the checkout
            return
        target = Path(self.build_lib, "mimomem", "_corpora")
        for pattern in CORPUS_FILES:
            for file in sorted(source.glob(pattern)):
                dest = target / file.relative_to(source)
                self.mkpath(str(dest.parent))
                self.copy_file(str(file), str(dest))


SQLITE_EXTENSION = "mimomem.sqlite.lib.libmimomem"


class OptionalBuildExt(build_ext):
    """Compile the extensions, but fall back to pure Python if the toolchain fails."""

    def get_ext_filename(self, fullname: str) -> str:
        if fullname.split(".")[-1] != SQLITE_EXTENSION.split(".")[-1]:
            return str(super().get_ext_filename(fullname))
        suffix = {"win32": ".dll", "darwin": ".dylib"}.get(sys.platform, ".so")
        return os.path.join(*fullname.split(".")) + suffix  # what SQLite's .load looks for

    def get_export_symbols(self, ext: object) -> list[str]:
        if getattr(ext, "name", "") == SQLITE_EXTENSION:
            return ["sqlite3_mimomem_init"]
        return list(super().get_export_symbols(ext))

    def get_libraries(self, ext: object) -> list[str]:
        if getattr(ext, "name", "") == SQLITE_EXTENSION:
            return []  # loaded into any process (the sqlite3 CLI too): never linked to libpython
        return list(super().get_libraries(ext))

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # compiler missing, headers missing, ...
            self._skip(exc)
        write_status(self.build_lib, *(["."] if self.inplace else []))

    def copy_extensions_to_source(self) -> None:
        """``--inplace`` (and ``pip install -e``): ``mimomem/sqlite/lib/`` is not in the source tree; make it."""
        if any(getattr(ext, "name", "") == SQLITE_EXTENSION for ext in self.extensions):
            self.mkpath(os.path.dirname(self.get_ext_fullpath(SQLITE_EXTENSION)))
        super().copy_extensions_to_source()

    def build_extension(self, ext: object) -> None:
        name = getattr(ext, "name", "")
        try:
            super().build_extension(ext)
        except Exception as exc:
            if name == SQLITE_EXTENSION:
                _skip_sqlite(f"compiling it failed ({exc})")
                return
            self._skip(exc)
            return
        STATUS["sqlite" if name == SQLITE_EXTENSION else "native"] = "built"

    def _skip(self, exc: Exception) -> None:
        if os.environ.get("MIMOMEM_REQUIRE_NATIVE") == "1":
            raise exc
        STATUS["native"] = f"not built: compiling it failed ({exc})"
        print(f"mimomem: native extension NOT built ({exc}); installing pure Python", file=sys.stderr)


def _skip_sqlite(why: str) -> None:
    STATUS["sqlite"] = f"not built: {why}"
    message = f"mimomem: SQLite extension (FTS5 tokenizer) NOT built: {why}"
    hint = "install SQLite's headers (apt-get install libsqlite3-dev) or set MIMOMEM_SQLITE_INCLUDE=<dir>"
    if os.environ.get("MIMOMEM_REQUIRE_NATIVE") == "1" and os.environ.get("MIMOMEM_NO_SQLITE_EXTENSION") != "1":
        raise SystemExit(f"{message}; {hint}, or set MIMOMEM_NO_SQLITE_EXTENSION=1 to build without it")
    print(f"{message}; {hint} to get it", file=sys.stderr)


def _sqlite_include() -> str | None:
    """A directory holding ``sqlite3ext.h`` (and ``sqlite3.h``), or None."""
    import sysconfig

    candidates = [os.environ.get("MIMOMEM_SQLITE_INCLUDE", ""), os.path.join(sys.prefix, "include")]
    candidates += [sysconfig.get_config_var("INCLUDEDIR") or "", "/usr/include", "/usr/local/include"]
    candidates += ["/opt/homebrew/opt/sqlite/include", "/usr/local/opt/sqlite/include"]
    if sys.platform == "darwin":
        import subprocess

        sdk = subprocess.run(["xcrun", "--show-sdk-path"], capture_output=True, text=True, check=False).stdout
        candidates.append(os.path.join(sdk.strip(), "usr", "include"))
    for directory in candidates:
        if directory and all(os.path.isfile(os.path.join(directory, h)) for h in ("sqlite3ext.h", "sqlite3.h")):
            return directory
    return None


def sqlite_extension() -> list[object]:
    """The loadable FTS5 tokenizer, when SQLite's headers are here (``_native/_tables.h`` is written)."""
    if os.environ.get("MIMOMEM_NO_SQLITE_EXTENSION") == "1":
        STATUS["sqlite"] = "not built: MIMOMEM_NO_SQLITE_EXTENSION=1"
        print("mimomem: SQLite extension skipped (MIMOMEM_NO_SQLITE_EXTENSION=1)", file=sys.stderr)
        return []
    include = _sqlite_include()
    if include is None:
        _skip_sqlite("sqlite3ext.h not found")
        return []
    if not Path("_native", "_tables.h").is_file():
        _skip_sqlite("its character tables were not generated (the regex package is missing at build time)")
        return []
    from setuptools import Extension

    flags = ["/std:c++17", "/O2", "/utf-8"] if sys.platform == "win32" else ["-O3", "-std=c++17", "-fvisibility=hidden"]
    flags += _unoptimized()
    return [
        Extension(
            SQLITE_EXTENSION,
            sources=["_native/fts5_mimomem.cc"],
            include_dirs=[include, "_native"],
            language="c++",
            extra_compile_args=flags,
        )
    ]


def _unoptimized() -> list[str]:
    """``-O0`` (``/Od``) after the other flags when MIMOMEM_UNOPTIMIZED_BUILD=1: the last one wins."""
    if os.environ.get("MIMOMEM_UNOPTIMIZED_BUILD") != "1":
        return []
    print("mimomem: compiling without optimization (MIMOMEM_UNOPTIMIZED_BUILD=1)", file=sys.stderr)
    return ["/Od"] if sys.platform == "win32" else ["-O0"]


def extensions() -> list[object]:
    if os.environ.get("MIMOMEM_PURE_BUILD") == "1":
        return []
    STATUS.update(native="not built: the build stopped before compiling it", sqlite="not built: not attempted")
    if Path("_native", "gen_tables.py").is_file():
        _generate_tables()
    return cython_extension() + sqlite_extension()


def cython_extension() -> list[object]:
    source = Path("_native", "_native.pyx")  # setuptools runs setup.py from the source tree
    if not source.is_file():  # e.g. an sdist made without MANIFEST.in
        message = f"{source} is missing from this source tree (a broken sdist?)"
        STATUS["native"] = f"not built: {message}"
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
        STATUS["native"] = f"not built: Cython unavailable ({exc})"
        print(f"mimomem: Cython unavailable ({exc}); installing pure Python", file=sys.stderr)
        return []
    ext = Extension(
        "mimomem._native",
        sources=["_native/_native.pyx"],
        language="c++",
        # FTS5's bm25() must be reproduced to the last bit: no fused multiply-add.
        extra_compile_args=["-O3", "-std=c++17", "-ffp-contract=off", *_unoptimized()],
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
        STATUS["native"] = f"not built: cythonize failed ({exc})"
        print(f"mimomem: cythonize failed ({exc}); installing pure Python", file=sys.stderr)
        return []


def _generate_tables() -> None:
    """Write _native/_tables.pxi and _tables.h (per-character tables, see _native/gen_tables.py).

    Without ``regex`` at build time the .pxi gets an empty key and the extension computes
    the tables at run time instead (slower start, same results); the SQLite extension, which
    cannot, is then not built.
    """
    sys.path.insert(0, "_native")
    try:
        import gen_tables

        gen_tables.main()
        gen_tables.main_header()
    except ImportError as exc:
        print(f"mimomem: tables not generated ({exc}); the extension builds them at run time", file=sys.stderr)
        Path("_native", "_tables.pxi").write_text(
            '_TABLES_KEY = ""\n_CLASS_TABLE = b""\n_FOLD_EXCEPTIONS = {}\n', encoding="utf-8"
        )
    finally:
        sys.path.remove("_native")


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPyWithCorpora})
