# Bigram tokenizer: one scan fills flat C++ buffers; two consumers read them
# (tokenize_bigram builds Token objects, BM25Core.add_text interns term ids).

from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcmp, memcpy
from libcpp.vector cimport vector
from cpython.unicode cimport PyUnicode_FromKindAndData, PyUnicode_AsUTF8AndSize

from mimomem.text import _chars
from mimomem.text.tokens import MAX_WORD as _PY_MAX_WORD, Token

cimport cython
from cpython.ref cimport PyObject, Py_INCREF

cdef extern from "Python.h":
    ctypedef struct PyTypeObject:
        object (*tp_alloc)(PyTypeObject *, Py_ssize_t)
    void PyTuple_SET_ITEM(PyObject *p, Py_ssize_t pos, PyObject *o)
    void PyObject_GC_UnTrack(void *op)
    Py_UCS4 PyUnicode_READ(int kind, void *data, Py_ssize_t index) nogil
    int PyUnicode_KIND(object o)
    void *PyUnicode_DATA(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    int PyUnicode_4BYTE_KIND

cdef enum:
    C_SEP = 0
    C_WORD = 1
    C_CJK = 2
    C_MARK = 3

cdef uint32_t FOLD_OTHER = 0xFFFFFFFF  # fold result is not exactly one code point
cdef int MAX_WORD = _PY_MAX_WORD

cdef vector[uint8_t] _class_bmp      # class of each (folded) BMP code point
cdef vector[uint32_t] _fold_bmp      # single-code-point fold of each BMP code point
cdef dict _fold_other = {}           # BMP code point -> fold string when not one code point
cdef bint _tables_ready = False

_py_fold = _chars.fold
_py_class = _chars.char_class
_py_compose = _chars.compose_voicing


def _sha256():
    """SHA-256 without ``hashlib`` when the interpreter has its built-in module (OpenSSL costs ~6 ms to load)."""
    try:
        from _sha2 import sha256  # Python 3.12+
    except ImportError:
        try:
            from _sha256 import sha256  # Python 3.11
        except ImportError:
            from hashlib import sha256
    return sha256


def _find_spec(name):
    """``importlib.util.find_spec(name)`` for a top-level module not imported yet: the import system's
    own finders asked in turn (importing ``importlib.util`` would cost a hook process ~5M instructions)."""
    import sys

    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        if find is not None:
            spec = find(name, None)
            if spec is not None:
                return spec
    return None


def _regex_version():
    """``regex.__version__`` without importing ``regex`` (~20 ms): the name of its one ``.dist-info``
    beside it; anything unusual (no metadata, several versions) imports it and asks."""
    import os
    import sys

    loaded = sys.modules.get("regex")
    if loaded is None:
        try:
            spec = _find_spec("regex")
            where = os.path.dirname(os.path.dirname(spec.origin)) if spec and spec.origin else ""
            found = [n for n in os.listdir(where) if n.startswith("regex-") and n.endswith(".dist-info")]
        except (OSError, ValueError, ImportError):
            found = []
        if len(found) == 1:
            return found[0][len("regex-") : -len(".dist-info")]
    import regex

    return regex.__version__


def _runtime_tables_key():
    """The key of the tables this process would compute (see _native/gen_tables.py)."""
    import unicodedata

    try:
        with open(_chars.__file__, "rb") as handle:
            digest = _sha256()(handle.read()).hexdigest()[:16]
    except (OSError, TypeError):
        return ""
    return f"unicode {unicodedata.unidata_version}; regex {_regex_version()}; _chars {digest}"


cdef int _build_tables() except -1:
    """Fill the BMP class and fold tables: from the build-time tables when they still apply.

    ``_tables.pxi`` holds them as generated from ``_chars.py`` when the extension was built
    (about 1 ms to load).  If its key no longer matches this process (``_chars.py`` edited,
    another ``regex`` or Unicode version), tabulate ``_chars.fold`` / ``_chars.char_class``
    for the whole BMP here instead (about 0.2 s, once per process), as before.
    """
    global _tables_ready
    cdef int cp
    _class_bmp.resize(65536)
    _fold_bmp.resize(65536)
    if _TABLES_KEY == _runtime_tables_key():
        _load_generated_tables()
    else:
        _compute_tables()
    _tables_ready = True
    return 0


cdef void _load_generated_tables():
    cdef const unsigned char[:] classes = _CLASS_TABLE
    cdef int cp
    for cp in range(65536):
        _class_bmp[cp] = classes[cp]
        _fold_bmp[cp] = cp
    for cp, folded in _FOLD_EXCEPTIONS.items():
        if len(folded) == 1:
            _fold_bmp[cp] = ord(folded)
        else:
            _fold_bmp[cp] = FOLD_OTHER
            _fold_other[cp] = folded


cdef int _compute_tables() except -1:
    cdef int cp
    raw_fold = getattr(_py_fold, "__wrapped__", _py_fold)
    raw_class = getattr(_py_class, "__wrapped__", _py_class)
    for cp in range(65536):
        ch = chr(cp)
        _class_bmp[cp] = <uint8_t>raw_class(ch)
        folded = raw_fold(ch)
        if len(folded) == 1:
            _fold_bmp[cp] = ord(folded)
        else:
            _fold_bmp[cp] = FOLD_OTHER
            _fold_other[cp] = folded
    return 0


def tables_source():
    """Where this process's character tables came from: "build" or "runtime" (for tests)."""
    if not _tables_ready:
        _build_tables()
    return "build" if _TABLES_KEY == _runtime_tables_key() else "runtime"


cdef inline int _class_of(Py_UCS4 o) except -1:
    if o < 65536:
        return _class_bmp[o]
    return _py_class(chr(o))


cdef PyTypeObject *_token_type = <PyTypeObject *>Token


cdef inline object _make_token(object text, int32_t start, int32_t end):
    """Token(text, start, end) without a Python-level call (Token is a tuple subclass)."""
    cdef object tok = _token_type.tp_alloc(_token_type, 3)  # a new reference
    cdef object s = start, e = end
    Py_INCREF(text)  # PyTuple_SET_ITEM steals one reference of each item
    Py_INCREF(s)
    Py_INCREF(e)
    PyTuple_SET_ITEM(<PyObject *>tok, 0, <PyObject *>text)
    PyTuple_SET_ITEM(<PyObject *>tok, 1, <PyObject *>s)
    PyTuple_SET_ITEM(<PyObject *>tok, 2, <PyObject *>e)
    PyObject_GC_UnTrack(<PyObject *>tok)  # holds only str and int: cannot be in a cycle
    return tok


@cython.final
cdef class _Scanner:
    """Token assembly state machine; results land in the public vectors."""

    cdef vector[Py_UCS4] chars     # folded characters of all tokens, concatenated
    cdef vector[int32_t] bounds    # token k is chars[bounds[k]:bounds[k+1]]
    cdef vector[int32_t] starts    # code-point offsets into the input
    cdef vector[int32_t] ends
    cdef vector[Py_UCS4] word
    cdef int32_t word_start, word_end
    cdef vector[Py_UCS4] run
    cdef vector[int32_t] run_src, run_end
    cdef vector[uint64_t] keys     # tokenize_many's cache keys of the tokens
    cdef bint busy

    cdef inline void _flush_word(self):
        cdef size_t j
        if self.word.size() == 0:
            return
        for j in range(self.word.size()):
            self.chars.push_back(self.word[j])
        self.bounds.push_back(<int32_t>self.chars.size())
        self.starts.push_back(self.word_start)
        self.ends.push_back(self.word_end)
        self.word.clear()

    cdef inline void _flush_run(self):
        cdef size_t k, n = self.run.size()
        if n == 1:
            self.chars.push_back(self.run[0])
            self.bounds.push_back(<int32_t>self.chars.size())
            self.starts.push_back(self.run_src[0])
            self.ends.push_back(self.run_end[0])
        else:
            for k in range(n - 1):
                self.chars.push_back(self.run[k])
                self.chars.push_back(self.run[k + 1])
                self.bounds.push_back(<int32_t>self.chars.size())
                self.starts.push_back(self.run_src[k])
                self.ends.push_back(self.run_end[k + 1])
        self.run.clear()
        self.run_src.clear()
        self.run_end.clear()

    cdef inline int _feed(self, Py_UCS4 o, int32_t i) except -1:
        cdef int cls = _class_of(o)
        if cls == C_MARK:
            if self.word.size() > 0:
                if <int>self.word.size() >= MAX_WORD:  # the cut: the mark starts the next piece
                    self._flush_word()
                    self.word_start = i
                self.word.push_back(o)
                self.word_end = i + 1
            elif self.run.size() > 0 and (o == 0x3099 or o == 0x309A):
                composed = _py_compose(chr(self.run.back()), chr(o))
                if composed:
                    self.run[self.run.size() - 1] = ord(composed)
                    self.run_end[self.run_end.size() - 1] = i + 1
            return 0
        if cls == C_WORD:
            if self.run.size() > 0:
                self._flush_run()
            if <int>self.word.size() >= MAX_WORD:
                self._flush_word()
            if self.word.size() == 0:
                self.word_start = i
            self.word.push_back(o)
            self.word_end = i + 1
        elif cls == C_CJK:
            self._flush_word()
            self.run.push_back(o)
            self.run_src.push_back(i)
            self.run_end.push_back(i + 1)
        else:
            self._flush_word()
            if self.run.size() > 0:
                self._flush_run()
        return 0

    cdef int scan(self, str text) except -1:
        cdef Py_ssize_t i, n = PyUnicode_GET_LENGTH(text)
        cdef int kind = PyUnicode_KIND(text)
        cdef void *data = PyUnicode_DATA(text)
        cdef Py_UCS4 cp, f
        if not _tables_ready:
            _build_tables()
        self.chars.clear()
        self.bounds.clear()
        self.bounds.push_back(0)
        self.starts.clear()
        self.ends.clear()
        self.word.clear()
        self.run.clear()
        self.run_src.clear()
        self.run_end.clear()
        for i in range(n):
            cp = PyUnicode_READ(kind, data, i)
            if cp < 65536:
                f = _fold_bmp[cp]
                if f != FOLD_OTHER:
                    self._feed(f, <int32_t>i)
                    continue
                folded = _fold_other[<long>cp]
            else:
                folded = _py_fold(chr(cp))
            for o in <str>folded:
                self._feed(o, <int32_t>i)
        self._flush_word()
        if self.run.size() > 0:
            self._flush_run()
        return 0


cdef _Scanner _shared_scanner = _Scanner()


cdef _Scanner _acquire_scanner():
    # The scanner may call back into Python (rare characters), where another thread could
    # run: a busy shared scanner is never reused, a fresh one is made instead.
    if _shared_scanner.busy:
        return _Scanner()
    _shared_scanner.busy = True
    return _shared_scanner


def tokenize_bigram(str text):
    """Split ``text`` into CJK bigrams (lone CJK character: unigram) and folded words.

    Offsets are code-point indexes into ``text`` itself.
    """
    cdef _Scanner sc = _acquire_scanner()
    cdef size_t k, n
    cdef list out
    try:
        sc.scan(text)
        n = sc.starts.size()
        out = [None] * n
        for k in range(n):
            s = PyUnicode_FromKindAndData(
                PyUnicode_4BYTE_KIND, &sc.chars[sc.bounds[k]], sc.bounds[k + 1] - sc.bounds[k]
            )
            out[k] = _make_token(s, sc.starts[k], sc.ends[k])
        return out
    finally:
        sc.busy = False


# -- batches: token strings only, frequent short tokens shared ---------------------------------
#
# ``tokenize_many`` makes no Token tuples and no offset ints (unless asked), and keeps a small
# direct-mapped cache of the str objects of short tokens - every CJK bigram and unigram, and
# ASCII words of up to 8 characters - so a bigram seen before costs a lookup and a reference
# instead of a new object.  The cache lives for the process (128K entries: 2 MB, and the
# strings it holds).  Each text's tokens come back as a tuple the cyclic GC does not track: it holds only
# strings, so it can never be part of a cycle, and a batch of thousands of token lists would
# otherwise be traversed again and again by the collector while it is being built.

cdef extern from "Python.h":
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void Py_DECREF(PyObject *o)
    object PyTuple_New(Py_ssize_t size)

cdef extern from *:
    void __builtin_prefetch(const void *addr) nogil

cdef struct _Interned:
    uint64_t key   # 0 = empty
    PyObject *obj

cdef enum:
    INTERN_BITS = 18

cdef _Interned _intern_table[1 << INTERN_BITS]
cdef uint64_t SHORT_TAG = 1ULL << 63  # keys of 1-2 code point tokens; ASCII-word keys never set bit 63


cdef inline uint64_t _slot_of(uint64_t key) noexcept nogil:
    key ^= key >> 33
    key *= 0xff51afd7ed558ccdULL
    key ^= key >> 33
    return key & ((1 << INTERN_BITS) - 1)


cdef inline uint64_t _intern_key(const Py_UCS4 *p, Py_ssize_t n) noexcept nogil:
    """The cache key of a token: its 1-2 code points, or its packed ASCII bytes (<= 8); 0 = not cached."""
    cdef uint64_t key = 0
    cdef Py_ssize_t j
    if n == 1:
        return SHORT_TAG | (<uint64_t>p[0] << 32) | 0xFFFFFFFFULL
    if n == 2:
        return SHORT_TAG | (<uint64_t>p[0] << 32) | <uint64_t>p[1]
    if n > 8:
        return 0
    for j in range(n):
        if p[j] >= 128:
            return 0
        key |= (<uint64_t>p[j]) << (8 * j)  # (no token holds NUL: zero padding is unambiguous)
    return key


cdef object _new_str(const Py_UCS4 *p, Py_ssize_t n):
    """A str of the ``n`` code points at ``p`` (written in place, in the narrowest kind)."""
    cdef Py_UCS4 top = 0
    cdef Py_ssize_t j
    for j in range(n):
        if p[j] > top:
            top = p[j]
    cdef object s = PyUnicode_New(n, top)
    cdef void *data = PyUnicode_DATA(s)
    if top < 256:
        for j in range(n):
            (<uint8_t *>data)[j] = <uint8_t>p[j]
    elif top < 65536:
        for j in range(n):
            (<uint16_t *>data)[j] = <uint16_t>p[j]
    else:
        memcpy(data, p, n * sizeof(Py_UCS4))
    return s


cdef inline object _cached(uint64_t key, const Py_UCS4 *p, Py_ssize_t n):
    """The shared str for ``key`` (made from ``p[:n]`` on a miss, replacing what the slot held)."""
    cdef _Interned *slot = &_intern_table[_slot_of(key)]
    if slot.key == key:
        return <object>slot.obj
    s = _new_str(p, n)
    Py_INCREF(s)
    if slot.obj != NULL:
        Py_DECREF(slot.obj)
    slot.obj = <PyObject *>s
    slot.key = key
    return s


cdef object _token_tuple(_Scanner sc):
    """The scanned tokens as an untracked tuple of str.

    Memory latency is most of the cost: every token touches its cache slot and the str
    object there (a hit increments its count, a miss decrements the one it evicts).  So
    all slots are prefetched first, then all their objects, then the work is done; the
    misses overlap instead of queueing one after the other.
    """
    cdef Py_ssize_t k, n = <Py_ssize_t>sc.starts.size()
    cdef uint64_t key
    cdef PyObject *held
    sc.keys.resize(n)
    for k in range(n):
        key = _intern_key(&sc.chars[sc.bounds[k]], sc.bounds[k + 1] - sc.bounds[k])
        sc.keys[k] = key
        if key:
            __builtin_prefetch(&_intern_table[_slot_of(key)])
    for k in range(n):
        if sc.keys[k]:
            held = _intern_table[_slot_of(sc.keys[k])].obj
            if held != NULL:
                __builtin_prefetch(held)
    cdef object tup = PyTuple_New(n)
    cdef object s
    for k in range(n):
        if sc.keys[k]:
            s = _cached(sc.keys[k], &sc.chars[sc.bounds[k]], sc.bounds[k + 1] - sc.bounds[k])
        else:
            s = _new_str(&sc.chars[sc.bounds[k]], sc.bounds[k + 1] - sc.bounds[k])
        Py_INCREF(s)  # PyTuple_SET_ITEM steals it
        PyTuple_SET_ITEM(<PyObject *>tup, k, <PyObject *>s)
    PyObject_GC_UnTrack(<PyObject *>tup)
    return tup


cdef object _int_tuple(vector[int32_t] &values):
    cdef Py_ssize_t k, n = <Py_ssize_t>values.size()
    cdef object tup = PyTuple_New(n)
    cdef object v
    for k in range(n):
        v = values[k]
        Py_INCREF(v)
        PyTuple_SET_ITEM(<PyObject *>tup, k, <PyObject *>v)
    PyObject_GC_UnTrack(<PyObject *>tup)
    return tup


def tokenize_many(texts, *, bint offsets=False):
    """Bigram tokens of each text: a tuple of token strings per text (no Token tuples).

    With ``offsets=True`` each text gives ``(tokens, starts, ends)``: the strings and two
    tuples of code-point offsets, as ``tokenize_bigram`` would give them.
    """
    cdef _Scanner sc = _acquire_scanner()
    cdef list out = []
    try:
        for text in texts:
            if not isinstance(text, str):
                raise TypeError(f"tokenize_many() needs str items, got {type(text).__name__}; decode bytes first")
            sc.scan(<str>text)
            if offsets:
                out.append((_token_tuple(sc), _int_tuple(sc.starts), _int_tuple(sc.ends)))
            else:
                out.append(_token_tuple(sc))
        return out
    finally:
        sc.busy = False
