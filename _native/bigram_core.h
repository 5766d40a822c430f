/* The bigram tokenizer over UTF-8 bytes, for the SQLite extension (fts5_mimomem.cc).
 *
 * Token assembly mirrors mimomem/text/_tokenizer_py.py (the readable reference) and the
 * Cython twin _native/_tokenizer.pxi step for step; the per-character rules are the tables
 * gen_header.py writes into _tables.h from mimomem/text/_chars.py.  Offsets are byte offsets
 * into the input: a token spans from the first byte of the input character where it starts to
 * the last byte of the one where it ends, so text[start:end] is the user's own spelling.
 *
 * Bytes that are not UTF-8 (stray continuation bytes, overlong forms, encoded surrogates,
 * code points past U+10FFFF, a sequence cut short) count as one separator each, as U+FFFD
 * would: any input is tokenized, none is rejected. */
#pragma once

#include <stdint.h>

#include <string>
#include <vector>

#include "_tables.h"

namespace mimomem {

enum { C_SEP = 0, C_WORD = 1, C_CJK = 2, C_MARK = 3 };
enum { F_DIGIT = 4, F_ALNUM = 8 };
const uint32_t INVALID = 0xFFFFFFFFu;

inline uint8_t flags_of(uint32_t cp) {
    if (cp >= 0x110000) return C_SEP;
    return flag_blocks[(uint32_t)flag_index[cp >> 8] << 8 | (cp & 255)];
}

inline int class_of(uint32_t cp) { return flags_of(cp) & 3; }

/* The fold of cp: *out points at n code points (n may be 0); single folds use *one. */
inline int fold_of(uint32_t cp, uint32_t *one, const uint32_t **out) {
    int32_t e = fold_blocks[(uint32_t)fold_index[cp >> 8] << 8 | (cp & 255)];
    if (e >= MIMOMEM_FOLD_MULTI_FLAG) {
        uint32_t m = fold_multi[e - MIMOMEM_FOLD_MULTI_FLAG];
        *out = fold_pool + (m >> 8);
        return (int)(m & 255);
    }
    *one = (uint32_t)((int32_t)cp + e);
    *out = one;
    return 1;
}

/* What prev followed by a voicing mark composes to, or 0. */
inline uint32_t compose_voicing(uint32_t prev, uint32_t mark) {
    for (int k = 0; k + 2 < MIMOMEM_COMPOSE_LEN; k += 3) {
        if (compose[k] == prev && compose[k + 1] == mark) return compose[k + 2];
    }
    return 0;
}

/* Decode one code point at p (p < end); *len gets its byte length. Invalid: INVALID, 1 byte. */
inline uint32_t decode_utf8(const unsigned char *p, const unsigned char *end, int *len) {
    unsigned c = p[0];
    *len = 1;
    if (c < 0x80) return c;
    int n;
    uint32_t cp;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 1, cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 2, cp = c & 0x0F;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F; /* no encoded surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 3, cp = c & 0x07;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else {
        return INVALID;
    }
    if (end - p <= n) return INVALID;
    for (int k = 1; k <= n; k++) {
        unsigned b = p[k];
        if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return INVALID;
        cp = cp << 6 | (b & 0x3F);
    }
    *len = n + 1;
    return cp;
}

inline void append_utf8(std::string &out, uint32_t cp) {
    if (cp < 0x80) {
        out += (char)cp;
    } else if (cp < 0x800) {
        out += (char)(0xC0 | cp >> 6);
        out += (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += (char)(0xE0 | cp >> 12);
        out += (char)(0x80 | (cp >> 6 & 0x3F));
        out += (char)(0x80 | (cp & 0x3F));
    } else {
        out += (char)(0xF0 | cp >> 18);
        out += (char)(0x80 | (cp >> 12 & 0x3F));
        out += (char)(0x80 | (cp >> 6 & 0x3F));
        out += (char)(0x80 | (cp & 0x3F));
    }
}

/* Token assembly state; emit(const char *tok, int ntok, int start, int end) returns 0 to go on. */
class Scanner {
  public:
    template <class Emit>
    int scan(const char *text, int n, Emit &emit) {
        word_.clear();
        word_len_ = 0;
        run_.clear();
        run_src_.clear();
        run_end_.clear();
        const unsigned char *p = (const unsigned char *)text, *end = p + (n > 0 ? n : 0);
        int rc = 0;
        while (p < end && rc == 0) {
            int len;
            uint32_t cp = decode_utf8(p, end, &len);
            int b0 = (int)(p - (const unsigned char *)text), b1 = b0 + len;
            p += len;
            if (cp == INVALID) {
                rc = feed(0xFFFD, b0, b1, emit);
                continue;
            }
            if (cp < 0x80) { /* ASCII: its fold is its lower case */
                rc = feed(cp >= 'A' && cp <= 'Z' ? cp + 32 : cp, b0, b1, emit);
                continue;
            }
            uint32_t one;
            const uint32_t *folded;
            int count = fold_of(cp, &one, &folded);
            for (int k = 0; k < count && rc == 0; k++) rc = feed(folded[k], b0, b1, emit);
        }
        if (rc == 0) rc = flush_word(emit);
        if (rc == 0 && !run_.empty()) rc = flush_run(emit);
        return rc;
    }

  private:
    std::string word_; /* folded characters of the word in progress, UTF-8 */
    int word_len_ = 0; /* ... counted in code points */
    int word_start_ = 0, word_end_ = 0;
    std::vector<uint32_t> run_; /* folded characters of the CJK run in progress */
    std::vector<int> run_src_, run_end_;
    std::string pair_;

    template <class Emit>
    int flush_word(Emit &emit) {
        if (word_len_ == 0) return 0;
        int rc = emit(word_.data(), (int)word_.size(), word_start_, word_end_);
        word_.clear();
        word_len_ = 0;
        return rc;
    }

    template <class Emit>
    int flush_run(Emit &emit) {
        size_t n = run_.size();
        int rc = 0;
        if (n == 1) {
            pair_.clear();
            append_utf8(pair_, run_[0]);
            rc = emit(pair_.data(), (int)pair_.size(), run_src_[0], run_end_[0]);
        }
        for (size_t k = 0; n > 1 && k + 1 < n && rc == 0; k++) {
            pair_.clear();
            append_utf8(pair_, run_[k]);
            append_utf8(pair_, run_[k + 1]);
            rc = emit(pair_.data(), (int)pair_.size(), run_src_[k], run_end_[k + 1]);
        }
        run_.clear();
        run_src_.clear();
        run_end_.clear();
        return rc;
    }

    void push_word(uint32_t o, int b1) {
        append_utf8(word_, o);
        word_len_++;
        word_end_ = b1;
    }

    template <class Emit>
    int feed(uint32_t o, int b0, int b1, Emit &emit) {
        int cls = class_of(o), rc = 0;
        if (cls == C_MARK) {
            if (word_len_ > 0) {
                if (word_len_ >= MIMOMEM_MAX_WORD) { /* the cut: the mark starts the next piece */
                    rc = flush_word(emit);
                    word_start_ = b0;
                }
                push_word(o, b1);
            } else if (!run_.empty() && (o == 0x3099 || o == 0x309A)) {
                uint32_t composed = compose_voicing(run_.back(), o);
                if (composed) {
                    run_.back() = composed;
                    run_end_.back() = b1;
                }
            }
            return rc;
        }
        if (cls == C_WORD) {
            if (!run_.empty()) rc = flush_run(emit);
            if (rc == 0 && word_len_ >= MIMOMEM_MAX_WORD) rc = flush_word(emit);
            if (word_len_ == 0) word_start_ = b0;
            push_word(o, b1);
        } else if (cls == C_CJK) {
            rc = flush_word(emit);
            run_.push_back(o);
            run_src_.push_back(b0);
            run_end_.push_back(b1);
        } else {
            rc = flush_word(emit);
            if (rc == 0 && !run_.empty()) rc = flush_run(emit);
        }
        return rc;
    }
};

}  // namespace mimomem
