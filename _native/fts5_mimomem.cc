/* mimomem's bigram tokenizer as a loadable SQLite extension (entry point sqlite3_mimomem_init).
 *
 * Registers, on the connection that loads it:
 *   - the FTS5 tokenizer ``mimomem`` (fts5_tokenizer v1, SQLite 3.20+): exactly the tokens of
 *     mimomem.tokenize, with byte offsets into the original text, in every mode (document,
 *     query, prefix, aux);
 *   - mimomem_query(text): a MATCH string with mimomem's query model (query_core.h); '""' (matches
 *     nothing) when the text has no token;
 *   - mimomem_version(): the tokenizer identity mimomem records for its own indexes;
 *   - mimomem_tokens(text): the tokens as JSON [[token, start, end], ...] (byte offsets);
 *   - the FTS5 auxiliary function mimomem_highlight(table, column, open, close): the column's
 *     original text with each run of matched tokens (overlapping bigrams, touching tokens)
 *     marked once.
 * Built against sqlite3ext.h only: it calls the SQLite of the process that loads it, never a
 * copy of its own.  No C++ exception leaves this file: every entry point catches them. */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include <string.h>

#include <algorithm>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "bigram_core.h"
#include "query_core.h"
#include "sha256.h"

#ifdef _WIN32
#define MIMOMEM_EXPORT __declspec(dllexport)
#else
#define MIMOMEM_EXPORT __attribute__((visibility("default")))
#endif

namespace {

struct Tokenizer {
    mimomem::Scanner scanner;
    bool busy = false;
};

int tok_create(void *, const char **azArg, int nArg, Fts5Tokenizer **ppOut) {
    *ppOut = nullptr;
    if (nArg > 0) return SQLITE_ERROR; /* no options: the rules are the package's */
    Tokenizer *tok = new (std::nothrow) Tokenizer();
    if (!tok) return SQLITE_NOMEM;
    *ppOut = reinterpret_cast<Fts5Tokenizer *>(tok);
    (void)azArg;
    return SQLITE_OK;
}

void tok_delete(Fts5Tokenizer *p) { delete reinterpret_cast<Tokenizer *>(p); }

int tok_tokenize(Fts5Tokenizer *p, void *ctx, int flags, const char *text, int n,
                 int (*xToken)(void *, int, const char *, int, int, int)) {
    (void)flags; /* query, prefix, document and aux text all tokenize alike */
    Tokenizer *tok = reinterpret_cast<Tokenizer *>(p);
    auto emit = [ctx, xToken](const char *t, int nt, int s, int e) { return xToken(ctx, 0, t, nt, s, e); };
    try {
        if (tok->busy) { /* re-entered (a tokenizer callback that tokenizes): a scanner of its own */
            mimomem::Scanner local;
            return local.scan(text, n, emit);
        }
        tok->busy = true;
        int rc = tok->scanner.scan(text, n, emit);
        tok->busy = false;
        return rc;
    } catch (...) {
        tok->busy = false;
        return SQLITE_NOMEM;
    }
}

const char *arg_text(sqlite3_value *v, int *n) {
    const char *z = reinterpret_cast<const char *>(sqlite3_value_text(v));
    *n = sqlite3_value_bytes(v);
    return z ? z : "";
}

/* mimomem_query(text [, detail]): without ``detail`` (or with 'column' / 'none') a MATCH string
 * valid on every FTS5 detail setting; with 'full', the phrase form (more precise there). */
void fn_query(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
    bool phrases = false;
    if (argc > 1) {
        const unsigned char *d = sqlite3_value_text(argv[1]);
        std::string detail = d ? (const char *)d : "";
        if (detail == "full") {
            phrases = true;
        } else if (detail != "column" && detail != "none") {
            return sqlite3_result_error(
                ctx, "mimomem_query: the second argument is the table's FTS5 detail: 'full', 'column' or 'none'", -1);
        }
    }
    try {
        int n;
        const char *text = arg_text(argv[0], &n);
        std::string match = mimomem::to_match(text, n, phrases);
        if (match.empty()) match = "\"\""; /* no token: the empty phrase, which matches nothing */
        sqlite3_result_text(ctx, match.data(), (int)match.size(), SQLITE_TRANSIENT);
    } catch (...) {
        sqlite3_result_error_nomem(ctx);
    }
}

void json_string(std::string &out, const char *s, int n) {
    static const char hex[] = "0123456789abcdef";
    out += '"';
    for (int k = 0; k < n; k++) {
        unsigned char c = (unsigned char)s[k];
        if (c == '"' || c == '\\') {
            out += '\\';
            out += (char)c;
        } else if (c < 0x20) {
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += (char)c;
        }
    }
    out += '"';
}

void fn_tokens(sqlite3_context *ctx, int, sqlite3_value **argv) {
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
    try {
        int n;
        const char *text = arg_text(argv[0], &n);
        std::string out = "[";
        mimomem::Scanner sc;
        auto emit = [&out](const char *t, int nt, int s, int e) {
            if (out.size() > 1) out += ',';
            out += '[';
            json_string(out, t, nt);
            out += ',' + std::to_string(s) + ',' + std::to_string(e) + ']';
            return 0;
        };
        sc.scan(text, n, emit);
        out += ']';
        sqlite3_result_text(ctx, out.data(), (int)out.size(), SQLITE_TRANSIENT);
    } catch (...) {
        sqlite3_result_error_nomem(ctx);
    }
}

/* "mimomem-bigram <TOKENIZER_VERSION> probe-<sha256 of the probe's tokens>", offsets in code points. */
std::string tokenizer_id() {
    const std::string probe = MIMOMEM_BIGRAM_PROBE;
    std::vector<int> index(probe.size() + 1, 0); /* byte offset -> code-point offset */
    int cp = 0;
    for (size_t b = 0; b <= probe.size(); b++) {
        if (b == probe.size() || ((unsigned char)probe[b] & 0xC0) != 0x80) index[b] = cp++;
    }
    mimomem::Sha256 digest;
    mimomem::Scanner sc;
    auto emit = [&](const char *t, int nt, int s, int e) {
        digest.update(std::string(t, (size_t)nt) + '\t' + std::to_string(index[s]) + '\t' + std::to_string(index[e]) +
                      '\n');
        return 0;
    };
    sc.scan(probe.data(), (int)probe.size(), emit);
    return "mimomem-bigram " + std::to_string(MIMOMEM_TOKENIZER_VERSION) + " probe-" + digest.hexdigest().substr(0, 16);
}

void fn_version(sqlite3_context *ctx, int, sqlite3_value **) {
    try {
        static const std::string id = tokenizer_id();
        sqlite3_result_text(ctx, id.data(), (int)id.size(), SQLITE_STATIC);
    } catch (...) {
        sqlite3_result_error_nomem(ctx);
    }
}

struct Marks {
    std::vector<int> hits; /* sorted token positions that matched */
    std::vector<std::pair<int, int>> spans;
    int position = 0;
};

int collect_span(void *p, int, const char *, int, int start, int end) {
    Marks *m = static_cast<Marks *>(p);
    if (std::binary_search(m->hits.begin(), m->hits.end(), m->position)) {
        if (!m->spans.empty() && start <= m->spans.back().second) {
            m->spans.back().second = std::max(m->spans.back().second, end);
        } else {
            m->spans.emplace_back(start, end);
        }
    }
    m->position++;
    return SQLITE_OK;
}

int matched_positions(const Fts5ExtensionApi *api, Fts5Context *fts, int column, std::vector<int> &hits) {
    int count = 0, rc = api->xInstCount(fts, &count);
    for (int i = 0; rc == SQLITE_OK && i < count; i++) {
        int phrase, col, offset;
        rc = api->xInst(fts, i, &phrase, &col, &offset);
        if (rc == SQLITE_OK && col == column) {
            for (int k = 0; k < api->xPhraseSize(fts, phrase); k++) hits.push_back(offset + k);
        }
    }
    std::sort(hits.begin(), hits.end());
    return rc;
}

void fn_highlight(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx, int argc,
                  sqlite3_value **argv) {
    if (argc != 3) {
        return sqlite3_result_error(
            ctx, "mimomem_highlight() takes 4 arguments: mimomem_highlight(table, column index, open, close)", -1);
    }
    try {
        int column = sqlite3_value_int(argv[0]), nopen, nclose, n = 0;
        const char *open = arg_text(argv[1], &nopen), *close = arg_text(argv[2], &nclose), *text = nullptr;
        int rc = api->xColumnText(fts, column, &text, &n);
        Marks marks;
        if (rc == SQLITE_OK) rc = matched_positions(api, fts, column, marks.hits);
        if (rc == SQLITE_OK && text) rc = api->xTokenize(fts, text, n, &marks, collect_span);
        if (rc != SQLITE_OK) return sqlite3_result_error_code(ctx, rc);
        if (!text) return sqlite3_result_null(ctx);
        std::string out;
        int at = 0;
        for (auto &span : marks.spans) {
            out.append(text + at, (size_t)(span.first - at)).append(open, (size_t)nopen);
            out.append(text + span.first, (size_t)(span.second - span.first)).append(close, (size_t)nclose);
            at = span.second;
        }
        out.append(text + at, (size_t)(n - at));
        sqlite3_result_text(ctx, out.data(), (int)out.size(), SQLITE_TRANSIENT);
    } catch (...) {
        sqlite3_result_error_nomem(ctx);
    }
}

fts5_api *fts5_api_of(sqlite3 *db) {
    fts5_api *api = nullptr;
    sqlite3_stmt *stmt = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &stmt, nullptr) == SQLITE_OK) {
        sqlite3_bind_pointer(stmt, 1, reinterpret_cast<void *>(&api), "fts5_api_ptr", nullptr);
        sqlite3_step(stmt);
    }
    sqlite3_finalize(stmt);
    return api;
}

}  // namespace

extern "C" MIMOMEM_EXPORT int sqlite3_mimomem_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi) {
    SQLITE_EXTENSION_INIT2(pApi);
    fts5_api *api = fts5_api_of(db);
    if (!api) {
        *pzErrMsg = sqlite3_mprintf("mimomem: this SQLite was built without FTS5; use one with FTS5 enabled");
        return SQLITE_ERROR;
    }
    fts5_tokenizer tokenizer = {tok_create, tok_delete, tok_tokenize};
    int rc = api->xCreateTokenizer(api, "mimomem", nullptr, &tokenizer, nullptr);
    if (rc == SQLITE_OK) rc = api->xCreateFunction(api, "mimomem_highlight", nullptr, fn_highlight, nullptr);
    const int pure = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "mimomem_query", 1, pure, nullptr, fn_query, nullptr, nullptr);
    if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "mimomem_query", 2, pure, nullptr, fn_query, nullptr, nullptr);
    if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "mimomem_tokens", 1, pure, nullptr, fn_tokens, nullptr, nullptr);
    if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "mimomem_version", 0, pure, nullptr, fn_version, nullptr, nullptr);
    if (rc != SQLITE_OK) *pzErrMsg = sqlite3_mprintf("mimomem: registering the tokenizer failed (%s)", sqlite3_errstr(rc));
    return rc;
}
