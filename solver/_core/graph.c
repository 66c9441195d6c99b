/* The state graph of a Monte Carlo deal in arrays, and its figures: the twin of
 * wedlock/search/state_graph.py's `build` and `figures` over games/montecarlo/player.py's `phase_exits`.
 *
 * A node is a phase-start position: the deal index in each cell (GAP_CELL for a gap) and
 * the deal index of the stock's top card. Its key, as in Python, is the ranks on the grid
 * and the stock. Nodes are numbered in the order `build` finds them (breadth first), their
 * out-edges are kept in the order of their phase's exits, and each edge knows the length
 * of the line its exit records, so the counts, the shortest win and its nodes come out as
 * Python's do.
 *
 * The odds are exact. Python gives each edge a Fraction and sums backwards; here a pass
 * forwards, in order of cards left (every phase takes cards away), carries each node's
 * share of the players' games from the deal to the won nodes. Every share is an integer
 * over a power of one base L, the least common multiple of every number of moves (and of
 * greedy moves) met in any phase: a primitive move divides by its number of choices, which
 * divides L, so it multiplies the numerator by L / choices and the exponent goes up by
 * one. The number of winning sequences rides along (paths multiply through phases). Only
 * the nodes waiting for their turn hold numbers. When the graph was cut, a second pair of
 * shares counts each unexplored node as won, for the upper bounds.
 */
#include "core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bignum.h"

enum { GAP_CELL = 255, MAX_GRID_CELLS = 25, MAX_REMOVALS = 64, MAX_DECK = 104 };
enum { F_WON = 1, F_EXPLORED = 2, F_WALKED = 4, F_EXTRA = 8 };
#define NO_NODE UINT32_MAX
#define MAX_NODES (UINT32_MAX - 1) /* node numbers are 32 bits, NO_NODE apart */
#define TOO_MANY_NODES "more states than the compiled graph numbers"
#define FAR UINT32_MAX
#define EMPTY_SLOT UINT64_MAX

typedef struct {
    int rows, cols, cells, total, thirteens, strict, columns;
    uint8_t rank_of[256]; /* by deal index; GAP_CELL has rank 0 */
    uint8_t neighbours[MAX_GRID_CELLS][4];
    int nneighbours[MAX_GRID_CELLS];
} rules;

/* ---- one phase ---- */

/* Values kept relative to a phase start, or a node's share of the games: sequences (no
 * exponent), then the random and greedy players' shares over L ** e, low bounds and high. */
typedef struct {
    big v[5];
    int e, touched;
} mass;

enum { SEQ, R_LOW, G_LOW, R_HIGH, G_HIGH };

typedef struct {
    uint8_t key[MAX_GRID_CELLS + 1];
    uint32_t mask;     /* the cells emptied on the way, first reached */
    int consolidated;  /* whether it ends the phase (else the game stops there) */
    int line;
    uint64_t hash;  /* of the key */
    uint64_t paths; /* the primitive move sequences reaching it */
    mass m;         /* random and greedy shares (relative to the phase start) */
} phase_exit;

typedef struct {
    /* the masks of cells emptied, in order of discovery */
    uint32_t *mask;
    uint64_t *left; /* the removals still possible (bits over the phase's removals) */
    uint8_t *consolidates, *level;
    uint32_t *first_step; /* mask i leads to step_to[first_step[i]...], one a removal left */
    uint64_t *paths;
    big *r, *g;
    size_t count, cap;
    uint32_t *step_to;
    size_t nsteps, cap_steps;
    /* mask -> index, open addressing over the first `mask_slots` of `cap_slots`, stamped:
     * a table the size of the phase at hand, never cleared */
    uint32_t *slot_mask, *slot_index, *slot_stamp;
    size_t mask_slots, cap_slots;
    uint32_t stamp, mask_stamp;
    size_t *sorted;
    size_t cap_sorted;
    phase_exit *exits;
    size_t nexits, cap_exits;
    uint32_t *exit_slot, *exit_stamp; /* key -> exit, the same way */
    size_t exit_slots, cap_exit_slots;
    big share_r, share_g;
} phase_walk;

static uint64_t gcd64(uint64_t a, uint64_t b) {
    while (b) {
        uint64_t t = a % b;
        a = b, b = t;
    }
    return a;
}

/* base = lcm(base, k); -1 past 2**62 */
static int lcm_into(uint64_t *base, uint64_t k) {
    if (!k) return 0;
    u128 out = (u128)(*base / gcd64(*base, k)) * k;
    if (out >> 62) return -1;
    *base = (uint64_t)out;
    return 0;
}

static inline uint64_t hash_bytes(const uint8_t *b, size_t n) {
    uint64_t h = 0, w;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, b + i, 8);
        h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
        h ^= h >> 32;
    }
    w = 0;
    memcpy(&w, b + i, n - i);
    h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
    return h ^ (h >> 29);
}

static void key_of(const rules *ru, const uint8_t *pos, uint8_t *key) {
    for (int c = 0; c < ru->cells; c++) key[c] = ru->rank_of[pos[c]];
    key[ru->cells] = pos[ru->cells];
}

static int is_won(const rules *ru, const uint8_t *pos) {
    if (pos[ru->cells] != ru->total) return 0;
    for (int c = 0; c < ru->cells; c++)
        if (pos[c] != GAP_CELL) return 0;
    return 1;
}

static void consolidate(const rules *ru, const uint8_t *pos, uint8_t *out) {
    int size = ru->cells, cols = ru->cols;
    memset(out, GAP_CELL, (size_t)size);
    if (ru->columns) {
        for (int col = 0; col < cols; col++) {
            int row = 0;
            for (int c = col; c < size; c += cols)
                if (pos[c] != GAP_CELL) out[row++ * cols + col] = pos[c];
        }
    } else {
        int k = 0;
        for (int c = 0; c < size; c++)
            if (pos[c] != GAP_CELL) out[k++] = pos[c];
    }
    int stock = pos[size];
    for (int i = 0; i < size && stock < ru->total; i++)
        if (out[i] == GAP_CELL) out[i] = (uint8_t)stock++;
    out[size] = (uint8_t)stock;
}

/* Play.removals: the cells each removal empties, in Python's order. -1 past MAX_REMOVALS. */
static int removals_of(const rules *ru, const uint8_t *pos, uint32_t *masks) {
    int n = 0;
    for (int a = 0; a < ru->cells; a++) {
        if (pos[a] == GAP_CELL) continue;
        int rank = ru->rank_of[pos[a]];
        if (ru->thirteens && rank == 13) {
            if (n == MAX_REMOVALS) return -1;
            masks[n++] = 1u << a;
            continue;
        }
        for (int k = 0; k < ru->nneighbours[a]; k++) {
            int b = ru->neighbours[a][k];
            if (pos[b] == GAP_CELL) continue;
            int other = ru->rank_of[pos[b]];
            if (ru->thirteens ? rank + other == 13 : rank == other) {
                if (n == MAX_REMOVALS) return -1;
                masks[n++] = (1u << a) | (1u << b);
            }
        }
    }
    return n;
}

static void mass_clear(mass *m) {
    for (int i = 0; i < 5; i++) m->v[i].n = 0;
    m->e = 0, m->touched = 0;
}

static void mass_free(mass *m) {
    for (int i = 0; i < 5; i++) big_free(&m->v[i]);
}

/* Bring `m` to exponent `e` when it is lower (its odds times L ** difference); return how
 * many powers of L a share at exponent `e` must be raised by to add to it. */
static int mass_align(mass *m, int e, uint64_t base, int *raise) {
    if (!m->touched) {
        m->touched = 1, m->e = e;
        *raise = 0;
        return 0;
    }
    if (e > m->e) {
        for (int i = R_LOW; i <= G_HIGH; i++)
            if (big_mul_power(&m->v[i], base, e - m->e) < 0) return -1;
        m->e = e;
    }
    *raise = m->e - e;
    return 0;
}

/* Grow *p to hold `need` items of `item` bytes, doubling from 1024, *cap counting them. */
static int grow(void **p, size_t *cap, size_t need, size_t item) {
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 1024;
    while (c < need) c *= 2;
    void *q = realloc(*p, c * item);
    if (!q) return -1;
    *p = q, *cap = c;
    return 0;
}

/* Make *p `bytes` long; on failure it keeps its block and -1 comes back. */
static int resize(void **p, size_t bytes) {
    void *q = realloc(*p, bytes);
    if (!q) return -1;
    *p = q;
    return 0;
}

static int walk_reserve(phase_walk *w, size_t need) {
    if (need <= w->cap) return 0;
    size_t cap = w->cap ? w->cap : 64;
    while (cap < need) cap *= 2;
    if (resize((void **)&w->mask, cap * sizeof *w->mask) < 0 || resize((void **)&w->left, cap * sizeof *w->left) < 0 ||
        resize((void **)&w->consolidates, cap) < 0 || resize((void **)&w->level, cap) < 0 ||
        resize((void **)&w->first_step, cap * sizeof *w->first_step) < 0 || resize((void **)&w->paths, cap * sizeof *w->paths) < 0)
        return -1;
    big **fields[2] = {&w->r, &w->g};
    for (int f = 0; f < 2; f++) {
        big *grown = realloc(*fields[f], cap * sizeof(big));
        if (!grown) return -1;
        memset(grown + w->cap, 0, (cap - w->cap) * sizeof(big));
        *fields[f] = grown;
    }
    w->cap = cap;
    return 0;
}

static inline size_t mask_hash(uint32_t mask, size_t slots) { return (size_t)((mask * 0x9e3779b1u) >> 7) & (slots - 1); }

/* Make the mask table `slots` wide (a power of two) and put the phase's masks back in
 * under a new stamp. */
static int mask_table(phase_walk *w, size_t slots) {
    if (slots > w->cap_slots) {
        uint32_t *sm = malloc(slots * sizeof *sm), *si = malloc(slots * sizeof *si), *ss = calloc(slots, sizeof *ss);
        if (!sm || !si || !ss) {
            free(sm), free(si), free(ss);
            return -1;
        }
        free(w->slot_mask), free(w->slot_index), free(w->slot_stamp);
        w->slot_mask = sm, w->slot_index = si, w->slot_stamp = ss, w->cap_slots = slots;
    }
    if (++w->mask_stamp == 0) {
        memset(w->slot_stamp, 0, w->cap_slots * sizeof *w->slot_stamp);
        w->mask_stamp = 1;
    }
    w->mask_slots = slots;
    for (size_t i = 0; i < w->count; i++) {
        size_t h = mask_hash(w->mask[i], slots);
        while (w->slot_stamp[h] == w->mask_stamp) h = (h + 1) & (slots - 1);
        w->slot_stamp[h] = w->mask_stamp, w->slot_mask[h] = w->mask[i], w->slot_index[h] = (uint32_t)i;
    }
    return 0;
}

/* The index of `mask` among the phase's masks, adding it when new (-1: no memory). */
static long find_mask(phase_walk *w, uint32_t mask, int *added) {
    if (w->count * 2 >= w->mask_slots && mask_table(w, w->mask_slots * 2) < 0) return -1;
    size_t h = mask_hash(mask, w->mask_slots);
    while (w->slot_stamp[h] == w->mask_stamp) {
        if (w->slot_mask[h] == mask) {
            *added = 0;
            return w->slot_index[h];
        }
        h = (h + 1) & (w->mask_slots - 1);
    }
    if (walk_reserve(w, w->count + 1) < 0) return -1;
    w->slot_stamp[h] = w->mask_stamp, w->slot_mask[h] = mask, w->slot_index[h] = (uint32_t)w->count;
    w->mask[w->count] = mask;
    *added = 1;
    return (long)w->count++;
}

/* Make the exit table `slots` wide and put the phase's exits back under a new stamp. */
static int exit_table(phase_walk *w, size_t slots) {
    if (slots > w->cap_exit_slots) {
        uint32_t *s = malloc(slots * sizeof *s), *st = calloc(slots, sizeof *st);
        if (!s || !st) {
            free(s), free(st);
            return -1;
        }
        free(w->exit_slot), free(w->exit_stamp);
        w->exit_slot = s, w->exit_stamp = st, w->cap_exit_slots = slots;
    }
    if (++w->stamp == 0) {
        memset(w->exit_stamp, 0, w->cap_exit_slots * sizeof *w->exit_stamp);
        w->stamp = 1;
    }
    w->exit_slots = slots;
    for (size_t i = 0; i < w->nexits; i++) {
        size_t h = w->exits[i].hash & (slots - 1);
        while (w->exit_stamp[h] == w->stamp) h = (h + 1) & (slots - 1);
        w->exit_slot[h] = (uint32_t)i, w->exit_stamp[h] = w->stamp;
    }
    return 0;
}

/* The exit with this key, added when new, as it is first reached: the cells emptied, by a
 * consolidation or not, in `line` moves. */
static phase_exit *exit_for(phase_walk *w, const rules *ru, const uint8_t *key, uint32_t mask, int consolidated, int line) {
    size_t klen = (size_t)ru->cells + 1;
    if (w->nexits * 2 >= w->exit_slots && exit_table(w, w->exit_slots * 2) < 0) return NULL;
    uint64_t hash = hash_bytes(key, klen);
    size_t h = hash & (w->exit_slots - 1);
    while (w->exit_stamp[h] == w->stamp) {
        phase_exit *x = &w->exits[w->exit_slot[h]];
        if (x->hash == hash && !memcmp(x->key, key, klen)) return x;
        h = (h + 1) & (w->exit_slots - 1);
    }
    if (w->nexits == w->cap_exits) {
        size_t cap = w->cap_exits ? w->cap_exits * 2 : 64;
        phase_exit *grown = realloc(w->exits, cap * sizeof *grown);
        if (!grown) return NULL;
        memset(grown + w->cap_exits, 0, (cap - w->cap_exits) * sizeof *grown);
        w->exits = grown, w->cap_exits = cap;
    }
    phase_exit *x = &w->exits[w->nexits];
    w->exit_slot[h] = (uint32_t)w->nexits++, w->exit_stamp[h] = w->stamp;
    memcpy(x->key, key, klen);
    x->mask = mask, x->consolidated = consolidated;
    x->line = line, x->hash = hash;
    x->paths = 0;
    mass_clear(&x->m);
    return x;
}

enum { NO_MEMORY = -1, TOO_MANY_PATHS = -2 };

/* Add a share reaching an exit: n paths, random r and greedy g over L ** e. */
static int leave(phase_walk *w, const rules *ru, const uint8_t *key, uint32_t mask, int consolidated, int line, uint64_t base,
                 uint64_t n, const big *r, const big *g, int e, int with_mass) {
    phase_exit *x = exit_for(w, ru, key, mask, consolidated, line);
    if (!x) return NO_MEMORY;
    if (!with_mass) return 0;
    if (__builtin_add_overflow(x->paths, n, &x->paths)) return TOO_MANY_PATHS;
    int raise;
    if (mass_align(&x->m, e, base, &raise) < 0) return NO_MEMORY;
    const big *shares[2] = {r, g};
    big scaled = {NULL, 0, 0};
    for (int i = 0; i < 2; i++) {
        if (!raise) {
            if (big_add(&x->m.v[R_LOW + i], shares[i]) < 0) return -1;
            continue;
        }
        if (big_copy(&scaled, shares[i]) < 0 || big_mul_power(&scaled, base, raise) < 0 || big_add(&x->m.v[R_LOW + i], &scaled) < 0) {
            big_free(&scaled);
            return -1;
        }
    }
    big_free(&scaled);
    return 0;
}

static int walk_failed(int rc, const char **failure) {
    if (rc == TOO_MANY_PATHS) *failure = "more ways through a phase than the compiled graph counts";
    return -1;
}

static void empty_cells(const rules *ru, const uint8_t *pos, uint32_t mask, uint8_t *out) {
    memcpy(out, pos, (size_t)ru->cells + 1);
    for (; mask; mask &= mask - 1) out[__builtin_ctz(mask)] = GAP_CELL;
}

/* The key of the phase start `ranks` (its key) with the cells in `mask` emptied. */
static void emptied_key(const rules *ru, const uint8_t *ranks, uint32_t mask, uint8_t *key) {
    memcpy(key, ranks, (size_t)ru->cells + 1);
    for (; mask; mask &= mask - 1) key[__builtin_ctz(mask)] = 0;
}

/* The key after consolidating the phase start `ranks` with only the cells in `occupied`
 * left: Table.consolidate over ranks (a gap's rank is 0), without a branch a cell. */
static void consolidated_key(const rules *ru, const uint8_t *ranks, uint32_t occupied, uint8_t *key) {
    int size = ru->cells, cols = ru->cols, stock = ranks[size];
    if (ru->columns) {
        for (int col = 0; col < cols; col++) {
            int row = 0;
            for (int c = col; c < size; c += cols) {
                key[row * cols + col] = ranks[c];
                row += occupied >> c & 1;
            }
            for (int c = row * cols + col; c < size; c += cols) key[c] = 0;
        }
        for (int i = 0; i < size && stock < ru->total; i++)
            if (!key[i]) key[i] = ru->rank_of[stock++];
    } else {
        int k = 0;
        for (int c = 0; c < size; c++) {
            key[k] = ranks[c];
            k += occupied >> c & 1;
        }
        for (; k < size; k++) key[k] = stock < ru->total ? ru->rank_of[stock++] : 0;
    }
    key[size] = (uint8_t)stock;
}

/* An exit's position (deal indices), from the phase start's. */
static void exit_position(const rules *ru, const uint8_t *start, const phase_exit *x, uint8_t *out) {
    uint8_t inner[MAX_GRID_CELLS + 1];
    empty_cells(ru, start, x->mask, x->consolidated ? inner : out);
    if (x->consolidated) consolidate(ru, inner, out);
}

/* Table.can_consolidate on the phase start's cards less those in `gone`. */
static int may_consolidate(const rules *ru, uint32_t occupied, int stock_left) {
    uint32_t full = ru->cells == 32 ? UINT32_MAX : (1u << ru->cells) - 1, gaps = full & ~occupied;
    if (!gaps) return 0;
    if (stock_left) return 1;
    if (ru->columns) return (occupied & (gaps << ru->cols) & full) != 0;
    return (occupied >> __builtin_ctz(gaps)) != 0;
}

/* PlayerView.phase_exits: every way through the phase from `pos` (not won), into w->exits
 * in Python's order. With `base` 0, only the exits and their lines, and `*counts` becomes
 * the lcm of it with every number of choices met (-1 with `failure` set when it cannot).
 * Otherwise, each exit's paths and the players' shares too, relative to the phase start. */
static int walk_phase(phase_walk *w, const rules *ru, const uint8_t *pos, uint64_t base, uint64_t *counts, const char **failure) {
    uint32_t rem[MAX_REMOVALS];
    uint64_t clash[MAX_REMOVALS]; /* the removals that share a cell with each */
    int nrem = removals_of(ru, pos, rem);
    *failure = NULL;
    if (nrem < 0) {
        *failure = "a phase with more removals than the compiled graph holds";
        return -1;
    }
    for (int k = 0; k < nrem; k++) {
        clash[k] = 0;
        for (int j = 0; j < nrem; j++)
            if (rem[k] & rem[j]) clash[k] |= 1ULL << j;
    }
    uint32_t occupied = 0;
    for (int c = 0; c < ru->cells; c++)
        if (pos[c] != GAP_CELL) occupied |= 1u << c;
    int stock_left = pos[ru->cells] < ru->total, with_mass = base != 0;
    w->count = 0, w->nexits = 0, w->nsteps = 0;
    if (mask_table(w, 64) < 0 || exit_table(w, 64) < 0) return -1; /* empty, small, and they grow */
    int added;
    if (find_mask(w, 0, &added) < 0) return -1;
    w->level[0] = 0;
    w->left[0] = nrem == 64 ? UINT64_MAX : (1ULL << nrem) - 1;
    /* First pass: every reachable mask, in order of discovery, with the masks each
     * removal left leads to, and whether it may consolidate. */
    for (size_t i = 0; i < w->count; i++) {
        uint32_t mask = w->mask[i];
        uint64_t left = w->left[i];
        w->consolidates[i] = (uint8_t)(may_consolidate(ru, occupied & ~mask, stock_left) && !(ru->strict && left));
        if (grow((void **)&w->step_to, &w->cap_steps, w->nsteps + 64, sizeof *w->step_to) < 0) return -1;
        w->first_step[i] = (uint32_t)w->nsteps;
        for (uint64_t todo = left; todo; todo &= todo - 1) {
            int k = __builtin_ctzll(todo);
            long j = find_mask(w, mask | rem[k], &added);
            if (j < 0) return -1;
            if (added) w->level[j] = (uint8_t)(w->level[i] + 1), w->left[j] = left & ~clash[k];
            w->step_to[w->nsteps++] = (uint32_t)j;
        }
    }
    /* Python sorts them by the number of cells emptied, keeping the order of discovery. */
    if (grow((void **)&w->sorted, &w->cap_sorted, w->count, sizeof *w->sorted) < 0) return -1;
    size_t first[MAX_GRID_CELLS + 2] = {0};
    for (size_t i = 0; i < w->count; i++) first[__builtin_popcount(w->mask[i]) + 1]++;
    for (int b = 1; b <= MAX_GRID_CELLS + 1; b++) first[b] += first[b - 1];
    for (size_t i = 0; i < w->count; i++) w->sorted[first[__builtin_popcount(w->mask[i])]++] = i;
    if (with_mass) {
        for (size_t i = 0; i < w->count; i++) w->paths[i] = 0, w->r[i].n = w->g[i].n = 0;
        w->paths[0] = 1;
        if (big_set(&w->r[0], 1) < 0 || big_set(&w->g[0], 1) < 0) return -1;
    }
    static const big none = {NULL, 0, 0};
    uint8_t ranks[MAX_GRID_CELLS + 1], key[MAX_GRID_CELLS + 1];
    key_of(ru, pos, ranks);
    for (size_t s = 0; s < w->count; s++) {
        size_t i = w->sorted[s];
        uint32_t mask = w->mask[i];
        int free_moves = __builtin_popcountll(w->left[i]), cons = w->consolidates[i], moves = free_moves + cons;
        int level = w->level[i];
        uint64_t greedy_moves = (uint64_t)(free_moves ? free_moves : 1);
        if (!moves) {
            if (mask) {
                emptied_key(ru, ranks, mask, key);
                int rc = leave(w, ru, key, mask, 0, level, base, w->paths[i], &w->r[i], &w->g[i], level, with_mass);
                if (rc < 0) return walk_failed(rc, failure);
            }
            continue;
        }
        if (!with_mass) {
            if ((*counts % (uint64_t)moves && lcm_into(counts, (uint64_t)moves) < 0) ||
                (*counts % greedy_moves && lcm_into(counts, greedy_moves) < 0)) {
                *failure = "odds whose common denominator outgrows the compiled graph";
                return -1;
            }
        } else {
            if (base % (uint64_t)moves || base % greedy_moves) {
                *failure = "a number of choices the common denominator misses";
                return -1;
            }
            if (big_copy(&w->share_r, &w->r[i]) < 0 || big_mul_word(&w->share_r, base / (uint64_t)moves) < 0 ||
                big_copy(&w->share_g, &w->g[i]) < 0 || big_mul_word(&w->share_g, base / greedy_moves) < 0)
                return -1;
            for (uint32_t t = w->first_step[i]; t < w->first_step[i] + (uint32_t)free_moves; t++) {
                size_t j = w->step_to[t];
                if (w->level[j] != level + 1) {
                    *failure = "a phase whose masks are reached in different numbers of moves";
                    return -1;
                }
                if (__builtin_add_overflow(w->paths[j], w->paths[i], &w->paths[j])) return walk_failed(TOO_MANY_PATHS, failure);
                if (big_add(&w->r[j], &w->share_r) < 0 || big_add(&w->g[j], &w->share_g) < 0) return -1;
            }
        }
        if (cons) {
            consolidated_key(ru, ranks, occupied & ~mask, key);
            int rc = leave(w, ru, key, mask, 1, level + 1, base, w->paths[i], &w->share_r, free_moves ? &none : &w->share_g, level + 1, with_mass);
            if (rc < 0) return walk_failed(rc, failure);
        }
    }
    return 0;
}

static void walk_free(phase_walk *w) {
    for (size_t i = 0; i < w->cap; i++) big_free(&w->r[i]), big_free(&w->g[i]);
    free(w->paths), free(w->r), free(w->g);
    free(w->mask), free(w->left), free(w->consolidates), free(w->level), free(w->first_step), free(w->step_to);
    free(w->slot_mask), free(w->slot_index), free(w->slot_stamp), free(w->sorted);
    for (size_t i = 0; i < w->cap_exits; i++) mass_free(&w->exits[i].m);
    free(w->exits), free(w->exit_slot), free(w->exit_stamp);
    big_free(&w->share_r), big_free(&w->share_g);
    memset(w, 0, sizeof *w);
}

/* ---- the graph ---- */

typedef struct {
    PyObject_HEAD rules ru;
    size_t klen;
    /* nodes */
    uint8_t *keys, *pos, *flags;
    uint32_t *first_edge, *degree;
    size_t n, cap;
    uint64_t *slot; /* key -> node, open addressing: the key's hash above, the node below; EMPTY_SLOT */
    size_t slots;
    /* edges: each explored node's, contiguous in the order found */
    uint32_t *to;
    uint8_t *line;
    size_t nedges, cap_edges, cap_line;
    /* edges added afterwards (a winning line through a cut graph) */
    uint32_t *extra_from, *extra_to;
    uint8_t *extra_line;
    size_t nextra, cap_extra_from, cap_extra_to, cap_extra_line;
    int busy; /* building or summing up: the graph must not change under it */
    const char *stopped; /* what ended the build early: "time_limit", "memory" or "max_states" (NULL: nothing) */
    uint64_t base; /* lcm of every number of choices in the phases walked */
    phase_walk walk;
} graph_object;

static uint32_t find_hashed(const graph_object *g, const uint8_t *key, uint64_t h) {
    if (!g->slots) return NO_NODE;
    uint64_t print = h >> 32;
    size_t at = h & (g->slots - 1);
    for (uint64_t slot; (slot = g->slot[at]) != EMPTY_SLOT; at = (at + 1) & (g->slots - 1)) {
        uint32_t v = (uint32_t)slot;
        if (slot >> 32 == print && !memcmp(g->keys + v * g->klen, key, g->klen)) return v;
    }
    return NO_NODE;
}

static uint32_t find_node(const graph_object *g, const uint8_t *key) { return find_hashed(g, key, hash_bytes(key, g->klen)); }

/* Ask the memory for the table slots, then the keys, that the phase's exits will look up:
 * the lookups then wait on one another's misses far less. */
static void prefetch_exits(const graph_object *g, const phase_walk *w) {
    if (!g->slots) return;
    for (size_t i = 0; i < w->nexits; i++) __builtin_prefetch(&g->slot[w->exits[i].hash & (g->slots - 1)]);
    for (size_t i = 0; i < w->nexits; i++) {
        uint64_t slot = g->slot[w->exits[i].hash & (g->slots - 1)];
        if (slot != EMPTY_SLOT && slot >> 32 == w->exits[i].hash >> 32) __builtin_prefetch(g->keys + (uint32_t)slot * g->klen);
    }
}

static void place(uint64_t *slots, size_t count, uint64_t h, uint32_t v) {
    size_t at = h & (count - 1);
    while (slots[at] != EMPTY_SLOT) at = (at + 1) & (count - 1);
    slots[at] = (h >> 32) << 32 | v;
}

static uint32_t add_node(graph_object *g, const uint8_t *pos, const uint8_t *key, int won) {
    if (g->n == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 4096;
        if (resize((void **)&g->keys, cap * g->klen) < 0 || resize((void **)&g->pos, cap * g->klen) < 0 ||
            resize((void **)&g->flags, cap) < 0 || resize((void **)&g->first_edge, cap * sizeof *g->first_edge) < 0 ||
            resize((void **)&g->degree, cap * sizeof *g->degree) < 0)
            return NO_NODE;
        g->cap = cap;
    }
    if ((g->n + 1) * 2 > g->slots) {
        size_t slots = g->slots ? g->slots * 2 : 8192;
        uint64_t *s = malloc(slots * sizeof *s);
        if (!s) return NO_NODE;
        for (size_t i = 0; i < slots; i++) s[i] = EMPTY_SLOT;
        for (size_t v = 0; v < g->n; v++) place(s, slots, hash_bytes(g->keys + v * g->klen, g->klen), (uint32_t)v);
        free(g->slot);
        g->slot = s, g->slots = slots;
    }
    uint32_t v = (uint32_t)g->n++;
    memcpy(g->keys + v * g->klen, key, g->klen);
    memcpy(g->pos + v * g->klen, pos, g->klen);
    g->flags[v] = won ? F_WON : 0;
    g->first_edge[v] = 0, g->degree[v] = 0;
    place(g->slot, g->slots, hash_bytes(key, g->klen), v);
    return v;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The process's resident memory in bytes (Linux's /proc/self/statm); 0 where it cannot be
 * read, which no bound stops. */
static long long resident(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return 0;
    long long size = 0, pages = 0;
    int read = fscanf(f, "%lld %lld", &size, &pages);
    fclose(f);
    long page = sysconf(_SC_PAGESIZE);
    return read == 2 && page > 0 ? pages * page : 0;
}

/* Checked every this many nodes: reading /proc costs a few microseconds. */
enum { MEMORY_CHECK = 4096 };

static int over(long long max_resident) { return max_resident >= 0 && resident() > max_resident; }

/* The bytes the next node or edge would add at once when its arrays have to grow (they
 * double: the old block and the new may both be held while it is copied), 0 when they
 * need not grow; `edge`: an edge, else a node. */
static size_t growth(const graph_object *g, int edge) {
    if (edge)
        return g->nedges + 1 > g->cap_edges ? 3 * (g->cap_edges ? g->cap_edges : 1024) * (sizeof *g->to + sizeof *g->line) : 0;
    size_t bytes = 0;
    if (g->n == g->cap) bytes += 3 * (g->cap ? g->cap : 4096) * (2 * g->klen + 1 + sizeof *g->first_edge + sizeof *g->degree);
    if ((g->n + 1) * 2 > g->slots) bytes += 3 * (g->slots ? g->slots : 8192) * sizeof *g->slot;
    return bytes;
}

/* Whether the growth the next node or edge needs keeps the process within `max_resident`. */
static int growth_fits(const graph_object *g, int edge, long long max_resident) {
    size_t bytes = max_resident < 0 ? 0 : growth(g, edge);
    return !bytes || resident() + (long long)bytes <= max_resident;
}

/* analysis.build: breadth first from the start, at most max_states nodes (-1: any), until
 * `seconds` have passed (negative: no limit) or the process holds more than `max_resident`
 * bytes (negative: no bound). 0, or -1 with a Python error set. */
static int build(graph_object *g, const uint8_t *start, long long max_states, double seconds, long long max_resident) {
    double deadline = seconds < 0 ? -1 : now() + seconds;
    uint8_t key[MAX_GRID_CELLS + 1];
    const char *failure = NULL;
    key_of(&g->ru, start, key);
    if (add_node(g, start, key, is_won(&g->ru, start)) == NO_NODE) goto memory;
    int full = max_states >= 0 && (long long)g->n >= max_states, capped = 0;
    g->stopped = NULL;
    for (size_t v = 0; v < g->n; v++) {
        if ((v & 255) == 0 && PyErr_CheckSignals() < 0) return -1;
        if (deadline >= 0 && now() > deadline) {
            g->stopped = "time_limit";
            break;
        }
        if ((v % MEMORY_CHECK) == MEMORY_CHECK - 1 && over(max_resident)) {
            g->stopped = "memory";
            break;
        }
        if (g->flags[v] & F_WON) {
            g->flags[v] |= F_EXPLORED;
            continue;
        }
        phase_walk *walk = &g->walk;
        if (walk_phase(walk, &g->ru, g->pos + v * g->klen, 0, &g->base, &failure) < 0) goto failed;
        g->flags[v] |= F_WALKED;
        int complete = 1;
        g->first_edge[v] = (uint32_t)g->nedges;
        prefetch_exits(g, walk);
        for (size_t i = 0; i < walk->nexits; i++) {
            phase_exit *x = &walk->exits[i];
            uint32_t child = find_hashed(g, x->key, x->hash);
            if (child == NO_NODE && full) {
                complete = 0;
                continue;
            }
            if ((child == NO_NODE && !growth_fits(g, 0, max_resident)) || !growth_fits(g, 1, max_resident)) {
                g->stopped = "memory"; /* this state stays unexplored, like those after it */
                g->degree[v] = (uint32_t)(g->nedges - g->first_edge[v]);
                return 0;
            }
            if (child == NO_NODE) {
                if (g->n >= MAX_NODES) {
                    failure = TOO_MANY_NODES;
                    goto failed;
                }
                uint8_t after[MAX_GRID_CELLS + 1];
                exit_position(&g->ru, g->pos + v * g->klen, x, after);
                child = add_node(g, after, x->key, is_won(&g->ru, after));
                if (child == NO_NODE) goto memory;
                full = max_states >= 0 && (long long)g->n >= max_states;
            }
            if (g->nedges >= UINT32_MAX - 1) {
                failure = "more edges than the compiled graph holds";
                goto failed;
            }
            if (grow((void **)&g->to, &g->cap_edges, g->nedges + 1, sizeof *g->to) < 0 ||
                grow((void **)&g->line, &g->cap_line, g->nedges + 1, sizeof *g->line) < 0)
                goto memory;
            g->to[g->nedges] = child;
            g->line[g->nedges++] = (uint8_t)x->line;
        }
        g->degree[v] = (uint32_t)(g->nedges - g->first_edge[v]);
        if (complete) g->flags[v] |= F_EXPLORED;
        else capped = 1;
    }
    /* A graph that reached max_states was cut by it, whatever stopped the edges among its
     * states later (but the memory, which is the more pressing to name). */
    if (capped && !(g->stopped && strcmp(g->stopped, "memory") == 0)) g->stopped = "max_states";
    return 0;
failed:
    if (failure) {
        PyErr_SetString(PyExc_OverflowError, failure);
        return -1;
    }
memory:
    PyErr_NoMemory();
    return -1;
}

/* ---- edges, the figures ---- */

typedef struct {
    const graph_object *g;
    uint32_t v;
    size_t i, end, x;
} edge_iter;

static edge_iter edges_of(const graph_object *g, uint32_t v) {
    return (edge_iter){g, v, g->first_edge[v], (size_t)g->first_edge[v] + g->degree[v], 0};
}

/* The next out-edge, in the order added: 1, or 0 when there is none left. */
static int next_edge(edge_iter *it, uint32_t *to, int *line) {
    const graph_object *g = it->g;
    if (it->i < it->end) {
        *to = g->to[it->i], *line = g->line[it->i];
        it->i++;
        return 1;
    }
    if (!(g->flags[it->v] & F_EXTRA)) return 0;
    while (it->x < g->nextra) {
        size_t k = it->x++;
        if (g->extra_from[k] == it->v) {
            *to = g->extra_to[k], *line = g->extra_line[k];
            return 1;
        }
    }
    return 0;
}

static int has_edge(const graph_object *g, uint32_t v, uint32_t w) {
    edge_iter it = edges_of(g, v);
    uint32_t to;
    int line;
    while (next_edge(&it, &to, &line))
        if (to == w) return 1;
    return 0;
}

typedef struct {
    big raise_r, raise_g;
} scratch;

/* dst += src in the fields [from, to] (SEQ is never raised), aligning the exponents. */
static int mass_add(mass *dst, const mass *src, uint64_t base, int from, int to, scratch *s) {
    if (!src->touched) return 0;
    int raise;
    if (mass_align(dst, src->e, base, &raise) < 0) return -1;
    for (int f = from; f <= to; f++) {
        if (f == SEQ || !raise) {
            if (big_add(&dst->v[f], &src->v[f]) < 0) return -1;
            continue;
        }
        if (big_copy(&s->raise_r, &src->v[f]) < 0 || big_mul_power(&s->raise_r, base, raise) < 0 ||
            big_add(&dst->v[f], &s->raise_r) < 0)
            return -1;
    }
    return 0;
}

/* A node's share `in` goes through a phase exit `x` (relative to the phase) into `dst`. */
static int pass_through(mass *dst, const mass *in, const phase_exit *exit, uint64_t base, int cut, scratch *s) {
    const mass *x = &exit->m;
    int raise;
    if (mass_align(dst, in->e + x->e, base, &raise) < 0 || big_mul_word_add(&dst->v[SEQ], &in->v[SEQ], exit->paths) < 0) return -1;
    const big *r = &x->v[R_LOW], *g = &x->v[G_LOW];
    if (raise) { /* the child has seen longer ways in: this one's shares catch up */
        if (big_copy(&s->raise_r, r) < 0 || big_mul_power(&s->raise_r, base, raise) < 0 || big_copy(&s->raise_g, g) < 0 ||
            big_mul_power(&s->raise_g, base, raise) < 0)
            return -1;
        r = &s->raise_r, g = &s->raise_g;
    }
    if (big_mul_add(&dst->v[R_LOW], &in->v[R_LOW], r) < 0 || big_mul_add(&dst->v[G_LOW], &in->v[G_LOW], g) < 0) return -1;
    if (cut && (big_mul_add(&dst->v[R_HIGH], &in->v[R_HIGH], r) < 0 || big_mul_add(&dst->v[G_HIGH], &in->v[G_HIGH], g) < 0))
        return -1;
    return 0;
}

/* Node v's shares `m` go through the exits of its phase (`walk`) into its children's. */
static int spread(graph_object *g, uint32_t v, const mass *m, const phase_walk *walk, mass **acc, uint64_t base, int cut, scratch *s,
                  uint32_t **kids_io, size_t *cap_kids) {
    /* An explored node's edges are its phase's exits, in order. */
    size_t nexits = walk->nexits;
    int whole = (g->flags[v] & F_EXPLORED) && nexits == g->degree[v];
    if (grow((void **)kids_io, cap_kids, nexits, sizeof **kids_io) < 0) return -1;
    uint32_t *kids = *kids_io;
    if (!whole) prefetch_exits(g, walk);
    for (size_t i = 0; i < nexits; i++) {
        const phase_exit *x = &walk->exits[i];
        uint32_t child = whole ? g->to[g->first_edge[v] + i] : find_hashed(g, x->key, x->hash);
        if (child != NO_NODE && !whole && !has_edge(g, v, child)) child = NO_NODE;
        kids[i] = child;
        if (child != NO_NODE) __builtin_prefetch(&acc[child]);
    }
    /* The children's shares are all over memory: ask for them before adding. */
    for (size_t i = 0; i < nexits; i++) {
        mass *to = kids[i] == NO_NODE ? NULL : acc[kids[i]];
        if (to) __builtin_prefetch(to), __builtin_prefetch((char *)to + 64);
    }
    for (size_t i = 0; i < nexits; i++) {
        mass *to = kids[i] == NO_NODE ? NULL : acc[kids[i]];
        if (to)
            for (int f = SEQ; f <= G_LOW; f++) __builtin_prefetch(to->v[f].w);
    }
    for (size_t i = 0; i < nexits; i++) {
        uint32_t child = kids[i];
        if (child == NO_NODE) continue;
        if (!acc[child] && !(acc[child] = calloc(1, sizeof(mass)))) return -1;
        if (pass_through(acc[child], m, &walk->exits[i], base, cut, s) < 0) return -1;
    }
    return 0;
}

static PyObject *big_bytes(const big *a) {
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)a->n * 8);
    if (!out) return NULL;
    uint8_t *b = (uint8_t *)PyBytes_AS_STRING(out);
    for (uint32_t i = 0; i < a->n; i++)
        for (int k = 0; k < 8; k++) b[8 * i + k] = (uint8_t)(a->w[i] >> (8 * k));
    return out;
}

static int cards_left(const graph_object *g, uint32_t v) {
    const uint8_t *p = g->pos + v * g->klen;
    int n = g->ru.total - p[g->ru.cells];
    for (int c = 0; c < g->ru.cells; c++) n += p[c] != GAP_CELL;
    return n;
}

/* analysis.figures, all but the critical decisions (Python finds those along the
 * shortest win): (base, exponent, sequences, random low, greedy low, random high,
 * greedy high (the odds' numerators over base ** exponent, little-endian bytes), won
 * states, dead ends, winning states, edges, can_win (a byte a node), shortest win's
 * nodes). */
static PyObject *figures_of(graph_object *g, double seconds, long long max_resident);
static int not_busy(const graph_object *g);

static PyObject *graph_figures(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"seconds", "max_resident", NULL};
    double seconds = -1;
    long long max_resident = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|dL", names, &seconds, &max_resident)) return NULL;
    if (isnan(seconds)) {
        PyErr_SetString(PyExc_ValueError, "seconds is a number, or negative for no limit; not NaN");
        return NULL;
    }
    graph_object *g = (graph_object *)self;
    if (not_busy(g) < 0) return NULL;
    g->busy = 1; /* Ctrl-C's check and the list of the shortest win's states may run Python code */
    PyObject *out = figures_of(g, seconds, max_resident);
    g->busy = 0;
    return out;
}

/* The figures; or, once `seconds` have passed (negative: no limit) or the process holds
 * more than `max_resident` bytes (negative: no bound), the limit's name: "time_limit" or
 * "memory". */
static PyObject *figures_of(graph_object *g, double seconds, long long max_resident) {
    double deadline = seconds < 0 ? -1 : now() + seconds;
    size_t n = g->n;
    const char *failure = NULL;
    uint32_t *order = NULL, *to_win = NULL, *kids = NULL;
    size_t cap_kids = 0;
    uint8_t *can_win = NULL;
    mass **acc = NULL, total = {0};
    scratch s = {0};
    PyObject *out = NULL;
    /* the arrays of a state each, made before the sum: they must fit too */
    size_t arrays = n * (2 * sizeof *order + sizeof *acc + sizeof *can_win);
    if (max_resident >= 0 && resident() + (long long)arrays > max_resident) return PyUnicode_FromString("memory");
    int cut = 0;
    for (size_t v = 0; v < n; v++) {
        if (!(g->flags[v] & F_EXPLORED)) cut = 1;
        /* a node added with a winning line: its phase was never walked for the base */
        if ((g->flags[v] & (F_EXTRA | F_WALKED | F_WON)) == F_EXTRA) {
            if (walk_phase(&g->walk, &g->ru, g->pos + v * g->klen, 0, &g->base, &failure) < 0) goto failed;
            g->flags[v] |= F_WALKED;
        }
    }
    uint64_t base = g->base;
    /* Every phase takes cards away, so most cards left first orders the edges. (Only a
     * start in the middle of a phase can consolidate without taking a card; the sort is
     * stable, so the start, state 0, still comes before its consolidated self.) */
    order = malloc((n ? n : 1) * sizeof *order);
    size_t first[MAX_DECK + 2] = {0};
    if (!order) goto memory;
    for (size_t v = 0; v < n; v++) first[MAX_DECK - cards_left(g, (uint32_t)v) + 1]++;
    for (int b = 1; b <= MAX_DECK + 1; b++) first[b] += first[b - 1];
    for (size_t v = 0; v < n; v++) order[first[MAX_DECK - cards_left(g, (uint32_t)v)]++] = (uint32_t)v;
    acc = calloc(n ? n : 1, sizeof *acc);
    if (!acc) goto memory;
    if (n) {
        acc[0] = calloc(1, sizeof(mass));
        if (!acc[0]) goto memory;
        acc[0]->touched = 1;
        for (int f = SEQ; f <= (cut ? G_HIGH : G_LOW); f++)
            if (big_set(&acc[0]->v[f], 1) < 0) goto memory;
    }
    for (size_t k = 0; k < n; k++) {
        if ((k & 4095) == 0 && PyErr_CheckSignals() < 0) goto done;
        if ((k & 255) == 255 && deadline >= 0 && now() > deadline) {
            out = PyUnicode_FromString("time_limit");
            goto done;
        }
        if ((k % MEMORY_CHECK) == MEMORY_CHECK - 1 && over(max_resident)) {
            out = PyUnicode_FromString("memory");
            goto done;
        }
        uint32_t v = order[k], w;
        mass *m = acc[v];
        if (!m) continue;
        int flags = g->flags[v], line;
        if (flags & F_WON) {
            if (mass_add(&total, m, base, SEQ, cut ? G_HIGH : G_LOW, &s) < 0) goto memory;
        } else {
            if (!(flags & F_EXPLORED)) { /* unexplored: counted as won for the high bounds */
                if (mass_add(&total, m, base, R_HIGH, G_HIGH, &s) < 0) goto memory;
                m->v[R_HIGH].n = m->v[G_HIGH].n = 0;
            }
            edge_iter it = edges_of(g, v);
            if (next_edge(&it, &w, &line)) {
                if (walk_phase(&g->walk, &g->ru, g->pos + v * g->klen, base, NULL, &failure) < 0) goto failed;
                if (spread(g, v, m, &g->walk, acc, base, cut, &s, &kids, &cap_kids) < 0) goto memory;
            }
        }
        mass_free(m);
        free(m);
        acc[v] = NULL;
    }
    /* Backwards: from where a win can still be reached, and in how few primitive moves. */
    to_win = malloc((n ? n : 1) * sizeof *to_win);
    can_win = calloc(n ? n : 1, 1);
    if (!to_win || !can_win) goto memory;
    long long won_states = 0, dead_ends = 0, winning_states = 0;
    for (size_t k = n; k-- > 0;) {
        uint32_t v = order[k], w;
        int line, degree = 0;
        to_win[v] = FAR;
        if (g->flags[v] & F_WON) {
            can_win[v] = 1, to_win[v] = 0;
            won_states++, winning_states++;
            continue;
        }
        edge_iter it = edges_of(g, v);
        while (next_edge(&it, &w, &line)) {
            degree++;
            can_win[v] |= can_win[w];
            if (to_win[w] != FAR && line + to_win[w] < to_win[v]) to_win[v] = line + to_win[w];
        }
        winning_states += can_win[v];
        dead_ends += !degree && (g->flags[v] & F_EXPLORED);
    }
    PyObject *path = PyList_New(0);
    if (!path) goto done;
    if (n && to_win[0] != FAR) {
        uint32_t v = 0;
        while (1) {
            PyObject *id = PyLong_FromUnsignedLong(v);
            if (!id || PyList_Append(path, id) < 0) {
                Py_XDECREF(id);
                goto path_failed;
            }
            Py_DECREF(id);
            if (!to_win[v]) break;
            edge_iter it = edges_of(g, v);
            uint32_t w;
            int line;
            while (next_edge(&it, &w, &line))
                if (to_win[w] != FAR && line + to_win[w] == to_win[v]) break;
            v = w;
        }
    }
    PyObject *nums[5] = {NULL};
    int ok = 1;
    for (int f = SEQ; f <= G_HIGH; f++) {
        int from = cut || f < R_HIGH ? f : f - 2; /* a whole graph: high bounds are the low ones */
        nums[f] = big_bytes(&total.v[from]);
        ok = ok && nums[f];
    }
    PyObject *marks = PyBytes_FromStringAndSize((const char *)can_win, (Py_ssize_t)n);
    if (ok && marks)
        out = Py_BuildValue("(KiNNNNNLLLnNN)", (unsigned long long)base, total.e, nums[0], nums[1], nums[2], nums[3], nums[4],
                            won_states, dead_ends, winning_states, (Py_ssize_t)(g->nedges + g->nextra), marks, path);
    else {
        for (int f = 0; f < 5; f++) Py_XDECREF(nums[f]);
        Py_XDECREF(marks);
        Py_DECREF(path);
    }
    goto done;
path_failed:
    Py_DECREF(path);
    goto done;
failed:
    if (failure) {
        PyErr_SetString(PyExc_OverflowError, failure);
        goto done;
    }
memory:
    PyErr_NoMemory();
done:
    if (acc)
        for (size_t v = 0; v < n; v++)
            if (acc[v]) mass_free(acc[v]), free(acc[v]);
    free(acc), free(order), free(to_win), free(can_win), free(kids);
    mass_free(&total);
    big_free(&s.raise_r), big_free(&s.raise_g);
    return out;
}

/* ---- the Python object ---- */

static void graph_dealloc(PyObject *self) {
    graph_object *g = (graph_object *)self;
    free(g->keys), free(g->pos), free(g->flags), free(g->first_edge), free(g->degree), free(g->slot);
    free(g->to), free(g->line), free(g->extra_from), free(g->extra_to), free(g->extra_line);
    walk_free(&g->walk);
    Py_TYPE(self)->tp_free(self);
}

static Py_ssize_t graph_len(PyObject *self) { return (Py_ssize_t)((graph_object *)self)->n; }

static int node_arg(graph_object *g, PyObject *arg, uint32_t *v) {
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (i == -1 && PyErr_Occurred()) return -1;
    if (i < 0 || (size_t)i >= g->n) {
        PyErr_SetString(PyExc_IndexError, "no such state in the graph");
        return -1;
    }
    *v = (uint32_t)i;
    return 0;
}

static PyObject *node_bytes(graph_object *g, const uint8_t *at) {
    return Py_BuildValue("(y#i)", (const char *)at, (Py_ssize_t)g->ru.cells, (int)at[g->ru.cells]);
}

static PyObject *graph_position(PyObject *self, PyObject *arg) {
    graph_object *g = (graph_object *)self;
    uint32_t v;
    if (node_arg(g, arg, &v) < 0) return NULL;
    return node_bytes(g, g->pos + v * g->klen);
}

static PyObject *graph_key(PyObject *self, PyObject *arg) {
    graph_object *g = (graph_object *)self;
    uint32_t v;
    if (node_arg(g, arg, &v) < 0) return NULL;
    return node_bytes(g, g->keys + v * g->klen);
}

static PyObject *flags_bytes(graph_object *g, int flag, int want) {
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)g->n);
    if (!out) return NULL;
    uint8_t *b = (uint8_t *)PyBytes_AS_STRING(out);
    for (size_t v = 0; v < g->n; v++) b[v] = ((g->flags[v] & flag) != 0) == want;
    return out;
}

static PyObject *graph_won(PyObject *self, PyObject *unused) {
    (void)unused;
    return flags_bytes((graph_object *)self, F_WON, 1);
}

static PyObject *graph_frontier(PyObject *self, PyObject *unused) {
    (void)unused;
    return flags_bytes((graph_object *)self, F_EXPLORED, 0);
}

static PyObject *graph_edge_count(PyObject *self, PyObject *unused) {
    (void)unused;
    graph_object *g = (graph_object *)self;
    return PyLong_FromSize_t(g->nedges + g->nextra);
}

static PyObject *graph_successors(PyObject *self, PyObject *arg) {
    graph_object *g = (graph_object *)self;
    uint32_t v, w;
    int line;
    if (node_arg(g, arg, &v) < 0) return NULL;
    PyObject *out = PyList_New(0);
    edge_iter it = edges_of(g, v);
    while (out && next_edge(&it, &w, &line)) {
        PyObject *id = PyLong_FromUnsignedLong(w);
        if (!id || PyList_Append(out, id) < 0) Py_CLEAR(out);
        Py_XDECREF(id);
    }
    return out;
}

/* The node with this key (the ranks on the grid, the stock), or None. */
static PyObject *graph_index(PyObject *self, PyObject *args) {
    graph_object *g = (graph_object *)self;
    Py_buffer ranks;
    int stock;
    if (!PyArg_ParseTuple(args, "y*i", &ranks, &stock)) return NULL;
    uint32_t v = NO_NODE;
    if (ranks.len == g->ru.cells && stock >= 0 && stock <= g->ru.total) {
        uint8_t key[MAX_GRID_CELLS + 1];
        memcpy(key, ranks.buf, (size_t)ranks.len);
        key[g->ru.cells] = (uint8_t)stock;
        v = find_node(g, key);
    }
    PyBuffer_Release(&ranks);
    if (v == NO_NODE) Py_RETURN_NONE;
    return PyLong_FromUnsignedLong(v);
}

/* Cells holding cards dealt (below the stock's top card), each once, or gaps. */
static int position_readable(const rules *ru, const uint8_t *cells, size_t len, int stock) {
    uint8_t seen[MAX_DECK] = {0};
    if (len != (size_t)ru->cells || stock < ru->cells || stock > ru->total) return 0;
    for (size_t c = 0; c < len; c++) {
        if (cells[c] == GAP_CELL) continue;
        if (cells[c] >= stock || seen[cells[c]]++) return 0;
    }
    return 1;
}

/* Add a position (deal indices, GAP_CELL for a gap) as a node left unexplored unless won. */
static int not_busy(const graph_object *g) {
    if (!g->busy) return 0;
    PyErr_SetString(PyExc_RuntimeError, "the graph is being built or summed up");
    return -1;
}

static PyObject *graph_add_node(PyObject *self, PyObject *args) {
    graph_object *g = (graph_object *)self;
    if (not_busy(g) < 0) return NULL;
    Py_buffer cells;
    int stock;
    if (!PyArg_ParseTuple(args, "y*i", &cells, &stock)) return NULL;
    uint8_t at[MAX_GRID_CELLS + 1], key[MAX_GRID_CELLS + 1];
    Py_ssize_t len = core_copy(&cells, at, MAX_GRID_CELLS);
    PyBuffer_Release(&cells);
    if (len < 0 || !position_readable(&g->ru, at, (size_t)len, stock)) {
        PyErr_SetString(PyExc_ValueError, "not a position of this deal");
        return NULL;
    }
    at[g->ru.cells] = (uint8_t)stock;
    key_of(&g->ru, at, key);
    if (find_node(g, key) != NO_NODE) {
        PyErr_SetString(PyExc_ValueError, "the graph holds that state already");
        return NULL;
    }
    if (g->n >= MAX_NODES) {
        PyErr_SetString(PyExc_OverflowError, TOO_MANY_NODES);
        return NULL;
    }
    int won = is_won(&g->ru, at);
    uint32_t v = add_node(g, at, key, won);
    if (v == NO_NODE) return PyErr_NoMemory();
    if (won) g->flags[v] |= F_EXPLORED;
    return PyLong_FromUnsignedLong(v);
}

static PyObject *graph_add_edge(PyObject *self, PyObject *args) {
    graph_object *g = (graph_object *)self;
    if (not_busy(g) < 0) return NULL;
    PyObject *from, *to;
    int line;
    uint32_t v, w;
    if (!PyArg_ParseTuple(args, "OOi", &from, &to, &line) || node_arg(g, from, &v) < 0 || node_arg(g, to, &w) < 0) return NULL;
    if (line < 1 || line > 255 || has_edge(g, v, w)) {
        PyErr_SetString(PyExc_ValueError, line < 1 || line > 255 ? "an edge's line has 1 to 255 moves" : "the graph has that edge");
        return NULL;
    }
    /* Every phase takes cards away (only the start, in the middle of a phase, may close its
       gaps without taking one): the figures walk the nodes in that order, and an edge back
       would make a cycle they cannot walk. */
    int before = cards_left(g, v), after = cards_left(g, w);
    if (!(after < before || (after == before && v == 0 && w != 0))) {
        PyErr_SetString(PyExc_ValueError, "an edge leads to a node with fewer cards left (or from the start to its consolidation)");
        return NULL;
    }
    if (grow((void **)&g->extra_from, &g->cap_extra_from, g->nextra + 1, sizeof *g->extra_from) < 0 ||
        grow((void **)&g->extra_to, &g->cap_extra_to, g->nextra + 1, sizeof *g->extra_to) < 0 ||
        grow((void **)&g->extra_line, &g->cap_extra_line, g->nextra + 1, sizeof *g->extra_line) < 0)
        return PyErr_NoMemory();
    g->extra_from[g->nextra] = v, g->extra_to[g->nextra] = w, g->extra_line[g->nextra] = (uint8_t)line;
    g->nextra++;
    g->flags[v] |= F_EXTRA;
    Py_RETURN_NONE;
}

static PyObject *graph_has_edge(PyObject *self, PyObject *args) {
    graph_object *g = (graph_object *)self;
    PyObject *from, *to;
    uint32_t v, w;
    if (!PyArg_ParseTuple(args, "OO", &from, &to) || node_arg(g, from, &v) < 0 || node_arg(g, to, &w) < 0) return NULL;
    return PyBool_FromLong(has_edge(g, v, w));
}

static PyObject *graph_stopped(PyObject *self, PyObject *unused) {
    (void)unused;
    const char *why = ((graph_object *)self)->stopped;
    return why ? PyUnicode_FromString(why) : Py_NewRef(Py_None);
}

static PyMethodDef graph_methods[] = {
    {"position", graph_position, METH_O, "A node's position: (deal index in each cell, 255 for a gap; the stock's top card)."},
    {"key", graph_key, METH_O, "A node's key: (the ranks on the grid, 0 for a gap; the stock's top card)."},
    {"index", graph_index, METH_VARARGS, "index(ranks, stock): the node with this key, or None."},
    {"won", graph_won, METH_NOARGS, "A byte a node: 1 where it is won."},
    {"frontier", graph_frontier, METH_NOARGS, "A byte a node: 1 where it was left unexplored."},
    {"edge_count", graph_edge_count, METH_NOARGS, "How many edges the graph has."},
    {"successors", graph_successors, METH_O, "A node's out-neighbours, in the order their edges were added."},
    {"add_node", graph_add_node, METH_VARARGS, "add_node(cells, stock): a new node, unexplored unless won; its number."},
    {"add_edge", graph_add_edge, METH_VARARGS, "add_edge(v, w, line): an edge whose exit's line has `line` moves."},
    {"has_edge", graph_has_edge, METH_VARARGS, "has_edge(v, w)"},
    {"figures", (PyCFunction)(void (*)(void))graph_figures, METH_VARARGS | METH_KEYWORDS,
     "figures(seconds=-1, max_resident=-1): the figures of wedlock.analysis, computed over the arrays (see graph.c)."},
    {"stopped", graph_stopped, METH_NOARGS, "What ended the build early: 'time_limit', 'memory', 'max_states', or None."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods graph_sequence = {.sq_length = graph_len};

PyTypeObject graph_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "wedlock._core.MonteCarloGraph",
    .tp_basicsize = sizeof(graph_object),
    .tp_dealloc = graph_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The state graph of a Monte Carlo deal, in arrays (made by graph_montecarlo).",
    .tp_methods = graph_methods,
    .tp_as_sequence = &graph_sequence,
};

PyObject *graph_montecarlo(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    static char *names[] = {"rank_of", "rows", "cols", "thirteens", "strict", "columns", "cells", "stock", "max_states", "seconds",
                            "max_resident", NULL};
    Py_buffer rank_of, cells;
    int rows, cols, thirteens, strict, columns, stock;
    long long max_states, max_resident = -1;
    double seconds;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*iipppy*iLd|L", names, &rank_of, &rows, &cols, &thirteens, &strict, &columns,
                                     &cells, &stock, &max_states, &seconds, &max_resident))
        return NULL;
    uint8_t deal[MAX_DECK], start[MAX_GRID_CELLS + 1];
    Py_ssize_t total = core_copy(&rank_of, deal, sizeof deal), len = core_copy(&cells, start, MAX_GRID_CELLS);
    PyBuffer_Release(&rank_of), PyBuffer_Release(&cells);
    int ok = rows >= 1 && cols >= 1 && rows <= MAX_GRID_CELLS && cols <= MAX_GRID_CELLS && rows * cols <= MAX_GRID_CELLS &&
             total >= rows * cols;
    for (Py_ssize_t i = 0; ok && i < total; i++) ok = deal[i] >= 1 && deal[i] <= 13;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "not a Monte Carlo deal the compiled graph can hold");
        return NULL;
    }
    if (isnan(seconds)) {
        PyErr_SetString(PyExc_ValueError, "seconds is a number, or negative for no limit; not NaN");
        return NULL;
    }
    graph_object *g = PyObject_New(graph_object, &graph_type);
    if (!g) return NULL;
    memset((char *)g + sizeof(PyObject), 0, sizeof *g - sizeof(PyObject));
    rules *ru = &g->ru;
    ru->rows = rows, ru->cols = cols, ru->cells = rows * cols, ru->total = (int)total;
    ru->thirteens = thirteens, ru->strict = strict, ru->columns = columns;
    memcpy(ru->rank_of, deal, (size_t)total);
    for (int c = 0; c < ru->cells; c++) {
        int r = c / cols, col = c % cols;
        static const int steps[4][2] = {{0, 1}, {1, -1}, {1, 0}, {1, 1}};
        for (int k = 0; k < 4; k++) {
            int rr = r + steps[k][0], cc = col + steps[k][1];
            if (rr >= 0 && rr < rows && cc >= 0 && cc < cols) ru->neighbours[c][ru->nneighbours[c]++] = (uint8_t)(rr * cols + cc);
        }
    }
    g->klen = (size_t)ru->cells + 1;
    g->base = 1;

    if (len < 0 || !position_readable(ru, start, (size_t)len, stock)) {
        PyErr_SetString(PyExc_ValueError, "not a position of this deal");
        Py_DECREF(g);
        return NULL;
    }
    start[ru->cells] = (uint8_t)stock;
    g->busy = 1;
    int rc = build(g, start, max_states, seconds, max_resident);
    g->busy = 0;
    if (rc < 0) Py_CLEAR(g);
    return (PyObject *)g;
}
