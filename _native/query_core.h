/* The query model for the SQLite extension's mimomem_query(): user text -> a safe MATCH string.
 *
 * The terms are those of mimomem.text.query.parse_query (phrases on, jieba off), step for step:
 * the text is cut to MIMOMEM_MAX_QUERY_CHARS code points (backing up to a space when a word
 * is cut), tokenized, grouped into CJK runs and connector-linked identifiers, each giving its
 * tokens, parts and phrases; de-duplicated, cut to MIMOMEM_MAX_TERMS, OR-joined, every term a
 * double-quoted phrase.  Only tokens reach the string: each is written as text the mimomem
 * tokenizer turns back into exactly that token (its folded form, or failing that the user's own
 * spelling), so FTS5 sees the same tokens the shadow column's query would carry. */
#pragma once

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "bigram_core.h"

namespace mimomem {

struct Tok {
    std::string text;
    int start, end; /* byte offsets into the query text */
};

inline std::vector<Tok> tokens_of(const char *text, int n) {
    std::vector<Tok> out;
    Scanner sc;
    auto emit = [&out](const char *t, int nt, int s, int e) {
        out.push_back(Tok{std::string(t, (size_t)nt), s, e});
        return 0;
    };
    sc.scan(text, n, emit);
    return out;
}

inline std::vector<uint32_t> code_points(const std::string &s) {
    std::vector<uint32_t> out;
    const unsigned char *p = (const unsigned char *)s.data(), *end = p + s.size();
    while (p < end) {
        int len;
        uint32_t cp = decode_utf8(p, end, &len);
        out.push_back(cp == INVALID ? 0xFFFD : cp);
        p += len;
    }
    return out;
}

/* Bytes of text to parse: the first MIMOMEM_MAX_QUERY_CHARS code points (clip_query_text). */
inline int clip_bytes(const char *text, int n, bool *clipped) {
    const int limit = MIMOMEM_MAX_QUERY_CHARS;
    std::vector<int> at;            /* byte offset of each code point, up to limit + 1 of them */
    std::vector<uint32_t> cps;
    const unsigned char *p = (const unsigned char *)text, *end = p + n;
    while (p < end && (int)cps.size() <= limit) {
        int len;
        uint32_t cp = decode_utf8(p, end, &len);
        at.push_back((int)(p - (const unsigned char *)text));
        cps.push_back(cp == INVALID ? 0xFFFD : cp);
        p += len;
    }
    *clipped = (int)cps.size() > limit;
    if (!*clipped) return n;
    int cut = limit;
    if ((flags_of(cps[limit - 1]) & F_ALNUM) && (flags_of(cps[limit]) & F_ALNUM)) {
        int space = -1;
        for (int k = limit - 1; k >= 0 && space < 0; k--) {
            if (cps[k] == ' ' || cps[k] == '\n' || cps[k] == '\t') space = k;
        }
        if (space >= limit / 2) cut = space;
    }
    return at[cut];
}

inline int length_of(const std::string &s) { return (int)code_points(s).size(); }

inline bool weak_part(const std::string &token) {
    std::vector<uint32_t> cps = code_points(token);
    if (cps.size() < 2) return true;
    for (uint32_t cp : cps) {
        if (!(flags_of(cp) & F_DIGIT)) return false;
    }
    return cps.size() < 3;
}

/* ``tauri2`` -> ``tauri``, ``2`` (ASCII digit runs and the rest); a token with ``_`` stays whole. */
inline std::vector<std::string> pieces(const std::string &token) {
    if (token.find('_') != std::string::npos) return {token};
    std::vector<std::string> out;
    for (size_t k = 0; k < token.size();) {
        bool digit = token[k] >= '0' && token[k] <= '9';
        size_t j = k;
        while (j < token.size() && (token[j] >= '0' && token[j] <= '9') == digit) j++;
        out.push_back(token.substr(k, j - k));
        k = j;
    }
    return out;
}

typedef std::vector<std::string> Term;

inline void word_terms(const std::vector<Tok> &toks, std::vector<Term> &terms) {
    Term words;
    for (const Tok &t : toks) words.push_back(t.text);
    for (const std::string &w : words) {
        if (toks.size() == 1 || !weak_part(w)) terms.push_back({w});
    }
    Term split;
    for (const std::string &w : words) {
        for (std::string &p : pieces(w)) split.push_back(p);
    }
    std::set<std::string> known(words.begin(), words.end());
    for (const std::string &p : split) {
        if (!known.count(p) && !weak_part(p)) terms.push_back({p});
    }
    if (words.size() > 1) terms.push_back(words);
    if (split.size() > 1 && split != words) terms.push_back(split);
}

inline bool all_connectors(const char *text, int from, int to) {
    static const std::string connectors = MIMOMEM_CONNECTORS;
    for (int k = from; k < to; k++) {
        if (connectors.find(text[k]) == std::string::npos) return false;
    }
    return true;
}

/* The de-duplicated terms of the query (parse_query); *truncated when a cap cut it. */
inline std::vector<Term> query_terms(const char *text, int n, bool *truncated, std::vector<Tok> &tokens) {
    bool clipped;
    int used = clip_bytes(text, n, &clipped);
    tokens = tokens_of(text, used);
    std::vector<std::pair<bool, std::vector<Tok>>> units; /* (is CJK, tokens) */
    for (const Tok &tok : tokens) {
        bool cjk = class_of(code_points(tok.text)[0]) == C_CJK;
        if (!units.empty()) {
            auto &prev = units.back();
            const Tok &last = prev.second.back();
            if (cjk && prev.first && tok.start < last.end && length_of(tok.text) == 2) {
                prev.second.push_back(tok);
                continue;
            }
            if (!cjk && !prev.first && all_connectors(text, last.end, tok.start)) {
                prev.second.push_back(tok);
                continue;
            }
        }
        units.push_back({cjk, {tok}});
    }
    std::vector<Term> terms;
    for (auto &unit : units) {
        if (!unit.first) {
            word_terms(unit.second, terms);
            continue;
        }
        Term run;
        for (const Tok &t : unit.second) {
            terms.push_back({t.text});
            run.push_back(t.text);
        }
        if (unit.second.size() > 1) terms.push_back(run);
    }
    std::vector<Term> unique;
    std::set<Term> seen;
    for (Term &t : terms) {
        if (seen.insert(t).second) unique.push_back(t);
    }
    *truncated = clipped || unique.size() > MIMOMEM_MAX_TERMS;
    if (unique.size() > MIMOMEM_MAX_TERMS) unique.resize(MIMOMEM_MAX_TERMS);
    return unique;
}

/* Whether the tokenizer reads ``candidate`` back as exactly ``token``.  Fast path: a token whose
 * characters all fold to themselves and that does not start with a mark always does. */
inline bool round_trips(const std::string &candidate, const std::string &token) {
    if (&candidate == &token || candidate == token) {
        bool stable = true;
        std::vector<uint32_t> cps = code_points(token);
        for (size_t k = 0; k < cps.size() && stable; k++) {
            uint32_t one;
            const uint32_t *folded;
            stable = fold_of(cps[k], &one, &folded) == 1 && folded[0] == cps[k] && (k > 0 || class_of(cps[k]) != C_MARK);
        }
        if (stable) return true;
    }
    std::vector<Tok> again = tokens_of(candidate.data(), (int)candidate.size());
    return again.size() == 1 && again[0].text == token;
}

/* Text that the tokenizer reads back as exactly ``token``: its folded form, or failing that the
 * user's own spelling of it in the query (a few folds are not idempotent: ``ΐ`` folds to ``ΐ``
 * decomposed, whose combining marks a second fold would strip).  False when there is none: a
 * part split off a word can be a lone combining mark (``0ꢀ`` -> ``0``, ``ꢀ``), which no text
 * tokenizes to. */
inline bool spelling(const std::string &token, const char *text, const std::vector<Tok> &tokens, std::string *out) {
    if (round_trips(token, token)) return *out = token, true;
    for (const Tok &t : tokens) {
        if (t.text == token) {
            std::string source(text + t.start, (size_t)(t.end - t.start));
            if (round_trips(source, token)) return *out = source, true;
        }
    }
    return false;
}

/* The MATCH string of the query, or "" when it has no terms.  A term with a token that no text
 * can spell is left out: FTS5 can only be asked for tokens through text.  ``phrases``: a term of
 * several tokens is a phrase ("a b", for detail=full tables); otherwise it is an AND of its
 * tokens (("a" AND "b")), valid on every detail setting (column and none have no phrases). */
inline std::string to_match(const char *text, int n, bool phrases = true) {
    bool truncated;
    std::vector<Tok> tokens;
    std::vector<Term> terms = query_terms(text, n, &truncated, tokens);
    std::string out, phrase, spelled;
    for (const Term &term : terms) {
        bool group = !phrases && term.size() > 1;
        phrase = group ? "(\"" : "\"";
        bool ok = true;
        for (size_t k = 0; k < term.size() && ok; k++) {
            if (k) phrase += group ? "\" AND \"" : " ";
            ok = spelling(term[k], text, tokens, &spelled);
            for (char c : spelled) {
                phrase += c;
                if (c == '"') phrase += '"';
            }
        }
        if (!ok) continue;
        if (!out.empty()) out += " OR ";
        out += phrase + (group ? "\")" : "\"");
    }
    return out;
}

}  // namespace mimomem
