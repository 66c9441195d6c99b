/* The search of wedlock/search/exhaustive.py, step for step: depth-first passes with a transposition
 * table, a pass cut short at its budget of generated states and restarted with twice the
 * budget and the children in a random order (Python's own shuffle, seeded the same way),
 * the states proven lost kept across passes. See search/exhaustive.py for why this is exact. */
#include "core.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* ---- growable lists of byte strings ---- */

int strings_add(strings *s, const uint8_t *data, size_t len) {
    if (s->used + len > s->cap) {
        size_t cap = s->cap ? s->cap : 256;
        while (cap < s->used + len) cap *= 2;
        uint8_t *bytes = PyMem_RawRealloc(s->bytes, cap);
        if (!bytes) return -1;
        s->bytes = bytes, s->cap = cap;
    }
    if (s->count == s->cap_count) {
        size_t cap = s->cap_count ? 2 * s->cap_count : 16;
        size_t *ends = PyMem_RawRealloc(s->ends, cap * sizeof *ends);
        if (!ends) return -1;
        s->ends = ends, s->cap_count = cap;
    }
    if (len) memcpy(s->bytes + s->used, data, len);
    s->used += len;
    s->ends[s->count++] = s->used;
    return 0;
}

void strings_clear(strings *s) { s->used = 0, s->count = 0; }

void strings_free(strings *s) {
    PyMem_RawFree(s->bytes);
    PyMem_RawFree(s->ends);
    memset(s, 0, sizeof *s);
}

/* ---- Python's Mersenne Twister (Modules/_randommodule.c's algorithm) ---- */

enum { MT_N = 624, MT_M = 397 };

static void twister_init(twister *t, uint32_t s) {
    t->mt[0] = s;
    for (int i = 1; i < MT_N; i++) t->mt[i] = 1812433253U * (t->mt[i - 1] ^ (t->mt[i - 1] >> 30)) + (uint32_t)i;
    t->index = MT_N;
}

static twister fresh; /* twister_init(19650218), where every seeding starts: made once, by twister_prepare */

void twister_prepare(void) { twister_init(&fresh, 19650218U); }

void twister_seed(twister *t, uint64_t seed) {
    /* random.Random(n) for an int n >= 0: the 32-bit words of n, lowest first. */
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    int used = key[1] ? 2 : 1;
    *t = fresh;
    int i = 1, j = 0;
    for (int k = MT_N > used ? MT_N : used; k; k--) {
        t->mt[i] = (t->mt[i] ^ ((t->mt[i - 1] ^ (t->mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++, j++;
        if (i >= MT_N) t->mt[0] = t->mt[MT_N - 1], i = 1;
        if (j >= used) j = 0;
    }
    for (int k = MT_N - 1; k; k--) {
        t->mt[i] = (t->mt[i] ^ ((t->mt[i - 1] ^ (t->mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) t->mt[0] = t->mt[MT_N - 1], i = 1;
    }
    t->mt[0] = 0x80000000U;
}

static uint32_t twister_next(twister *t) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    if (t->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (t->mt[kk] & 0x80000000U) | (t->mt[kk + 1] & 0x7fffffffU);
            t->mt[kk] = t->mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (t->mt[kk] & 0x80000000U) | (t->mt[kk + 1] & 0x7fffffffU);
            t->mt[kk] = t->mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1U];
        }
        y = (t->mt[MT_N - 1] & 0x80000000U) | (t->mt[0] & 0x7fffffffU);
        t->mt[MT_N - 1] = t->mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1U];
        t->index = 0;
    }
    y = t->mt[t->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

double twister_random(twister *t) {
    /* random.Random.random: 53 bits, the first draw's top 27 and the second's top 26. */
    uint32_t a = twister_next(t) >> 5, b = twister_next(t) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

uint32_t twister_below(twister *t, uint32_t n) {
    /* random.Random._randbelow: draw bit_length(n) bits until the number is below n. */
    int k = 0;
    while (k < 32 && (n >> k)) k++;
    uint32_t r = twister_next(t) >> (32 - k);
    while (r >= n) r = twister_next(t) >> (32 - k);
    return r;
}

/* ---- the transposition table: each state once, with the pass that saw it and whether
 * it is proven lost ----
 *
 * Two forms. The full one keeps each state's bytes (in an arena) and an entry of 24 bytes,
 * and grows as the search goes. The compact one, for the longest searches (a single pass
 * allowed COMPACT_FROM states or more), keeps 12 bytes a state and nothing else: a 64-bit
 * hash of the state and 24 bits of a second, independent one, besides the slot the second
 * hash gives. It is made whole at the start for the search's `max_states` (a slot for each
 * 0.8 of a state: 15 bytes a state), so it never grows. Two states are taken for one only
 * when both hashes agree on 88 bits and more: over a billion states the odds that any two
 * do are below 10^-8 (docs/SOLVER.md, "Proofs of loss"). */

typedef struct {
    uint64_t hash;
    uint64_t at; /* where its bytes start in the arena */
    uint32_t pass; /* the last pass that generated it (0: none) */
    uint16_t len; /* a state is at most CORE_MAX_STATE bytes: 24 bytes an entry, for tens of millions of states */
    uint8_t closed, used;
} entry;

_Static_assert(CORE_MAX_STATE <= UINT16_MAX, "an entry records the length of every state it may hold");

#define COMPACT_FROM 50000000LL /* states a single pass may hold, from which it keeps them compact */
enum { TAG_USED = 1u << 31, TAG_CLOSED = 1u << 30, TAG_PASS = 1u << 24, TAG_LOW = (1u << 24) - 1 };

typedef struct {
    entry *slots;
    size_t cap, count;
    uint8_t *arena;
    size_t arena_used, arena_cap;
    int compact;
    uint64_t *fp;  /* compact: a state's first hash */
    uint32_t *tag; /* compact: used, closed, the pass (6 bits), 24 bits of the second hash */
} table;

/* A table for the search: compact, made whole for `compact_states`, when it asks for one and
 * this machine lends the memory for it; else the full one, which grows as it goes (so a
 * search allowed more states than memory holds keeps what it can, as before). */
static int table_init(table *t, long long compact_states) {
    memset(t, 0, sizeof *t);
    if (compact_states > 0 && (unsigned long long)compact_states < SIZE_MAX / 32) {
        t->compact = 1;
        t->cap = (size_t)(compact_states / 4) * 5 + 16;
        t->fp = PyMem_RawCalloc(t->cap, sizeof *t->fp);
        t->tag = PyMem_RawCalloc(t->cap, sizeof *t->tag);
        if (t->fp && t->tag) return 0;
        PyMem_RawFree(t->fp), PyMem_RawFree(t->tag);
        memset(t, 0, sizeof *t);
    }
    t->cap = 1 << 12;
    t->slots = PyMem_RawCalloc(t->cap, sizeof(entry));
    return t->slots ? 0 : -1;
}

static void table_free(table *t) {
    PyMem_RawFree(t->slots);
    PyMem_RawFree(t->arena);
    PyMem_RawFree(t->fp);
    PyMem_RawFree(t->tag);
}

static int table_grow(table *t) {
    size_t cap = 2 * t->cap;
    entry *slots = PyMem_RawCalloc(cap, sizeof(entry));
    if (!slots) return -1;
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->slots[i].used) continue;
        size_t k = t->slots[i].hash & (cap - 1);
        while (slots[k].used) k = (k + 1) & (cap - 1);
        slots[k] = t->slots[i];
    }
    PyMem_RawFree(t->slots);
    t->slots = slots, t->cap = cap;
    return 0;
}

/* A second hash of a state, independent of core_hash (other constants, other mixing). */
static uint64_t second_hash(const uint8_t *p, size_t n) {
    uint64_t h = 0xD6E8FEB86659FD93ULL + (uint64_t)n * 0x9E3779B97F4A7C15ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001B3ULL;
        h ^= h >> 27;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

enum { NO_SLOT = (size_t)-1 };

/* The slot holding this state, made (unused by any pass, not closed) if new; NO_SLOT when
 * memory ran out (or a compact table is full). The state is at most CORE_MAX_STATE bytes
 * (the search checks). */
static size_t table_find(table *t, const uint8_t *state, size_t len) {
    if (t->compact) {
        uint64_t h = core_hash(state, len), g = second_hash(state, len);
        size_t k = (size_t)(((unsigned __int128)g * t->cap) >> 64); /* the slot from the second hash */
        uint32_t low = (uint32_t)(g & TAG_LOW);
        while (t->tag[k] & TAG_USED) {
            if (t->fp[k] == h && (t->tag[k] & TAG_LOW) == low) return k;
            k = k + 1 == t->cap ? 0 : k + 1;
        }
        if (10 * (t->count + 1) > 9 * t->cap) return NO_SLOT;
        t->fp[k] = h, t->tag[k] = TAG_USED | low;
        t->count++;
        return k;
    }
    uint64_t h = core_hash(state, len);
    size_t k = h & (t->cap - 1);
    while (t->slots[k].used) {
        entry *e = &t->slots[k];
        if (e->hash == h && e->len == len && memcmp(t->arena + e->at, state, len) == 0) return k;
        k = (k + 1) & (t->cap - 1);
    }
    if (10 * (t->count + 1) > 7 * t->cap) {
        if (table_grow(t) < 0) return NO_SLOT;
        return table_find(t, state, len);
    }
    if (t->arena_used + len > t->arena_cap) {
        size_t cap = t->arena_cap ? 2 * t->arena_cap : 1 << 16;
        while (cap < t->arena_used + len) cap *= 2;
        uint8_t *arena = PyMem_RawRealloc(t->arena, cap);
        if (!arena) return NO_SLOT;
        t->arena = arena, t->arena_cap = cap;
    }
    memcpy(t->arena + t->arena_used, state, len);
    entry *e = &t->slots[k];
    e->hash = h, e->at = t->arena_used, e->len = (uint16_t)len, e->pass = 0, e->closed = 0, e->used = 1;
    t->arena_used += len;
    t->count++;
    return k;
}

static uint32_t table_pass(const table *t, size_t k) { return t->compact ? (t->tag[k] >> 24) & 63 : t->slots[k].pass; }

static void table_set_pass(table *t, size_t k, uint32_t pass) {
    if (t->compact)
        t->tag[k] = (t->tag[k] & ~(63u * TAG_PASS)) | (pass & 63) * TAG_PASS;
    else
        t->slots[k].pass = pass;
}

static int table_closed(const table *t, size_t k) { return t->compact ? (t->tag[k] & TAG_CLOSED) != 0 : t->slots[k].closed; }

static void table_close(table *t, size_t k) {
    if (t->compact)
        t->tag[k] |= TAG_CLOSED;
    else
        t->slots[k].closed = 1;
}

/* ---- the search ---- */

typedef struct {
    children kids;
    size_t *order; /* the order the children are tried in */
    size_t cap_order;
    size_t cursor, chosen;
} frame;

typedef struct {
    space *sp;
    const limits *lim;
    table seen; /* search/exhaustive.py's `seen` (entry.pass == this pass) and `closed` together */
    long long closed, nodes, open;
    double started;
    frame *frames;
    size_t depth_cap;
    PyThreadState *released; /* the GIL is let go while the search runs */
    int failed; /* after PASS_ERROR: what went wrong */
    size_t won_depth, won_last; /* after PASS_WON: the frame and child that won */
} search;

enum { PASS_WON, PASS_LOST, PASS_CUT, PASS_STOP, PASS_ERROR };
enum { FAILED_MEMORY = 1, FAILED_EXPAND, FAILED_SIGNAL, FAILED_TOO_LONG, FAILED_LEVEL, FAILED_CHECKPOINT_READ, FAILED_CHECKPOINT_WRITE };

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The children of `state` into frame `d`, in the order this pass tries them. */
static int expand(search *s, size_t d, const uint8_t *state, size_t len, twister *shuffle) {
    if (d == s->depth_cap) {
        size_t cap = s->depth_cap ? 2 * s->depth_cap : 64;
        frame *frames = PyMem_RawRealloc(s->frames, cap * sizeof *frames);
        if (!frames) {
            s->failed = FAILED_MEMORY;
            return -1;
        }
        memset(frames + s->depth_cap, 0, (cap - s->depth_cap) * sizeof *frames);
        s->frames = frames, s->depth_cap = cap;
    }
    frame *f = &s->frames[d];
    strings_clear(&f->kids.states);
    strings_clear(&f->kids.steps);
    if (s->sp->expand(s->sp, state, len, &f->kids) < 0) {
        s->failed = FAILED_EXPAND;
        return -1;
    }
    size_t n = f->kids.states.count;
    for (size_t i = 0, start = 0; i < n; start = f->kids.states.ends[i++])
        if (f->kids.states.ends[i] - start > CORE_MAX_STATE) {
            s->failed = FAILED_TOO_LONG;
            return -1;
        }
    if (n > f->cap_order) {
        size_t *order = PyMem_RawRealloc(f->order, n * sizeof *order);
        if (!order) {
            s->failed = FAILED_MEMORY;
            return -1;
        }
        f->order = order, f->cap_order = n;
    }
    for (size_t i = 0; i < n; i++) f->order[i] = i;
    if (shuffle) /* random.shuffle: from the end, swap each with one at or before it */
        for (size_t i = n - 1; n > 1 && i >= 1; i--) {
            size_t j = twister_below(shuffle, (uint32_t)(i + 1));
            size_t tmp = f->order[i];
            f->order[i] = f->order[j], f->order[j] = tmp;
        }
    f->cursor = 0;
    return 0;
}

static int won_line(search *s, size_t depth, size_t last, result *out) {
    out->steps = PyList_New(0);
    if (!out->steps) return -1;
    for (size_t d = 0; d <= depth; d++) {
        size_t i = d < depth ? s->frames[d].chosen : last, len;
        const uint8_t *step = strings_at(&s->frames[d].kids.steps, i, &len);
        PyObject *obj = s->sp->step_object(s->sp, step, len);
        if (!obj || PyList_Append(out->steps, obj) < 0) {
            Py_XDECREF(obj);
            return -1;
        }
        Py_DECREF(obj);
    }
    return 0;
}

static int pass(search *s, const uint8_t *root, size_t root_len, long long budget, twister *shuffle, uint32_t pass_id,
                result *out) {
    const limits *lim = s->lim;
    long long pass_cap = budget < 0 || budget > LLONG_MAX - s->nodes ? -1 : s->nodes + budget;
    double deadline = lim->time_limit < 0 ? -1 : s->started + lim->time_limit;
    size_t e = table_find(&s->seen, root, root_len);
    if (e == NO_SLOT) goto no_memory;
    table_set_pass(&s->seen, e, pass_id);
    if (expand(s, 0, root, root_len, shuffle) < 0) return PASS_ERROR;
    size_t depth = 0; /* the path holds depth + 1 states */
    for (;;) {
        frame *f = &s->frames[depth];
        int pushed = 0;
        while (f->cursor < f->kids.states.count) {
            size_t i = f->order[f->cursor++], len;
            const uint8_t *child = strings_at(&f->kids.states, i, &len);
            e = table_find(&s->seen, child, len);
            if (e == NO_SLOT) goto no_memory;
            if (table_pass(&s->seen, e) == pass_id || table_closed(&s->seen, e)) continue;
            s->nodes++;
            if (s->sp->is_won(s->sp, child, len)) {
                s->open = (long long)depth + 1;
                out->verdict = VERDICT_WON;
                s->won_depth = depth, s->won_last = i;
                return PASS_WON;
            }
            if (lim->node_limit >= 0 && s->nodes > lim->node_limit) {
                out->limit = "node_limit";
                goto stop;
            }
            /* the distinct states held: the closed ones and the path's (every other state this
             * pass has seen was closed when it was left) */
            if (lim->max_states >= 0 && s->closed + (long long)depth + 1 >= lim->max_states) {
                out->limit = "max_states";
                goto stop;
            }
            if ((s->nodes & 63) == 0) {
                if (deadline >= 0 && now() > deadline) {
                    out->limit = "time_limit";
                    goto stop;
                }
                /* Ctrl-C: Python's signal handlers run with the GIL, taken back for a moment */
                PyEval_RestoreThread(s->released);
                int signalled = PyErr_CheckSignals() < 0;
                s->released = PyEval_SaveThread();
                if (signalled) {
                    s->failed = FAILED_SIGNAL;
                    return PASS_ERROR;
                }
            }
            if (pass_cap >= 0 && s->nodes > pass_cap) {
                s->open = (long long)depth + 1;
                return PASS_CUT;
            }
            table_set_pass(&s->seen, e, pass_id);
            f->chosen = i;
            /* the child's bytes live in this frame, which the next expansion does not touch */
            if (expand(s, depth + 1, child, len, shuffle) < 0) return PASS_ERROR;
            depth++;
            pushed = 1;
            break;
        }
        if (pushed) continue;
        /* every child searched: the state is lost */
        size_t len;
        const uint8_t *state = depth ? strings_at(&s->frames[depth - 1].kids.states, s->frames[depth - 1].chosen, &len) : root;
        if (!depth) len = root_len;
        e = table_find(&s->seen, state, len);
        if (e == NO_SLOT) goto no_memory;
        if (!table_closed(&s->seen, e)) table_close(&s->seen, e), s->closed++;
        if (!depth) {
            s->open = 0;
            return PASS_LOST;
        }
        depth--;
    }
stop:
    s->open = (long long)depth + 1;
    return PASS_STOP;
no_memory:
    s->failed = FAILED_MEMORY;
    return PASS_ERROR;
}

#define TOO_LONG "a state longer than the compiled search holds (65,535 bytes)"

int core_search(space *sp, const uint8_t *root, size_t root_len, const limits *lim, result *out) {
    search s;
    memset(&s, 0, sizeof s);
    memset(out, 0, sizeof *out);
    s.sp = sp, s.lim = lim, s.started = now();
    if (root_len > CORE_MAX_STATE) {
        PyErr_SetString(PyExc_ValueError, TOO_LONG);
        return -1;
    }
    if (sp->is_won(sp, root, root_len)) {
        out->verdict = VERDICT_WON;
        out->steps = PyList_New(0);
        return out->steps ? 0 : -1;
    }
    long long budget = sp->acyclic ? lim->first_pass : -1;
    if (table_init(&s.seen, budget < 0 && lim->max_states >= COMPACT_FROM ? lim->max_states : 0) < 0) {
        table_free(&s.seen);
        PyErr_NoMemory();
        return -1;
    }
    twister shuffle, *shuffling = NULL;
    int code, rc = 0;
    s.released = PyEval_SaveThread();
    for (uint32_t pass_id = 1;; pass_id++) {
        code = pass(&s, root, root_len, budget, shuffling, pass_id, out);
        if (code != PASS_CUT) break;
        twister_seed(&shuffle, (uint64_t)budget);
        shuffling = &shuffle;
        budget = budget > LLONG_MAX / 2 ? LLONG_MAX : 2 * budget;
    }
    PyEval_RestoreThread(s.released);
    if (code == PASS_ERROR) {
        rc = -1;
        if (s.failed == FAILED_EXPAND && sp->failure) PyErr_SetString(PyExc_ValueError, sp->failure); /* a position past the space */
        else if (s.failed == FAILED_TOO_LONG) PyErr_SetString(PyExc_ValueError, TOO_LONG);
        else if (s.failed != FAILED_SIGNAL) PyErr_NoMemory();
    } else if (code == PASS_WON && won_line(&s, s.won_depth, s.won_last, out) < 0)
        rc = -1;
    else if (code == PASS_LOST) out->verdict = VERDICT_LOST;
    else if (code == PASS_STOP) out->verdict = VERDICT_UNKNOWN;
    out->states = s.closed + s.open;
    out->nodes = s.nodes;
    if (rc == 0 && !out->steps) {
        out->steps = PyList_New(0);
        if (!out->steps) rc = -1;
    }
    for (size_t d = 0; d < s.depth_cap; d++) {
        strings_free(&s.frames[d].kids.states);
        strings_free(&s.frames[d].kids.steps);
        PyMem_RawFree(s.frames[d].order);
    }
    PyMem_RawFree(s.frames);
    table_free(&s.seen);
    return rc;
}

/* ---- the search by levels (core.h, core_layers) ---- */

/* The states of one level: their bytes in the order met, and a set over them (open
 * addressing; a slot is 0, or the hash's high 32 bits and the state's index + 1). States
 * are compared byte for byte, so no two distinct states are ever taken for one. */
typedef struct {
    strings states;
    uint64_t *slots;
    size_t cap;
} level_set;

static void level_free(level_set *ls) {
    strings_free(&ls->states);
    PyMem_RawFree(ls->slots);
    memset(ls, 0, sizeof *ls);
}

static int level_grow(level_set *ls) {
    size_t cap = ls->cap ? 2 * ls->cap : 1 << 10;
    uint64_t *slots = PyMem_RawCalloc(cap, sizeof *slots);
    if (!slots) return -1;
    for (size_t i = 0; i < ls->states.count; i++) {
        size_t len;
        const uint8_t *st = strings_at(&ls->states, i, &len);
        uint64_t h = core_hash(st, len);
        size_t k = h & (cap - 1);
        while (slots[k]) k = (k + 1) & (cap - 1);
        slots[k] = (h >> 32 << 32) | (uint64_t)(i + 1);
    }
    PyMem_RawFree(ls->slots);
    ls->slots = slots, ls->cap = cap;
    return 0;
}

/* 1 when the state is new (and now held), 0 when the level holds it already, -1 when
 * memory ran out. */
static int level_add(level_set *ls, const uint8_t *state, size_t len) {
    if (10 * (ls->states.count + 1) > 7 * ls->cap && level_grow(ls) < 0) return -1;
    if (ls->states.count >= UINT32_MAX - 1) return -1;
    uint64_t h = core_hash(state, len), tag = h >> 32 << 32;
    size_t k = h & (ls->cap - 1);
    while (ls->slots[k]) {
        if ((ls->slots[k] >> 32 << 32) == tag) {
            size_t n;
            const uint8_t *held = strings_at(&ls->states, (size_t)(ls->slots[k] & 0xffffffffu) - 1, &n);
            if (n == len && memcmp(held, state, len) == 0) return 0;
        }
        k = (k + 1) & (ls->cap - 1);
    }
    if (strings_add(&ls->states, state, len) < 0) return -1;
    ls->slots[k] = tag | (uint64_t)ls->states.count;
    return 1;
}

/* Checkpoints. A file holds the levels not yet finished and the counts so far, after the
 * digest of the search it belongs to (the caller's: the start and the rules):
 * "WDLKLV01", 32 bytes of digest, states, nodes, peak, the next level (8 bytes each, this
 * machine's order), then for each level still holding states its number, its count of
 * states, its bytes and each state's end (8 bytes each) and the bytes; -1 ends the list.
 * It is written to PATH.tmp and renamed onto PATH, so a search killed while writing
 * leaves the previous checkpoint whole. */
static const char CHECKPOINT_MAGIC[8] = {'W', 'D', 'L', 'K', 'L', 'V', '0', '1'};

static int put64(FILE *f, long long v) { return fwrite(&v, sizeof v, 1, f) == 1 ? 0 : -1; }

static int get64(FILE *f, long long *v) { return fread(v, sizeof *v, 1, f) == 1 ? 0 : -1; }

static int checkpoint_write(const char *path, const uint8_t *digest, const level_set *levels, int next, const layered *out) {
    size_t n = strlen(path);
    char *tmp = PyMem_RawMalloc(n + 5);
    if (!tmp) return -1;
    memcpy(tmp, path, n), memcpy(tmp + n, ".tmp", 5);
    FILE *f = fopen(tmp, "wb");
    int bad = !f;
    if (!bad) bad = fwrite(CHECKPOINT_MAGIC, 8, 1, f) != 1 || fwrite(digest, 32, 1, f) != 1 || put64(f, out->states) || put64(f, out->nodes) ||
                    put64(f, out->peak) || put64(f, next);
    for (int k = next; !bad && k < CORE_LEVELS; k++) {
        const strings *st = &levels[k].states;
        if (!st->count) continue;
        bad = put64(f, k) || put64(f, (long long)st->count) || put64(f, (long long)st->used);
        for (size_t i = 0; !bad && i < st->count; i++) bad = put64(f, (long long)st->ends[i]);
        if (!bad && st->used) bad = fwrite(st->bytes, st->used, 1, f) != 1;
    }
    if (!bad) bad = put64(f, -1);
    if (f && fclose(f) != 0) bad = 1;
    if (!bad) bad = rename(tmp, path) != 0;
    if (bad) remove(tmp);
    PyMem_RawFree(tmp);
    return bad ? -1 : 0;
}

/* 1: read (the levels filled, `*next` and the counts set); 0: no file there; -1: a file that
 * is not a checkpoint of this search or cannot be read; -2: memory ran out. */
static int checkpoint_read(const char *path, const uint8_t *digest, level_set *levels, int *next, layered *out) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    char magic[8];
    uint8_t theirs[32];
    long long states, nodes, peak, first;
    int rc = 1;
    if (fread(magic, 8, 1, f) != 1 || memcmp(magic, CHECKPOINT_MAGIC, 8) != 0 || fread(theirs, 32, 1, f) != 1 || memcmp(theirs, digest, 32) != 0 ||
        get64(f, &states) || get64(f, &nodes) || get64(f, &peak) || get64(f, &first) || first < 0 || first >= CORE_LEVELS)
        rc = -1;
    int last = (int)first - 1;
    while (rc == 1) {
        long long k, count, used;
        if (get64(f, &k)) {
            rc = -1;
            break;
        }
        if (k == -1) break;
        if (k <= last || k >= CORE_LEVELS || get64(f, &count) || get64(f, &used) || count <= 0 || used < 0 || count >= UINT32_MAX - 1) {
            rc = -1;
            break;
        }
        last = (int)k;
        strings *st = &levels[k].states;
        st->ends = PyMem_RawMalloc((size_t)count * sizeof *st->ends);
        st->bytes = PyMem_RawMalloc(used ? (size_t)used : 1);
        if (!st->ends || !st->bytes) {
            rc = -2;
            break;
        }
        st->cap_count = st->count = (size_t)count, st->cap = st->used = (size_t)used;
        size_t before = 0;
        for (size_t i = 0; rc == 1 && i < st->count; i++) {
            long long end;
            if (get64(f, &end) || end < (long long)before || end > used || end - (long long)before > CORE_MAX_STATE) rc = -1;
            else st->ends[i] = before = (size_t)end;
        }
        if (rc == 1 && (before != (size_t)used || (used && fread(st->bytes, (size_t)used, 1, f) != 1))) rc = -1;
        if (rc == 1) { /* a set with room for the level's states, made in one step */
            size_t cap = 1 << 10;
            while (10 * (size_t)count > 7 * cap) cap *= 2;
            levels[k].cap = cap / 2;
            if (level_grow(&levels[k]) < 0) rc = -2;
        }
    }
    fclose(f);
    if (rc == 1) out->states = states, out->nodes = nodes, out->peak = peak, *next = (int)first;
    return rc;
}

int core_layers(space *sp, int (*level)(const uint8_t *state, size_t len), const uint8_t *root, size_t root_len, const limits *lim,
                const char *checkpoint, const uint8_t *digest, double every, layered *out) {
    memset(out, 0, sizeof *out);
    out->verdict = VERDICT_UNKNOWN;
    if (root_len > CORE_MAX_STATE) {
        PyErr_SetString(PyExc_ValueError, TOO_LONG);
        return -1;
    }
    if (sp->is_won(sp, root, root_len)) {
        out->verdict = VERDICT_WON;
        out->states = 1;
        return 0;
    }
    level_set *levels = PyMem_RawCalloc(CORE_LEVELS, sizeof *levels);
    children kids;
    memset(&kids, 0, sizeof kids);
    uint8_t *here = PyMem_RawMalloc(CORE_MAX_STATE);
    int failed = 0, first = level(root, root_len);
    if (!levels || !here) failed = FAILED_MEMORY;
    else if (first < 0 || first >= CORE_LEVELS) failed = FAILED_EXPAND;
    out->states = 1, out->peak = 1;
    int resumed = 0;
    if (!failed && checkpoint) {
        resumed = checkpoint_read(checkpoint, digest, levels, &first, out);
        if (resumed == -1) failed = FAILED_CHECKPOINT_READ;
        else if (resumed == -2) failed = FAILED_MEMORY;
    }
    if (!failed && resumed != 1 && level_add(&levels[first], root, root_len) < 0) failed = FAILED_MEMORY;
    long long held = 0; /* the states of the levels not yet finished */
    for (int k = 0; !failed && k < CORE_LEVELS; k++) held += (long long)levels[k].states.count;
    double started = now(), deadline = lim->time_limit < 0 ? -1 : started + lim->time_limit, saved = started;
    PyThreadState *released = PyEval_SaveThread();
    int L = first;
    for (; !failed && L < CORE_LEVELS && out->verdict == VERDICT_UNKNOWN && !out->limit; L++) {
        level_set *ls = &levels[L];
        for (size_t i = 0; !failed && i < ls->states.count; i++) {
            size_t len;
            const uint8_t *st = strings_at(&ls->states, i, &len);
            memcpy(here, st, len); /* the level's buffer may move as children join it */
            strings_clear(&kids.states), strings_clear(&kids.steps);
            if (sp->expand(sp, here, len, &kids) < 0) {
                failed = FAILED_EXPAND;
                break;
            }
            for (size_t c = 0; c < kids.states.count; c++) {
                size_t n;
                const uint8_t *child = strings_at(&kids.states, c, &n);
                if (n > CORE_MAX_STATE) {
                    failed = FAILED_TOO_LONG;
                    break;
                }
                int lv = level(child, n);
                if (lv < L || lv >= CORE_LEVELS) { /* the space broke its promise: never go on as if it held */
                    failed = FAILED_LEVEL;
                    break;
                }
                int added = level_add(&levels[lv], child, n);
                if (added < 0) {
                    failed = FAILED_MEMORY;
                    break;
                }
                if (!added) continue;
                out->states++, out->nodes++, held++;
                if (held > out->peak) out->peak = held;
                if (sp->is_won(sp, child, n)) {
                    out->verdict = VERDICT_WON;
                    break;
                }
                if (lim->node_limit >= 0 && out->nodes > lim->node_limit) {
                    out->limit = "node_limit";
                    break;
                }
                if (lim->max_states >= 0 && held >= lim->max_states) {
                    out->limit = "max_states";
                    break;
                }
                if ((out->nodes & 63) == 0) {
                    if (deadline >= 0 && now() > deadline) {
                        out->limit = "time_limit";
                        break;
                    }
                    PyEval_RestoreThread(released);
                    int signalled = PyErr_CheckSignals() < 0;
                    released = PyEval_SaveThread();
                    if (signalled) {
                        failed = FAILED_SIGNAL;
                        break;
                    }
                }
            }
            if (out->verdict != VERDICT_UNKNOWN || out->limit) break;
        }
        if (failed || out->verdict != VERDICT_UNKNOWN || out->limit) break;
        held -= (long long)ls->states.count; /* a finished level is never met again: every edge keeps or raises the level */
        level_free(ls);
        if (checkpoint && now() - saved >= every) {
            if (checkpoint_write(checkpoint, digest, levels, L + 1, out) < 0) failed = FAILED_CHECKPOINT_WRITE;
            saved = now();
        }
    }
    PyEval_RestoreThread(released);
    if (!failed && out->verdict == VERDICT_UNKNOWN && !out->limit) out->verdict = VERDICT_LOST;
    for (int k = 0; levels && k < CORE_LEVELS; k++) level_free(&levels[k]);
    PyMem_RawFree(levels);
    PyMem_RawFree(here);
    strings_free(&kids.states), strings_free(&kids.steps);
    if (!failed) return 0;
    if (failed == FAILED_EXPAND && sp->failure) PyErr_SetString(PyExc_ValueError, sp->failure);
    else if (failed == FAILED_EXPAND) PyErr_SetString(PyExc_ValueError, "a state outside the levels of the search");
    else if (failed == FAILED_LEVEL) PyErr_SetString(PyExc_RuntimeError, "a step went down a level: the search by levels cannot be exact here");
    else if (failed == FAILED_TOO_LONG) PyErr_SetString(PyExc_ValueError, TOO_LONG);
    else if (failed == FAILED_CHECKPOINT_READ) PyErr_Format(PyExc_ValueError, "%s is not a checkpoint of this search", checkpoint);
    else if (failed == FAILED_CHECKPOINT_WRITE) PyErr_Format(PyExc_OSError, "could not write the checkpoint %s", checkpoint);
    else if (failed != FAILED_SIGNAL) PyErr_NoMemory();
    return -1;
}
