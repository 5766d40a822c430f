# BM25 index core with FTS5-exact scoring (twin of mimomem.text._bm25_py.BM25Core).
#
# Layout (all flat typed arrays, no per-term or per-posting Python objects):
#   vocab    open-addressing hash table -> term id; term bytes (UTF-8) in one arena
#   forward  every document's term ids, concatenated (fwd, fwd_off per slot)
#   postings CSR over slots [0, frozen_slots): post_off per term, (slot, tf) pairs
#   pending  documents in slots >= frozen_slots are found by scanning their forward
#            arrays; a merge rebuilds the CSR when pending grows past a threshold
# Removal marks the slot dead (postings of dead slots are skipped, and dropped at the
# next merge).  Scores accumulate phrase by phrase in query order, as fts5_aux.c does.
#
# Persistence: ``_export`` compacts and merges, then hands out the arrays as memoryviews
# (``mimomem.text.bm25_file`` writes them); ``_import`` borrows them from a copy-on-write
# mapping of that file (see _mvec.pxi).  A damaged file may hold any values, so every
# value of the big arrays that is used as an index is bounds-checked where it is read
# (never a crash, at worst wrong results), and ``_import`` checks every offset array.

from libc.math cimport log
from cpython.mem cimport PyMem_RawMalloc, PyMem_RawRealloc, PyMem_RawFree
from libcpp.pair cimport pair
from libcpp.algorithm cimport partial_sort

# __builtin_prefetch is declared in _tokenizer.pxi (included first)

cdef double K1 = 1.2
cdef double B = 0.75
cdef size_t PENDING_MERGE_TOKENS = 1 << 16


cdef inline uint64_t _hash(const char *p, Py_ssize_t n) noexcept nogil:
    """FNV-1a over the bytes, then murmur3's finalizer so the low bits mix well."""
    cdef uint64_t h = 14695981039346656037ULL
    cdef Py_ssize_t j
    for j in range(n):
        h ^= <uint8_t>p[j]
        h *= 1099511628211ULL
    h ^= h >> 33
    h *= 0xff51afd7ed558ccdULL
    h ^= h >> 33
    h *= 0xc4ceb9fe1a85ec53ULL
    h ^= h >> 33
    return h


cdef struct Entry:
    # One vocabulary hash-table entry.  Keys of up to 8 bytes (every CJK bigram, most
    # words) are compared inside the entry, so a lookup touches one cache line.
    uint64_t prefix  # first 8 bytes of the key, zero padded
    uint32_t id1     # term id + 1; 0 marks an empty entry
    uint32_t meta    # 24 hash bits << 8 | min(key length, 255)


cdef inline uint64_t _prefix(const char *key, Py_ssize_t n) noexcept nogil:
    cdef uint64_t v = 0
    memcpy(&v, key, n if n < 8 else 8)
    return v


cdef inline uint32_t _meta(uint64_t h, Py_ssize_t n) noexcept nogil:
    return <uint32_t>(((h >> 40) & 0xFFFFFF) << 8) | <uint32_t>(n if n < 255 else 255)


cdef struct U32Array:
    # A growable uint32 array on realloc: for large blocks glibc moves pages (mremap)
    # instead of copying, so growing never holds the old and new copies at once.
    # ``borrowed``: data points into a mapped file (not ours to realloc or free).
    uint32_t *data
    size_t size
    size_t cap
    bint borrowed


cdef int _u32_reserve(U32Array *a, size_t cap) except -1:
    if cap > 0xFFFFFFFF:  # postings offsets are 32-bit: at most 4G tokens in one index
        cap = 0xFFFFFFFF
        if a.size >= cap:
            raise MemoryError("mimomem: one BM25Index holds at most 4,294,967,295 tokens")
    cdef uint32_t *grown
    if a.borrowed:
        grown = <uint32_t *>PyMem_RawMalloc((cap if cap else 1) * sizeof(uint32_t))
        if grown != NULL:
            memcpy(grown, a.data, (a.size if a.size < cap else cap) * sizeof(uint32_t))
            a.borrowed = False
    else:
        grown = <uint32_t *>PyMem_RawRealloc(a.data, (cap if cap else 1) * sizeof(uint32_t))
    if grown == NULL:
        raise MemoryError(f"mimomem: cannot grow an index array to {cap} entries")
    a.data = grown
    a.cap = cap
    return 0


cdef inline int _u32_push(U32Array *a, uint32_t v) except -1:
    if a.size == a.cap:
        _u32_reserve(a, a.cap + (a.cap >> 1) + 1024)
    a.data[a.size] = v
    a.size += 1
    return 0


cdef uint32_t DF_MARK = 0x80000000  # scratch "seen in this document" bit on df entries


cdef inline Py_ssize_t _utf8_encode(const Py_UCS4 *src, Py_ssize_t n, char *dst) noexcept nogil:
    cdef Py_ssize_t j, w = 0
    cdef uint32_t c
    for j in range(n):
        c = src[j]
        if c < 0x80:
            dst[w] = <char>c
            w += 1
        elif c < 0x800:
            dst[w] = <char>(0xC0 | (c >> 6))
            dst[w + 1] = <char>(0x80 | (c & 0x3F))
            w += 2
        elif c < 0x10000:
            dst[w] = <char>(0xE0 | (c >> 12))
            dst[w + 1] = <char>(0x80 | ((c >> 6) & 0x3F))
            dst[w + 2] = <char>(0x80 | (c & 0x3F))
            w += 3
        else:
            dst[w] = <char>(0xF0 | (c >> 18))
            dst[w + 1] = <char>(0x80 | ((c >> 12) & 0x3F))
            dst[w + 2] = <char>(0x80 | ((c >> 6) & 0x3F))
            dst[w + 3] = <char>(0x80 | (c & 0x3F))
            w += 4
    return w


@cython.final
cdef class BM25Core:
    """In-memory inverted index with FTS5-exact BM25 (native implementation)."""

    # vocabulary
    cdef MVec[char] arena
    cdef MVec[uint32_t] term_off  # term t is arena[term_off[t]:term_off[t + 1]]
    cdef MVec[Entry] table
    cdef uint32_t n_terms
    cdef uint64_t mask
    cdef MVec[uint32_t] df
    cdef Py_ssize_t live_terms
    # documents
    cdef U32Array fwd
    cdef MVec[uint64_t] fwd_off
    cdef MVec[uint8_t] alive
    cdef list _doc_ids
    cdef dict _slot_of
    cdef uint64_t total
    cdef uint64_t dead_tokens
    # postings
    cdef MVec[uint32_t] post_off
    cdef MVec[uint32_t] post_slot
    cdef MVec[uint8_t] post_tf    # 255 = 255 or more: count in the forward index
    cdef uint32_t frozen_slots
    # the mapped file the borrowed arrays point into (see _import)
    cdef unsigned char[::1] _mapped
    # scratch
    cdef vector[char] keybuf
    cdef vector[Py_ssize_t] key_off
    cdef vector[uint64_t] key_hash
    cdef vector[uint32_t] ids
    cdef vector[double] acc
    cdef vector[uint8_t] touched
    cdef vector[uint32_t] touched_list
    cdef vector[uint32_t] cand_slot
    cdef vector[uint32_t] cand_f
    cdef _Scanner scanner

    def __dealloc__(self):
        if not self.fwd.borrowed:
            PyMem_RawFree(self.fwd.data)

    def __cinit__(self):
        self._doc_ids = []
        self._slot_of = {}
        cdef Entry empty
        empty.prefix = 0
        empty.id1 = 0
        empty.meta = 0
        self.table.assign(1024, empty)
        self.mask = 1023
        self.term_off.push_back(0)
        self.fwd_off.push_back(0)
        self.post_off.push_back(0)
        self.scanner = _Scanner()

    # -- vocabulary ------------------------------------------------------------------
    cdef inline int64_t _find(self, const char *key, Py_ssize_t n, uint64_t h) noexcept:
        """Term id of key, or -1 - (free table position) when absent."""
        cdef uint64_t pos = h & self.mask
        cdef uint64_t prefix = _prefix(key, n)
        cdef uint32_t meta = _meta(h, n)
        cdef Entry *e
        cdef uint32_t t
        cdef uint64_t off, probes = 0
        while True:
            e = &self.table[pos]
            if e.id1 == 0 or probes > self.mask:  # (a full table only in a damaged file)
                return -1 - <int64_t>pos
            probes += 1
            if e.meta == meta and e.prefix == prefix and e.id1 <= self.n_terms:
                t = e.id1 - 1
                if n <= 8:
                    return t
                off = self.term_off[t]
                if <Py_ssize_t>(self.term_off[t + 1] - off) == n and \
                        memcmp(self.arena.data() + off + 8, key + 8, n - 8) == 0:
                    return t
            pos = (pos + 1) & self.mask

    cdef void _grow(self):
        """Double the table and re-insert every term (hashes recomputed from the arena)."""
        cdef uint64_t size = (self.mask + 1) * 2
        cdef uint64_t pos, h, off
        cdef Py_ssize_t n
        cdef uint32_t t
        cdef Entry empty
        empty.prefix = 0
        empty.id1 = 0
        empty.meta = 0
        self.table.assign(size, empty)
        self.mask = size - 1
        for t in range(self.n_terms):
            off = self.term_off[t]
            n = <Py_ssize_t>(self.term_off[t + 1] - off)
            h = _hash(self.arena.data() + off, n)
            pos = h & self.mask
            while self.table[pos].id1 != 0:
                pos = (pos + 1) & self.mask
            self.table[pos].prefix = _prefix(self.arena.data() + off, n)
            self.table[pos].id1 = t + 1
            self.table[pos].meta = _meta(h, n)

    cdef uint32_t _intern(self, const char *key, Py_ssize_t n) except? 0xFFFFFFFF:
        return self._intern_h(key, n, _hash(key, n))

    cdef uint32_t _intern_h(self, const char *key, Py_ssize_t n, uint64_t h) except? 0xFFFFFFFF:
        cdef int64_t found = self._find(key, n, h)
        cdef uint32_t t
        cdef size_t off
        cdef Entry *e
        if found >= 0:
            return <uint32_t>found
        off = self.arena.size()
        if off + n > 0xFFFFFFFF or self.n_terms >= 0x7FFFFFFF:
            raise MemoryError("mimomem: the index vocabulary is full (4 GiB of distinct terms)")
        t = self.n_terms
        self.n_terms += 1
        self.arena.resize(off + n)
        if n:
            memcpy(&self.arena[off], key, n)
        self.term_off.push_back(<uint32_t>(off + n))
        self.df.push_back(0)
        e = &self.table[-1 - found]
        e.prefix = _prefix(key, n)
        e.id1 = t + 1
        e.meta = _meta(h, n)
        if <uint64_t>self.n_terms * 4 > (self.mask + 1) * 3:
            self._grow()
        return t

    cdef int32_t _lookup(self, str token) except -2:
        cdef Py_ssize_t n
        cdef const char *p
        data = _utf8(token)
        p = data
        n = len(data)
        cdef int64_t found = self._find(p, n, _hash(p, n))
        return <int32_t>found if found >= 0 else -1

    # -- writing ---------------------------------------------------------------------
    cdef void _commit_doc(self, object doc_id):
        """Turn the term ids in self.ids into a new slot for doc_id (already removed)."""
        cdef uint32_t slot = <uint32_t>len(self._doc_ids)
        cdef size_t j, n = self.ids.size()
        cdef uint32_t t
        self._slot_of[doc_id] = slot
        self._doc_ids.append(doc_id)
        for j in range(n):
            _u32_push(&self.fwd, self.ids[j])
        self.fwd_off.push_back(self.fwd.size)
        self.alive.push_back(1)
        self.total += n
        # document frequency: count each distinct term once (DF_MARK flags "seen")
        for j in range(n):
            t = self.ids[j]
            if not (self.df[t] & DF_MARK):
                if self.df[t] == 0:
                    self.live_terms += 1
                self.df[t] = (self.df[t] + 1) | DF_MARK
        for j in range(n):
            self.df[self.ids[j]] &= ~DF_MARK

    def add(self, doc_id, tokens):
        """Index ``tokens`` (plain strings) as ``doc_id``, replacing any earlier version."""
        cdef Py_ssize_t n
        cdef const char *p
        self.remove(doc_id)
        self.ids.clear()
        for tok in tokens:
            data = _utf8(str(tok))
            p = data
            n = len(data)
            self.ids.push_back(self._intern(p, n))
        self._commit_doc(doc_id)

    def add_joined(self, doc_id, str joined):
        """Index space-joined tokens (the FTS5 shadow column form) as ``doc_id``."""
        cdef Py_ssize_t n, j, start = 0
        cdef size_t k, ntok
        cdef const char *p
        self.remove(doc_id)
        self.ids.clear()
        data = _utf8(joined)
        p = data
        n = len(data)
        if n:
            # hash and prefetch every token first, then intern (see add_text)
            self.key_off.clear()
            self.key_hash.clear()
            for j in range(n + 1):
                if j == n or p[j] == 32:
                    self.key_off.push_back(start)
                    self.key_hash.push_back(_hash(p + start, j - start))
                    __builtin_prefetch(&self.table[self.key_hash.back() & self.mask])
                    start = j + 1
            self.key_off.push_back(n + 1)
            ntok = self.key_hash.size()
            for k in range(ntok):
                self.ids.push_back(self._intern_h(
                    p + self.key_off[k], self.key_off[k + 1] - 1 - self.key_off[k], self.key_hash[k]
                ))
        self._commit_doc(doc_id)

    def add_text(self, doc_id, str text):
        """Tokenize ``text`` with the bigram tokenizer and index it as ``doc_id``."""
        cdef _Scanner sc = self.scanner
        cdef size_t k, ntok
        cdef Py_ssize_t nchars, used = 0
        self.remove(doc_id)
        sc.scan(text)
        ntok = sc.starts.size()
        # Encode every token and hash it first, prefetching its vocabulary entry, then
        # intern them all: the table lookups' cache misses overlap instead of queueing.
        if self.keybuf.size() < <size_t>(sc.chars.size() * 4 + 4):
            self.keybuf.resize(sc.chars.size() * 4 + 4)
        self.key_off.resize(ntok + 1)
        self.key_hash.resize(ntok)
        self.key_off[0] = 0
        for k in range(ntok):
            nchars = sc.bounds[k + 1] - sc.bounds[k]
            used += _utf8_encode(&sc.chars[sc.bounds[k]], nchars, &self.keybuf[used])
            self.key_off[k + 1] = used
            self.key_hash[k] = _hash(&self.keybuf[self.key_off[k]], used - self.key_off[k])
            __builtin_prefetch(&self.table[self.key_hash[k] & self.mask])
        self.ids.clear()
        for k in range(ntok):
            self.ids.push_back(self._intern_h(
                &self.keybuf[self.key_off[k]], self.key_off[k + 1] - self.key_off[k], self.key_hash[k]
            ))
        self._commit_doc(doc_id)

    def remove(self, doc_id):
        """Forget ``doc_id``; returns whether it was indexed."""
        slot_obj = self._slot_of.pop(doc_id, None)
        if slot_obj is None:
            return False
        cdef uint32_t slot = slot_obj
        cdef uint64_t j, a = self.fwd_off[slot], b = self.fwd_off[slot + 1]
        cdef uint32_t t
        self.alive[slot] = 0
        self.total -= (b - a)
        self.dead_tokens += (b - a)
        for j in range(a, b):
            t = self.fwd.data[j]
            if t < self.n_terms and not (self.df[t] & DF_MARK):
                self.df[t] = (self.df[t] - 1) | DF_MARK
                if self.df[t] == DF_MARK:
                    self.live_terms -= 1
        for j in range(a, b):
            t = self.fwd.data[j]
            if t < self.n_terms:
                self.df[t] &= ~DF_MARK
        return True

    # -- merging ---------------------------------------------------------------------
    cdef void _merge(self, bint compact=False):
        """Rebuild the CSR postings from the forward index of live documents.

        The old postings are dropped first (everything is rebuilt from the forward index),
        so the peak is the forward index plus one copy of the postings.  Compacts slots
        (dropping dead documents, keeping order) when dead tokens are at least half of
        what is stored, or always with ``compact``.
        """
        cdef size_t nslots, nterms = self.df.size()
        cdef size_t s, t
        cdef uint64_t a, b, j, pos
        # until the new postings are complete, every document counts as pending
        self.frozen_slots = 0
        self.post_off.assign(1, 0)
        self.post_off.shrink_to_fit()
        self.post_slot.clear()
        self.post_slot.shrink_to_fit()
        self.post_tf.clear()
        self.post_tf.shrink_to_fit()
        if compact or (self.dead_tokens * 2 >= self.fwd.size and self.dead_tokens > 0):
            self._compact()
        elif self.fwd.cap > self.fwd.size + self.fwd.size // 4 + 1024:
            _u32_reserve(&self.fwd, self.fwd.size)
        nslots = self.alive.size()
        # off[t] starts as term t's first position and serves as its write cursor
        cdef MVec[uint32_t] off
        off.resize(nterms + 1, 0)
        for t in range(nterms):
            off[t + 1] = off[t] + self.df[t]
        cdef MVec[uint32_t] slots
        cdef MVec[uint8_t] tfs
        slots.resize(off[nterms])
        tfs.resize(off[nterms])
        cdef vector[uint8_t] tf  # this document's count per term, saturating at 255
        tf.resize(nterms, 0)
        for s in range(nslots):
            if not self.alive[s]:
                continue
            a = self.fwd_off[s]
            b = self.fwd_off[s + 1]
            for j in range(a, b):
                t = self.fwd.data[j]
                if t < nterms and tf[t] < 255:
                    tf[t] += 1
            for j in range(a, b):
                t = self.fwd.data[j]
                if t < nterms and tf[t]:
                    pos = off[t]
                    slots[pos] = <uint32_t>s
                    tfs[pos] = tf[t]
                    off[t] = pos + 1
                    tf[t] = 0
        # off[t] now ends term t, i.e. starts term t + 1: shift back by one
        for t in range(nterms, 0, -1):
            off[t] = off[t - 1]
        off[0] = 0
        self.post_off.swap(off)
        self.post_slot.swap(slots)
        self.post_tf.swap(tfs)
        self.frozen_slots = <uint32_t>nslots

    cdef void _compact(self):
        """Drop dead slots from the forward index, renumbering live slots in order."""
        cdef size_t nslots = self.alive.size()
        cdef size_t s, new = 0
        cdef uint64_t j, w = 0
        cdef MVec[uint64_t] new_off
        new_off.push_back(0)
        new_ids = []
        for s in range(nslots):
            if not self.alive[s]:
                continue
            for j in range(self.fwd_off[s], self.fwd_off[s + 1]):
                self.fwd.data[w] = self.fwd.data[j]
                w += 1
            new_off.push_back(w)
            doc_id = self._doc_ids[s]
            new_ids.append(doc_id)
            self._slot_of[doc_id] = new
            new += 1
        self.fwd.size = w
        _u32_reserve(&self.fwd, w)
        self.fwd_off.swap(new_off)
        self.alive.assign(new, 1)
        self._doc_ids = new_ids
        self.dead_tokens = 0
        self.frozen_slots = 0
        self.acc.clear()
        self.acc.shrink_to_fit()

    cdef void _maybe_merge(self):
        """Merge when the pending (unindexed) tail or the dead share has grown large."""
        cdef uint64_t pending = self.fwd.size - self.fwd_off[self.frozen_slots]
        if pending > PENDING_MERGE_TOKENS or (
            self.dead_tokens > PENDING_MERGE_TOKENS and self.dead_tokens * 2 >= self.fwd.size
        ):
            self._merge()

    # -- reading ---------------------------------------------------------------------
    def __len__(self):
        return len(self._slot_of)

    def __contains__(self, doc_id):
        return doc_id in self._slot_of

    def doc_ids(self):
        """Indexed document ids in slot (insertion) order."""
        return [self._doc_ids[s] for s in range(self.alive.size()) if self.alive[s]]

    def total_tokens(self):
        """Token count over all live documents (FTS5's column total)."""
        return self.total

    def term_count(self):
        """Distinct tokens in live documents."""
        return self.live_terms

    def doc_freq(self, str token):
        """Live documents containing ``token``."""
        cdef int32_t t = self._lookup(token)
        return 0 if t < 0 else self.df[t]

    def memory_bytes(self):
        """Bytes held by the index arrays plus the id list and id -> slot dict."""
        import sys
        cdef size_t n = 0
        n += self.arena.capacity() + self.term_off.capacity() * 4
        n += self.table.capacity() * sizeof(Entry) + self.df.capacity() * 4
        n += self.fwd.cap * 4 + self.fwd_off.capacity() * 8 + self.alive.capacity()
        n += self.post_off.capacity() * 4 + self.post_slot.capacity() * 4 + self.post_tf.capacity()
        n += self.acc.capacity() * 8 + self.touched.capacity() + self.touched_list.capacity() * 4
        n += sys.getsizeof(self._doc_ids) + sys.getsizeof(self._slot_of)
        return n

    cdef void _phrase_freqs(self, const uint32_t *phrase, size_t plen):
        """Fill cand_slot / cand_f with live slots containing the phrase and its count."""
        cdef uint32_t rare = phrase[0]
        cdef size_t j, m
        cdef uint64_t p, a, b, q
        cdef uint32_t s, f
        self.cand_slot.clear()
        self.cand_f.clear()
        for j in range(1, plen):
            if self.df[phrase[j]] < self.df[rare]:
                rare = phrase[j]
        # frozen part: candidates from the rarest token's postings
        if rare + 1 < self.post_off.size():
            for p in range(self.post_off[rare], self.post_off[rare + 1]):
                s = self.post_slot[p]
                if s >= self.frozen_slots or not self.alive[s]:
                    continue
                if plen == 1:
                    f = self.post_tf[p]
                    if f == 255:
                        f = self._count_in(s, phrase, 1)
                else:
                    f = self._count_in(s, phrase, plen)
                if f:
                    self.cand_slot.push_back(s)
                    self.cand_f.push_back(f)
        # pending part: scan forward arrays
        for s in range(self.frozen_slots, self.alive.size()):
            if not self.alive[s]:
                continue
            f = self._count_in(s, phrase, plen)
            if f:
                self.cand_slot.push_back(s)
                self.cand_f.push_back(f)

    cdef inline uint32_t _count_in(self, uint32_t s, const uint32_t *phrase, size_t plen) noexcept:
        cdef uint64_t a = self.fwd_off[s], b = self.fwd_off[s + 1], j
        cdef size_t m
        cdef uint32_t f = 0
        if b - a < plen:
            return 0
        for j in range(a, b - plen + 1):
            if self.fwd.data[j] != phrase[0]:
                continue
            m = 1
            while m < plen and self.fwd.data[j + m] == phrase[m]:
                m += 1
            if m == plen:
                f += 1
        return f

    def search(self, phrases, Py_ssize_t k, weights=None):
        """Top ``k`` (doc id, score) for the OR of ``phrases``, best first.

        ``weights`` (one per phrase, default 1.0 each) multiply each phrase's bm25 term.
        """
        cdef Py_ssize_t n_docs = len(self._slot_of)
        if n_docs == 0 or k <= 0:
            return []
        if weights is not None and len(weights) != len(phrases):
            raise ValueError(f"weights: one per phrase expected, got {len(weights)} for {len(phrases)} phrases")
        cdef bint weighted = weights is not None
        cdef double w = 1.0
        cdef Py_ssize_t p = -1
        self._maybe_merge()
        cdef double avgdl = <double>self.total / <double>n_docs
        cdef size_t nslots = self.alive.size()
        cdef vector[uint32_t] phrase
        cdef int32_t t
        cdef size_t c, j
        cdef uint32_t s
        cdef double idf, f, D, nhit
        if self.acc.size() < nslots:
            self.acc.resize(nslots, 0.0)
        if self.touched.size() < nslots:
            self.touched.resize(nslots, 0)
        self.touched_list.clear()
        for ph in phrases:
            p += 1
            phrase.clear()
            for tok in ph:
                t = self._lookup(tok)
                if t < 0 or self.df[t] == 0:
                    phrase.clear()
                    break
                phrase.push_back(<uint32_t>t)
            if phrase.size() == 0:
                continue
            self._phrase_freqs(phrase.data(), phrase.size())
            if self.cand_slot.size() == 0:
                continue
            nhit = <double>self.cand_slot.size()
            idf = log((<double>(n_docs - <Py_ssize_t>self.cand_slot.size()) + 0.5) / (nhit + 0.5))
            if idf <= 0.0:
                idf = 1e-6
            if weighted:
                w = float(weights[p])
            for c in range(self.cand_slot.size()):
                s = self.cand_slot[c]
                f = <double>self.cand_f[c]
                D = <double>(self.fwd_off[s + 1] - self.fwd_off[s])
                if not self.touched[s]:
                    self.touched[s] = 1
                    self.touched_list.push_back(s)
                    self.acc[s] = 0.0
                if weighted:
                    self.acc[s] += w * (idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + B * D / avgdl))))
                else:
                    self.acc[s] += idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + B * D / avgdl)))
        cdef vector[pair[double, uint32_t]] ranked
        ranked.reserve(self.touched_list.size())
        for c in range(self.touched_list.size()):
            s = self.touched_list[c]
            ranked.push_back(pair[double, uint32_t](-self.acc[s], s))
            self.touched[s] = 0
        cdef size_t top = min(<size_t>k, ranked.size())
        partial_sort(ranked.begin(), ranked.begin() + top, ranked.end())
        return [(self._doc_ids[ranked[c].second], -ranked[c].first) for c in range(top)]


    # -- persistence (mimomem.text.bm25_file) -------------------------------------------
    def _export(self):
        """``(scalars, sections, doc_ids)`` of the index, compacted and fully merged first.

        ``sections`` are memoryviews over the arrays themselves (no copy), in the order
        ``_import`` takes them: write them out before the index changes again.
        """
        if len(self._slot_of) != self.alive.size():
            self._merge(True)  # drop dead slots: a saved index holds live documents only
        elif self.fwd.size != self.fwd_off[self.frozen_slots]:
            self._merge(False)
        if self.post_off.size() != <size_t>self.n_terms + 1:
            self._merge(False)  # (terms with no live document left, never merged yet)
        scalars = {
            "entry_size": sizeof(Entry),
            "terms": self.n_terms,
            "table_size": self.mask + 1,
            "live_terms": self.live_terms,
            "slots": self.alive.size(),
            "tokens": self.fwd.size,
            "postings": self.post_slot.size(),
            "arena": self.arena.size(),
        }
        sections = [
            _view_of(self.arena.data(), self.arena.size()),
            _view_of(<char *>self.term_off.data(), self.term_off.size() * 4),
            _view_of(<char *>self.table.data(), self.table.size() * sizeof(Entry)),
            _view_of(<char *>self.df.data(), self.df.size() * 4),
            _view_of(<char *>self.fwd.data, self.fwd.size * 4),
            _view_of(<char *>self.fwd_off.data(), self.fwd_off.size() * 8),
            _view_of(<char *>self.post_off.data(), self.post_off.size() * 4),
            _view_of(<char *>self.post_slot.data(), self.post_slot.size() * 4),
            _view_of(<char *>self.post_tf.data(), self.post_tf.size()),
        ]
        return scalars, sections, list(self._doc_ids)

    def _import(self, dict scalars, buffer, offsets, list doc_ids):
        """Adopt a saved index's arrays from ``buffer`` (writable, e.g. a copy-on-write mmap).

        ``offsets[i]`` is where section ``i`` of ``_export`` starts in ``buffer``.  Only a
        fresh core imports.  ``ValueError`` when anything is inconsistent (a damaged file);
        nothing is adopted then.
        """
        if self.alive.size() or self.n_terms:
            raise ValueError("only an empty BM25Core can import a saved index")
        cdef unsigned char[::1] view = buffer
        cdef size_t size = view.shape[0]
        cdef unsigned char *base = &view[0] if size else NULL
        cdef uint64_t n_terms = scalars["terms"], table_size = scalars["table_size"]
        cdef uint64_t slots = scalars["slots"], tokens = scalars["tokens"]
        cdef uint64_t postings = scalars["postings"], arena = scalars["arena"]
        cdef uint64_t live_terms = scalars["live_terms"]
        if scalars["entry_size"] != sizeof(Entry) or n_terms > 0x7FFFFFFF or live_terms > n_terms:
            raise ValueError("saved index: bad header values")
        if table_size < 1024 or table_size & (table_size - 1) or n_terms * 4 > table_size * 3:
            raise ValueError("saved index: bad vocabulary table size")
        if slots > 0xFFFFFFFF or tokens > 0xFFFFFFFF or postings > tokens or len(doc_ids) != <Py_ssize_t>slots:
            raise ValueError("saved index: bad document counts")
        cdef list nbytes = [arena, (n_terms + 1) * 4, table_size * sizeof(Entry), n_terms * 4, tokens * 4,
                            (slots + 1) * 8, (n_terms + 1) * 4, postings * 4, postings]
        if len(offsets) != len(nbytes):
            raise ValueError("saved index: wrong number of sections")
        cdef list ptrs = []
        for off, want in zip(offsets, nbytes):
            if off < 0 or off % 8 or off + want > size:
                raise ValueError("saved index: a section lies outside the file")
            ptrs.append(<size_t>(base + <size_t>off) if size else 0)
        cdef uint32_t *term_off = <uint32_t *><size_t>ptrs[1]
        cdef uint64_t *fwd_off = <uint64_t *><size_t>ptrs[5]
        cdef uint32_t *post_off = <uint32_t *><size_t>ptrs[6]
        if not (_monotone32(term_off, n_terms, arena) and _monotone32(post_off, n_terms, postings)
                and _monotone64(fwd_off, slots, tokens)):
            raise ValueError("saved index: offsets out of order")
        slot_of = {d: i for i, d in enumerate(doc_ids)}
        if len(slot_of) != len(doc_ids):
            raise ValueError("saved index: duplicate document ids")
        self.arena.borrow(<char *><size_t>ptrs[0], arena)
        self.term_off.borrow(term_off, n_terms + 1)
        self.table.borrow(<Entry *><size_t>ptrs[2], table_size)
        self.df.borrow(<uint32_t *><size_t>ptrs[3], n_terms)
        self.fwd.data = <uint32_t *><size_t>ptrs[4]
        self.fwd.size = self.fwd.cap = tokens
        self.fwd.borrowed = True
        self.fwd_off.borrow(fwd_off, slots + 1)
        self.post_off.borrow(post_off, n_terms + 1)
        self.post_slot.borrow(<uint32_t *><size_t>ptrs[7], postings)
        self.post_tf.borrow(<uint8_t *><size_t>ptrs[8], postings)
        self.alive.assign(slots, 1)
        self.n_terms = <uint32_t>n_terms
        self.mask = table_size - 1
        self.live_terms = live_terms
        self.total = tokens
        self.dead_tokens = 0
        self.frozen_slots = <uint32_t>slots
        self._doc_ids = doc_ids
        self._slot_of = slot_of
        self._mapped = view


cdef bint _monotone32(const uint32_t *a, uint64_t n, uint64_t last) noexcept:
    """``a[0] == 0 <= a[1] <= ... <= a[n] == last`` (an offset array of n + 1 entries)."""
    cdef uint64_t i
    if a[0] != 0 or a[n] != last:
        return False
    for i in range(n):
        if a[i] > a[i + 1]:
            return False
    return True


cdef bint _monotone64(const uint64_t *a, uint64_t n, uint64_t last) noexcept:
    cdef uint64_t i
    if a[0] != 0 or a[n] != last:
        return False
    for i in range(n):
        if a[i] > a[i + 1]:
            return False
    return True


cdef object _view_of(char *p, size_t n):
    """A memoryview of ``n`` bytes at ``p``, without copying (the caller keeps ``p`` alive)."""
    if n == 0:
        return b""
    return memoryview(<char[:n]> p)


cdef bytes _utf8(str token):
    try:
        return token.encode("utf-8")
    except UnicodeEncodeError:
        return token.encode("utf-8", "surrogatepass")
