# BM25 index core with FTS5-exact scoring (twin of mimomem._bm25_py.BM25Core).
#
# Layout (all flat typed arrays, no per-term or per-posting Python objects):
#   vocab    open-addressing hash table -> term id; term bytes (UTF-8) in one arena
#   forward  every document's term ids, concatenated (fwd, fwd_off per slot)
#   postings CSR over slots [0, frozen_slots): post_off per term, (slot, tf) pairs
#   pending  documents in slots >= frozen_slots are found by scanning their forward
#            arrays; a merge rebuilds the CSR when pending grows past a threshold
# Removal marks the slot dead (postings of dead slots are skipped, and dropped at the
# next merge).  Scores accumulate phrase by phrase in query order, as fts5_aux.c does.

from libc.math cimport log
from libcpp.pair cimport pair
from libcpp.algorithm cimport partial_sort

cdef double K1 = 1.2
cdef double B = 0.75
cdef size_t PENDING_MERGE_TOKENS = 1 << 16


cdef inline uint64_t _fnv1a(const char *p, Py_ssize_t n) noexcept nogil:
    cdef uint64_t h = 14695981039346656037ULL
    cdef Py_ssize_t j
    for j in range(n):
        h ^= <uint8_t>p[j]
        h *= 1099511628211ULL
    return h


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
    cdef vector[char] arena
    cdef vector[uint64_t] term_off
    cdef vector[uint32_t] term_len
    cdef vector[uint64_t] term_hash
    cdef vector[uint64_t] table    # (hash >> 32) << 32 | (term id + 1); 0 = empty
    cdef uint64_t mask
    cdef vector[uint32_t] df
    cdef Py_ssize_t live_terms
    # documents
    cdef vector[uint32_t] fwd
    cdef vector[uint64_t] fwd_off
    cdef vector[uint8_t] alive
    cdef list _doc_ids
    cdef dict _slot_of
    cdef uint64_t total
    cdef uint64_t dead_tokens
    # postings
    cdef vector[uint64_t] post_off
    cdef vector[uint32_t] post_slot
    cdef vector[uint32_t] post_tf
    cdef uint32_t frozen_slots
    # scratch
    cdef vector[char] keybuf
    cdef vector[uint32_t] ids
    cdef vector[double] acc
    cdef vector[uint8_t] touched
    cdef vector[uint32_t] touched_list
    cdef vector[uint32_t] cand_slot
    cdef vector[uint32_t] cand_f
    cdef _Scanner scanner

    def __cinit__(self):
        self._doc_ids = []
        self._slot_of = {}
        self.table.assign(1024, 0)
        self.mask = 1023
        self.fwd_off.push_back(0)
        self.post_off.push_back(0)
        self.scanner = _Scanner()

    # -- vocabulary ------------------------------------------------------------------
    cdef inline int64_t _find(self, const char *key, Py_ssize_t n, uint64_t h) noexcept:
        """Term id of key, or -1 - (free table position) when absent."""
        cdef uint64_t pos = h & self.mask
        cdef uint64_t tag = h & 0xFFFFFFFF00000000ULL
        cdef uint64_t e
        cdef uint32_t t
        while True:
            e = self.table[pos]
            if e == 0:
                return -1 - <int64_t>pos
            if (e & 0xFFFFFFFF00000000ULL) == tag:
                t = <uint32_t>(e & 0xFFFFFFFFULL) - 1
                if self.term_len[t] == n and memcmp(self.arena.data() + self.term_off[t], key, n) == 0:
                    return t
            pos = (pos + 1) & self.mask

    cdef void _grow(self):
        cdef uint64_t size = (self.mask + 1) * 2
        cdef uint64_t pos
        cdef size_t t
        self.table.assign(size, 0)
        self.mask = size - 1
        for t in range(self.term_hash.size()):
            pos = self.term_hash[t] & self.mask
            while self.table[pos] != 0:
                pos = (pos + 1) & self.mask
            self.table[pos] = (self.term_hash[t] & 0xFFFFFFFF00000000ULL) | (t + 1)

    cdef uint32_t _intern(self, const char *key, Py_ssize_t n) noexcept:
        cdef uint64_t h = _fnv1a(key, n)
        cdef int64_t found = self._find(key, n, h)
        cdef uint32_t t
        cdef size_t off
        if found >= 0:
            return <uint32_t>found
        t = <uint32_t>self.term_hash.size()
        off = self.arena.size()
        self.arena.resize(off + n)
        if n:
            memcpy(&self.arena[off], key, n)
        self.term_off.push_back(off)
        self.term_len.push_back(<uint32_t>n)
        self.term_hash.push_back(h)
        self.df.push_back(0)
        self.table[-1 - found] = (h & 0xFFFFFFFF00000000ULL) | (t + 1)
        if (self.term_hash.size() * 2) > self.mask:
            self._grow()
        return t

    cdef int32_t _lookup(self, str token) except -2:
        cdef Py_ssize_t n
        cdef const char *p
        data = _utf8(token)
        p = data
        n = len(data)
        cdef int64_t found = self._find(p, n, _fnv1a(p, n))
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
            self.fwd.push_back(self.ids[j])
        self.fwd_off.push_back(self.fwd.size())
        self.alive.push_back(1)
        self.total += n
        # document frequency: count each distinct term once (touched as a scratch mark)
        for j in range(n):
            t = self.ids[j]
            if self.touched.size() <= t:
                self.touched.resize(t + 1, 0)
            if not self.touched[t]:
                self.touched[t] = 1
                if self.df[t] == 0:
                    self.live_terms += 1
                self.df[t] += 1
        for j in range(n):
            self.touched[self.ids[j]] = 0

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

    def add_text(self, doc_id, str text):
        """Tokenize ``text`` with the bigram tokenizer and index it as ``doc_id``."""
        cdef _Scanner sc = self.scanner
        cdef size_t k, ntok
        cdef Py_ssize_t nbytes, nchars
        self.remove(doc_id)
        sc.scan(text)
        ntok = sc.starts.size()
        self.ids.clear()
        for k in range(ntok):
            nchars = sc.bounds[k + 1] - sc.bounds[k]
            if self.keybuf.size() < <size_t>(nchars * 4 + 4):
                self.keybuf.resize(nchars * 4 + 4)
            nbytes = _utf8_encode(&sc.chars[sc.bounds[k]], nchars, &self.keybuf[0])
            self.ids.push_back(self._intern(&self.keybuf[0], nbytes))
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
            t = self.fwd[j]
            if self.touched.size() <= t:
                self.touched.resize(t + 1, 0)
            if not self.touched[t]:
                self.touched[t] = 1
                self.df[t] -= 1
                if self.df[t] == 0:
                    self.live_terms -= 1
        for j in range(a, b):
            self.touched[self.fwd[j]] = 0
        return True

    # -- merging ---------------------------------------------------------------------
    cdef void _merge(self):
        """Rebuild the CSR postings from the forward index of live documents.

        Compacts slots (dropping dead documents, keeping order) when dead tokens are at
        least half of what is stored.
        """
        cdef size_t nslots = self.alive.size()
        cdef size_t nterms = self.df.size()
        cdef size_t s, j, t
        cdef uint64_t a, b, pos
        if self.dead_tokens * 2 >= self.fwd.size() and self.dead_tokens > 0:
            self._compact()
            nslots = self.alive.size()
        cdef vector[uint64_t] off
        off.resize(nterms + 1, 0)
        for t in range(nterms):
            off[t + 1] = off[t] + self.df[t]
        cdef vector[uint64_t] cursor = off
        cdef vector[uint32_t] slots
        cdef vector[uint32_t] tfs
        slots.resize(off[nterms])
        tfs.resize(off[nterms])
        cdef vector[uint32_t] tf
        tf.resize(nterms, 0)
        for s in range(nslots):
            if not self.alive[s]:
                continue
            a = self.fwd_off[s]
            b = self.fwd_off[s + 1]
            for j in range(a, b):
                tf[self.fwd[j]] += 1
            for j in range(a, b):
                t = self.fwd[j]
                if tf[t]:
                    pos = cursor[t]
                    slots[pos] = <uint32_t>s
                    tfs[pos] = tf[t]
                    cursor[t] = pos + 1
                    tf[t] = 0
        self.post_off.swap(off)
        self.post_slot.swap(slots)
        self.post_tf.swap(tfs)
        self.frozen_slots = <uint32_t>nslots

    cdef void _compact(self):
        """Drop dead slots from the forward index, renumbering live slots in order."""
        cdef size_t nslots = self.alive.size()
        cdef size_t s, new = 0
        cdef uint64_t j, w = 0
        cdef vector[uint64_t] new_off
        new_off.push_back(0)
        new_ids = []
        for s in range(nslots):
            if not self.alive[s]:
                continue
            for j in range(self.fwd_off[s], self.fwd_off[s + 1]):
                self.fwd[w] = self.fwd[j]
                w += 1
            new_off.push_back(w)
            doc_id = self._doc_ids[s]
            new_ids.append(doc_id)
            self._slot_of[doc_id] = new
            new += 1
        self.fwd.resize(w)
        self.fwd.shrink_to_fit()
        self.fwd_off.swap(new_off)
        self.alive.assign(new, 1)
        self._doc_ids = new_ids
        self.dead_tokens = 0
        self.frozen_slots = 0
        self.acc.clear()
        self.acc.shrink_to_fit()

    cdef void _maybe_merge(self):
        """Merge when the pending (unindexed) tail or the dead share has grown large."""
        cdef uint64_t pending = self.fwd.size() - self.fwd_off[self.frozen_slots]
        if pending > PENDING_MERGE_TOKENS or (
            self.dead_tokens > PENDING_MERGE_TOKENS and self.dead_tokens * 2 >= self.fwd.size()
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
        n += self.arena.capacity() + self.term_off.capacity() * 8 + self.term_len.capacity() * 4
        n += self.term_hash.capacity() * 8 + self.table.capacity() * 8 + self.df.capacity() * 4
        n += self.fwd.capacity() * 4 + self.fwd_off.capacity() * 8 + self.alive.capacity()
        n += self.post_off.capacity() * 8 + self.post_slot.capacity() * 4 + self.post_tf.capacity() * 4
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
                if not self.alive[s]:
                    continue
                if plen == 1:
                    f = self.post_tf[p]
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
            if self.fwd[j] != phrase[0]:
                continue
            m = 1
            while m < plen and self.fwd[j + m] == phrase[m]:
                m += 1
            if m == plen:
                f += 1
        return f

    def search(self, phrases, Py_ssize_t k):
        """Top ``k`` (doc id, score) for the OR of ``phrases``, best first."""
        cdef Py_ssize_t n_docs = len(self._slot_of)
        if n_docs == 0 or k <= 0:
            return []
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
            for c in range(self.cand_slot.size()):
                s = self.cand_slot[c]
                f = <double>self.cand_f[c]
                D = <double>(self.fwd_off[s + 1] - self.fwd_off[s])
                if not self.touched[s]:
                    self.touched[s] = 1
                    self.touched_list.push_back(s)
                    self.acc[s] = 0.0
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


cdef bytes _utf8(str token):
    try:
        return token.encode("utf-8")
    except UnicodeEncodeError:
        return token.encode("utf-8", "surrogatepass")
