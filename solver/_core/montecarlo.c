/* Monte Carlo's sliding rule sets as a compiled space: the twin of SequenceSpace in
 * wedlock/montecarlo/spaces.py (read there why one edge a phase is exact).
 *
 * A state is the rank sequence of the grid read in order followed by the stock: a byte
 * holding the number of cards, then the ranks two to a byte, low nibble first. Suits never
 * matter, so the state is its own key, as the Python space's key is its rank sequence. A
 * step is the cell pairs the phase empties, as the Python space gives them: a byte holding
 * their number, then two cells a pair ((a, a) for a lone king). Children come in the Python
 * space's order: `_unsplittable_phases` for the rules that consolidate whenever they can,
 * `_phases` for strict rules, both sorted most cards first, then earliest cell. */
#include "core.h"

#include <string.h>

enum { MAX_CELLS = 32, MAX_CARDS = 104, MAX_MOVES = 128, MAX_GROUPS = 64 };

typedef struct {
    uint64_t w[2];
} bits128;

static inline int bits_any(bits128 a, bits128 b) { return (a.w[0] & b.w[0]) || (a.w[1] & b.w[1]); }
static inline void bits_set(bits128 *a, int i) { a->w[i >> 6] |= 1ULL << (i & 63); }

/* A phase: the cells it empties (as a mask), how many, and its pairs (indices into the
 * expansion's move list, kept in `pool`). */
typedef struct {
    uint32_t mask;
    int cards, first, count;
} phase;

typedef struct {
    space base;
    int rows, cols, cells, thirteens, strict;
    int offsets[4];
    uint8_t forward[4][MAX_CELLS]; /* forward[k][a]: cell a touches a + offsets[k] */
    uint8_t touching[MAX_CELLS][MAX_CELLS];
    /* scratch for one expansion */
    phase *phases;
    size_t nphases, cap_phases;
    uint8_t *pool;
    size_t npool, cap_pool;
    phase *sorted;
    size_t cap_sorted;
} slide_space;

/* ---- one expansion's removals ---- */

typedef struct {
    int n; /* moves */
    uint8_t a[MAX_MOVES], b[MAX_MOVES];
    int ngroups;
    int group_first[MAX_GROUPS], group_count[MAX_GROUPS];
} removals;

/* `_edges`: the removals in the first `on_grid` cells, grouped by rank group in the order
 * each group first turns up, listed group after group (as `_unsplittable_phases` reads
 * them). */
static void find_removals(const slide_space *sp, const uint8_t *ranks, int on_grid, removals *out) {
    uint8_t ga[MAX_GROUPS][MAX_MOVES], gb[MAX_GROUPS][MAX_MOVES];
    int count[MAX_GROUPS], slot_of[14 + MAX_CELLS], ngroups = 0;
    for (int i = 0; i < 14 + MAX_CELLS; i++) slot_of[i] = -1;
    if (sp->thirteens)
        for (int a = 0; a < on_grid; a++)
            if (ranks[a] == 13) {
                int g = ngroups++;
                slot_of[14 + a] = g, count[g] = 1, ga[g][0] = gb[g][0] = (uint8_t)a;
            }
    for (int k = 0; k < 4; k++) {
        int d = sp->offsets[k];
        if (d >= on_grid) continue;
        for (int a = 0; a + d < on_grid; a++) {
            if (!sp->forward[k][a]) continue;
            int ra = ranks[a], rb = ranks[a + d];
            if (sp->thirteens ? ra + rb != 13 : ra != rb) continue;
            int key = sp->thirteens ? (ra < 13 - ra ? ra : 13 - ra) : ra;
            int g = slot_of[key];
            if (g < 0) g = slot_of[key] = ngroups++, count[g] = 0;
            ga[g][count[g]] = (uint8_t)a, gb[g][count[g]] = (uint8_t)(a + d), count[g]++;
        }
    }
    out->n = 0, out->ngroups = ngroups;
    for (int g = 0; g < ngroups; g++) {
        out->group_first[g] = out->n, out->group_count[g] = count[g];
        for (int i = 0; i < count[g]; i++) out->a[out->n] = ga[g][i], out->b[out->n] = gb[g][i], out->n++;
    }
}

/* ---- scratch lists ---- */

static int add_phase(slide_space *sp, uint32_t mask, const uint8_t *moves, int count) {
    if (sp->nphases == sp->cap_phases) {
        size_t cap = sp->cap_phases ? 2 * sp->cap_phases : 64;
        phase *p = PyMem_RawRealloc(sp->phases, cap * sizeof *p);
        if (!p) return -1;
        sp->phases = p, sp->cap_phases = cap;
    }
    if (sp->npool + (size_t)count > sp->cap_pool) {
        size_t cap = sp->cap_pool ? 2 * sp->cap_pool : 256;
        while (cap < sp->npool + (size_t)count) cap *= 2;
        uint8_t *p = PyMem_RawRealloc(sp->pool, cap);
        if (!p) return -1;
        sp->pool = p, sp->cap_pool = cap;
    }
    phase *ph = &sp->phases[sp->nphases++];
    ph->mask = mask, ph->cards = __builtin_popcount(mask), ph->first = (int)sp->npool, ph->count = count;
    memcpy(sp->pool + sp->npool, moves, (size_t)count);
    sp->npool += (size_t)count;
    return 0;
}

static inline uint32_t pair_mask(const removals *r, int m) { return (1u << r->a[m]) | (1u << r->b[m]); }

/* ---- `_unsplittable_phases` ---- */

typedef struct {
    slide_space *sp;
    const removals *r;
    const uint8_t *breakers;
    int nbreakers;
    const bits128 *breaks;
    uint8_t chosen[MAX_MOVES];
    bits128 chosen_set;
} breaker_walk;

static int walk_breakers(breaker_walk *w, int i, int n, uint32_t used) {
    if (i == w->nbreakers) {
        if (n < 2) return 0;
        for (int k = 0; k < n; k++)
            if (!bits_any(w->breaks[w->chosen[k]], w->chosen_set)) return 0;
        uint32_t mask = 0;
        for (int k = 0; k < n; k++) mask |= pair_mask(w->r, w->chosen[k]);
        return add_phase(w->sp, mask, w->chosen, n);
    }
    if (walk_breakers(w, i + 1, n, used) < 0) return -1;
    int m = w->breakers[i];
    uint32_t cells = pair_mask(w->r, m);
    if (used & cells) return 0;
    bits128 saved = w->chosen_set;
    w->chosen[n] = (uint8_t)m;
    bits_set(&w->chosen_set, m);
    int rc = walk_breakers(w, i + 1, n + 1, used | cells);
    w->chosen_set = saved;
    return rc;
}

static int unsplittable_phases(slide_space *sp, const removals *r) {
    bits128 breaks[MAX_MOVES];
    memset(breaks, 0, sizeof breaks);
    uint8_t breakers[MAX_MOVES];
    int nbreakers = 0;
    for (int x = 0; x < r->n; x++) {
        int p = r->a[x], q = r->b[x];
        for (int y = 0; y < r->n; y++) {
            int a = r->a[y], b = r->b[y];
            if (a == b || x == y || a == p || a == q || b == p || b == q) continue;
            int na = a - (a > p), nb = b - (b > p);
            if (p != q) na -= (a > q), nb -= (b > q);
            if (!sp->touching[na][nb]) bits_set(&breaks[x], y);
        }
        if (breaks[x].w[0] || breaks[x].w[1]) breakers[nbreakers++] = (uint8_t)x;
        uint8_t one = (uint8_t)x;
        if (add_phase(sp, pair_mask(r, x), &one, 1) < 0) return -1;
    }
    if (nbreakers < 2) return 0;
    /* sorted by their cells, as Python sorts the (a, b) tuples */
    for (int i = 1; i < nbreakers; i++)
        for (int j = i; j > 0; j--) {
            int u = breakers[j - 1], v = breakers[j];
            if (r->a[u] < r->a[v] || (r->a[u] == r->a[v] && r->b[u] <= r->b[v])) break;
            breakers[j - 1] = (uint8_t)v, breakers[j] = (uint8_t)u;
        }
    breaker_walk w = {.sp = sp, .r = r, .breakers = breakers, .nbreakers = nbreakers, .breaks = breaks};
    return walk_breakers(&w, 0, 0, 0);
}

/* ---- `_phases` under strict rules: every combination of one maximal matching a group ---- */

enum { MAX_MATCHINGS = 64 }; /* a rank's four cards have at most 10 */

typedef struct {
    uint32_t used[MAX_MATCHINGS];
    uint8_t chosen[MAX_MATCHINGS][MAX_CELLS / 2];
    int size[MAX_MATCHINGS];
    int n, overflow;
} matchings;

static void walk_matchings(const removals *r, int first, int count, int i, uint32_t used, uint8_t *chosen, int n, matchings *out) {
    if (i == count) {
        for (int k = 0; k < out->n; k++)
            if (out->used[k] == used) return; /* the first matching found for these cells stays */
        if (out->n == MAX_MATCHINGS) {
            out->overflow = 1;
            return;
        }
        out->used[out->n] = used, out->size[out->n] = n;
        memcpy(out->chosen[out->n], chosen, (size_t)n);
        out->n++;
        return;
    }
    walk_matchings(r, first, count, i + 1, used, chosen, n, out);
    uint32_t m = pair_mask(r, first + i);
    if (!(used & m)) {
        chosen[n] = (uint8_t)(first + i);
        walk_matchings(r, first, count, i + 1, used | m, chosen, n + 1, out);
    }
}

static int strict_phases(slide_space *sp, const removals *r) {
    int ng = r->ngroups;
    if (!ng) return 0;
    matchings *options = PyMem_RawMalloc((size_t)ng * sizeof *options);
    if (!options) return -1;
    int rc = 0;
    for (int g = 0; g < ng; g++) {
        matchings all;
        all.n = 0, all.overflow = 0;
        uint8_t chosen[MAX_CELLS / 2];
        walk_matchings(r, r->group_first[g], r->group_count[g], 0, 0, chosen, 0, &all);
        if (all.overflow) {
            PyErr_SetString(PyExc_RuntimeError, "too many matchings of one rank for the compiled core");
            rc = -1;
            goto done;
        }
        options[g].n = 0;
        for (int k = 0; k < all.n; k++) {
            int maximal = 1;
            for (int e = 0; e < r->group_count[g]; e++)
                if (!(all.used[k] & pair_mask(r, r->group_first[g] + e))) maximal = 0;
            if (!maximal) continue;
            int j = options[g].n++;
            options[g].used[j] = all.used[k], options[g].size[j] = all.size[k];
            memcpy(options[g].chosen[j], all.chosen[k], (size_t)all.size[k]);
        }
        if (!options[g].n) goto done; /* cannot happen: a group has at least one edge */
    }
    int pick[MAX_GROUPS] = {0};
    for (;;) {
        uint32_t mask = 0;
        uint8_t moves[MAX_CELLS];
        int n = 0;
        for (int g = 0; g < ng; g++) {
            mask |= options[g].used[pick[g]];
            memcpy(moves + n, options[g].chosen[pick[g]], (size_t)options[g].size[pick[g]]);
            n += options[g].size[pick[g]];
        }
        if (mask && add_phase(sp, mask, moves, n) < 0) {
            rc = -1;
            break;
        }
        int g = ng - 1; /* itertools.product: the last group turns fastest */
        while (g >= 0 && ++pick[g] == options[g].n) pick[g--] = 0;
        if (g < 0) break;
    }
done:
    PyMem_RawFree(options);
    return rc;
}

/* ---- the space ---- */

static void unpack(const uint8_t *state, uint8_t *ranks, int *count) {
    int n = state[0];
    for (int i = 0; i < n; i++) ranks[i] = i & 1 ? state[1 + i / 2] >> 4 : state[1 + i / 2] & 15;
    *count = n;
}

int slide_state(const uint8_t *ranks, size_t count, uint8_t *out, size_t *out_len) {
    if (count > MAX_CARDS) return -1;
    out[0] = (uint8_t)count;
    memset(out + 1, 0, (count + 1) / 2);
    for (size_t i = 0; i < count; i++) {
        if (ranks[i] < 1 || ranks[i] > 13) return -1;
        out[1 + i / 2] |= (uint8_t)(i & 1 ? ranks[i] << 4 : ranks[i]);
    }
    *out_len = 1 + (count + 1) / 2;
    return 0;
}

static int slide_expand(space *base, const uint8_t *state, size_t len, children *out) {
    (void)len;
    slide_space *sp = (slide_space *)base;
    uint8_t ranks[MAX_CARDS];
    int n;
    unpack(state, ranks, &n);
    int on_grid = n < sp->cells ? n : sp->cells;
    removals r;
    find_removals(sp, ranks, on_grid, &r);
    sp->nphases = 0, sp->npool = 0;
    if (r.n == 0) return 0;
    if ((sp->strict ? strict_phases(sp, &r) : unsplittable_phases(sp, &r)) < 0) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        return -1;
    }
    /* stable sort: most cards first, then the earliest cell emptied (insertion sort: the
     * lists are short) */
    if (sp->nphases > sp->cap_sorted) {
        phase *p = PyMem_RawRealloc(sp->sorted, sp->nphases * sizeof *p);
        if (!p) {
            PyErr_NoMemory();
            return -1;
        }
        sp->sorted = p, sp->cap_sorted = sp->nphases;
    }
    size_t at = sp->nphases;
    for (size_t i = 0; i < at; i++) {
        phase ph = sp->phases[i];
        int key = (MAX_CELLS - ph.cards) * MAX_CELLS + __builtin_ctz(ph.mask);
        size_t j = i;
        while (j > 0 && (MAX_CELLS - sp->sorted[j - 1].cards) * MAX_CELLS + __builtin_ctz(sp->sorted[j - 1].mask) > key) {
            sp->sorted[j] = sp->sorted[j - 1];
            j--;
        }
        sp->sorted[j] = ph;
    }
    for (size_t i = 0; i < at; i++) {
        const phase *ph = &sp->sorted[i];
        uint8_t left[MAX_CARDS], packed[1 + MAX_CARDS / 2], step[1 + MAX_CELLS];
        int k = 0;
        for (int c = 0; c < n; c++)
            if (c >= 32 || !(ph->mask >> c & 1)) left[k++] = ranks[c];
        size_t plen;
        slide_state(left, (size_t)k, packed, &plen);
        step[0] = (uint8_t)ph->count;
        for (int m = 0; m < ph->count; m++) {
            int move = sp->pool[ph->first + m];
            step[1 + 2 * m] = r.a[move], step[2 + 2 * m] = r.b[move];
        }
        if (strings_add(&out->states, packed, plen) < 0 || strings_add(&out->steps, step, 1 + 2 * (size_t)ph->count) < 0) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

static int slide_is_won(space *base, const uint8_t *state, size_t len) {
    (void)base, (void)len;
    return state[0] == 0;
}

static PyObject *slide_step(space *base, const uint8_t *step, size_t len) {
    (void)base, (void)len;
    PyObject *pairs = PyTuple_New(step[0]);
    if (!pairs) return NULL;
    for (int m = 0; m < step[0]; m++) {
        PyObject *pair = Py_BuildValue("(ii)", step[1 + 2 * m], step[2 + 2 * m]);
        if (!pair) {
            Py_DECREF(pairs);
            return NULL;
        }
        PyTuple_SET_ITEM(pairs, m, pair);
    }
    return pairs;
}

static void slide_release(space *base) {
    slide_space *sp = (slide_space *)base;
    PyMem_RawFree(sp->phases);
    PyMem_RawFree(sp->pool);
    PyMem_RawFree(sp->sorted);
    PyMem_RawFree(sp);
}

space *slide_space_new(int rows, int cols, int thirteens, int strict) {
    if (rows < 1 || cols < 2 || rows * cols > MAX_CELLS - 1) return NULL;
    slide_space *sp = PyMem_RawCalloc(1, sizeof *sp);
    if (!sp) return NULL;
    sp->base.expand = slide_expand;
    sp->base.is_won = slide_is_won;
    sp->base.step_object = slide_step;
    sp->base.release = slide_release;
    sp->base.acyclic = 1; /* every phase removes cards */
    sp->rows = rows, sp->cols = cols, sp->cells = rows * cols;
    sp->thirteens = thirteens, sp->strict = strict;
    /* the four forward directions of MonteCarloRules.touching_offsets, in its order */
    static const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, -1, 0, 1};
    for (int k = 0; k < 4; k++) {
        sp->offsets[k] = dr[k] * cols + dc[k];
        for (int a = 0; a < sp->cells; a++) {
            int r = a / cols + dr[k], c = a % cols + dc[k];
            if (r < rows && c >= 0 && c < cols) {
                sp->forward[k][a] = 1;
                sp->touching[a][r * cols + c] = sp->touching[r * cols + c][a] = 1;
            }
        }
    }
    return &sp->base;
}
