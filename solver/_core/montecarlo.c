/* Monte Carlo's sliding rule sets as a compiled space: the twin of SequenceSpace in
 * wedlock/games/montecarlo/spaces.py (read there why one edge a phase is exact).
 *
 * A state is the rank sequence of the grid read in order followed by the stock: a byte
 * holding the number of cards, then the ranks two to a byte, low nibble first. Suits never
 * matter, so the state is its own key, as the Python space's key is its rank sequence. A
 * step is the cell pairs the phase empties, as the Python space gives them: a byte holding
 * their number, then two cells a pair ((a, a) for a lone king). Children come in the Python
 * space's order: `_unsplittable_phases` for the rules that consolidate whenever they can,
 * `_phases` for strict rules, both sorted most cards first, then earliest cell. */
#include "core.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_CELLS = 32, MAX_CARDS = 104, MAX_MOVES = 128, MAX_GROUPS = 64, MAX_COLS = 8, MAX_ROWS = 8 };
enum { MAX_GRID = 25 }; /* cells: so that a grid's removals stay under MAX_MOVES */

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
    struct matchings *options; /* `matching_phases`: each group's matchings, made on first use */
    /* Weddings only (`column_space_new`) */
    int total;
    uint8_t rank_list[MAX_CARDS];
    uint8_t spares[MAX_CARDS + 1][14]; /* spares[k][rank]: that rank's cards in the stock from deal index k */
    uint8_t root[1 + MAX_COLS + MAX_CELLS];
    size_t root_len;
    int root_dead;
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
            if (!ra || !rb) continue; /* a gap (Weddings) */
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

/* ---- `_phases`: every combination of one matching a group (maximal ones only under
 * strict rules) ---- */

enum { MAX_MATCHINGS = 64 }; /* a rank's four cards have at most 10 */

typedef struct matchings {
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

static int matching_phases(slide_space *sp, const removals *r, int maximal_only) {
    int ng = r->ngroups;
    if (!ng) return 0;
    if (!sp->options && !(sp->options = PyMem_RawMalloc(MAX_GROUPS * sizeof *sp->options))) return -1;
    matchings *options = sp->options;
    for (int g = 0; g < ng; g++) {
        matchings *o = &options[g];
        o->n = 0, o->overflow = 0;
        uint8_t chosen[MAX_CELLS / 2];
        walk_matchings(r, r->group_first[g], r->group_count[g], 0, 0, chosen, 0, o);
        if (o->overflow) {
            sp->base.failure = "too many matchings of one rank for the compiled core";
            return -1;
        }
        int kept = 0;
        for (int k = 0; k < o->n; k++) {
            int maximal = 1;
            for (int e = 0; maximal_only && e < r->group_count[g]; e++)
                if (!(o->used[k] & pair_mask(r, r->group_first[g] + e))) maximal = 0;
            if (!maximal) continue;
            o->used[kept] = o->used[k], o->size[kept] = o->size[k];
            memmove(o->chosen[kept], o->chosen[k], (size_t)o->size[k]);
            kept++;
        }
        o->n = kept;
        if (!kept) return 0; /* cannot happen: a group has at least one edge */
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
        if (mask && add_phase(sp, mask, moves, n) < 0) return -1;
        int g = ng - 1; /* itertools.product: the last group turns fastest */
        while (g >= 0 && ++pick[g] == options[g].n) pick[g--] = 0;
        if (g < 0) return 0;
    }
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
    int copies[14] = {0};
    for (size_t i = 0; i < count; i++) {
        if (ranks[i] < 1 || ranks[i] > 13 || ++copies[ranks[i]] > 8) return -1; /* two decks at most */
        out[1 + i / 2] |= (uint8_t)(i & 1 ? ranks[i] << 4 : ranks[i]);
    }
    *out_len = 1 + (count + 1) / 2;
    return 0;
}

/* The phases found, in `sorted`: most cards first, then the earliest cell emptied, ties in
 * the order found (Python's stable sort; an insertion sort, as the lists are short). */
static int sort_phases(slide_space *sp, size_t *count) {
    if (sp->nphases > sp->cap_sorted) {
        phase *p = PyMem_RawRealloc(sp->sorted, sp->nphases * sizeof *p);
        if (!p) return -1;
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
    *count = at;
    return 0;
}

/* A child of a phase: its state and, as the Python space gives it, the phase's cell pairs. */
static int add_child(const slide_space *sp, const removals *r, const phase *ph, const uint8_t *state, size_t len, children *out) {
    uint8_t step[1 + MAX_CELLS];
    step[0] = (uint8_t)ph->count;
    for (int m = 0; m < ph->count; m++) {
        int move = sp->pool[ph->first + m];
        step[1 + 2 * m] = r->a[move], step[2 + 2 * m] = r->b[move];
    }
    if (strings_add(&out->states, state, len) < 0 || strings_add(&out->steps, step, 1 + 2 * (size_t)ph->count) < 0) return -1;
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
    if ((sp->strict ? matching_phases(sp, &r, 1) : unsplittable_phases(sp, &r)) < 0) return -1;
    size_t at;
    if (sort_phases(sp, &at) < 0) return -1;
    for (size_t i = 0; i < at; i++) {
        const phase *ph = &sp->sorted[i];
        uint8_t left[MAX_CARDS], packed[1 + MAX_CARDS / 2];
        int k = 0;
        for (int c = 0; c < n; c++)
            if (c >= 32 || !(ph->mask >> c & 1)) left[k++] = ranks[c];
        size_t plen;
        slide_state(left, (size_t)k, packed, &plen);
        if (add_child(sp, &r, ph, packed, plen, out) < 0) return -1;
    }
    return 0;
}

/* ---- Weddings: ColumnSpace ----
 *
 * A state: the stock's next deal index, each column's height, then each column's ranks
 * from the top down. Dead positions are never offered, by the tests of ColumnSpace
 * (`_unmatched` for the ranks a phase moves, `_stuck` for every child, both checks on the
 * start), here under the same names. */

typedef struct {
    int stock;
    int len[MAX_COLS];
    uint8_t col[MAX_COLS][MAX_ROWS];
} columns;

static void read_columns(const slide_space *sp, const uint8_t *s, columns *out) {
    out->stock = s[0];
    const uint8_t *r = s + 1 + sp->cols;
    for (int c = 0; c < sp->cols; c++) {
        out->len[c] = s[1 + c];
        memcpy(out->col[c], r, (size_t)out->len[c]);
        r += out->len[c];
    }
}

static size_t write_columns(const slide_space *sp, const columns *in, uint8_t *s) {
    s[0] = (uint8_t)in->stock;
    uint8_t *r = s + 1 + sp->cols;
    for (int c = 0; c < sp->cols; c++) {
        s[1 + c] = (uint8_t)in->len[c];
        memcpy(r, in->col[c], (size_t)in->len[c]);
        r += in->len[c];
    }
    return (size_t)(r - s);
}

/* `_column_matching`: the most disjoint pairs among cards in these columns, at most one apart. */
static int column_matching(const int *cols, int n) {
    if (n < 2) return 0;
    int rest[MAX_CELLS];
    memcpy(rest, cols + 1, (size_t)(n - 1) * sizeof *rest);
    int best = column_matching(rest, n - 1);
    for (int i = 0; i < n - 1; i++) {
        if (abs(cols[0] - cols[1 + i]) > 1) continue;
        int k = 0;
        for (int j = 0; j < n - 1; j++)
            if (j != i) rest[k++] = cols[1 + j];
        int m = 1 + column_matching(rest, n - 2);
        if (m > best) best = m;
    }
    return best;
}

/* `_unmatched`: how many of a rank's cards (counted by column, 3 bits a column) no pairing
 * by columns can match. */
static int unmatched(uint32_t counts) {
    int cols[MAX_CELLS], n = 0;
    for (int c = 0; c < 8; c++)
        for (uint32_t k = 0; k < (counts >> 3 * c & 7); k++) cols[n++] = c;
    return n - 2 * column_matching(cols, n);
}

/* A route of `_routes`: a grid pair (kind 0) or a card allowed a stock partner (kind 1). */
typedef struct {
    int kind, ci, ri, cj, rj, reach;
    uint32_t bit_i, above_i, bit_j, above_j, below;
} route;

enum { MAX_RANK_CARDS = 8, MAX_PAIRINGS = 256, MAX_ROUTES = 512 };

typedef struct {
    uint64_t together[MAX_PAIRINGS]; /* bit 8a + b: cards a < b paired */
    uint32_t with_stock[MAX_PAIRINGS];
    int n, overflow;
} pairings;

/* `_pairings`: every way a rank's grid cards (in these columns) may be paired off. */
static void extend_pairings(const int *cols, const int *left, int nleft, int spare, uint64_t together, uint32_t with_stock,
                            pairings *out) {
    if (!nleft) {
        if (spare % 2) return;
        for (int k = 0; k < out->n; k++)
            if (out->together[k] == together && out->with_stock[k] == with_stock) return;
        if (out->n == MAX_PAIRINGS) {
            out->overflow = 1;
            return;
        }
        out->together[out->n] = together, out->with_stock[out->n] = with_stock, out->n++;
        return;
    }
    int a = left[0], rest[MAX_RANK_CARDS];
    if (spare) extend_pairings(cols, left + 1, nleft - 1, spare - 1, together, with_stock | 1u << a, out);
    for (int k = 1; k < nleft; k++) {
        int b = left[k];
        if (abs(cols[a] - cols[b]) > 1) continue;
        int m = 0;
        for (int j = 1; j < nleft; j++)
            if (j != k) rest[m++] = left[j];
        extend_pairings(cols, rest, m, spare, together | 1ULL << (8 * a + b), with_stock, out);
    }
}

/* One rank's routes, as `_routes` lists them: its grid pairs sorted, then its stock routes
 * sorted; each pairing as a mask over those routes (pairs first). */
typedef struct {
    int first, npairs, nstock, npairings;
    uint32_t pairing[MAX_PAIRINGS];
} rank_routes;

/* 1 when the rank can be paired off (its routes added to `all`), 0 when it cannot, -1 when
 * the core cannot hold it. */
static int find_routes(const int *cells_c, const int *cells_r, int n, int spare, int bottom, route *all, int *nall, rank_routes *out) {
    if (n > MAX_RANK_CARDS) return -1;
    pairings found;
    found.n = 0, found.overflow = 0;
    int left[MAX_RANK_CARDS];
    for (int i = 0; i < n; i++) left[i] = i;
    extend_pairings(cells_c, left, n, spare, 0, 0, &found);
    if (found.overflow) return -1;
    if (!found.n) return 0;
    uint64_t any_together = 0;
    uint32_t any_stock = 0;
    for (int k = 0; k < found.n; k++) any_together |= found.together[k], any_stock |= found.with_stock[k];
    int local_of_pair[64], local_of_stock[MAX_RANK_CARDS];
    out->first = *nall, out->npairs = 0, out->nstock = 0, out->npairings = found.n;
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            if (!(any_together >> (8 * a + b) & 1)) continue;
            if (*nall == MAX_ROUTES) return -1;
            route *rt = &all[(*nall)++];
            rt->kind = 0, rt->ci = cells_c[a], rt->ri = cells_r[a], rt->cj = cells_c[b], rt->rj = cells_r[b];
            rt->bit_i = 1u << rt->ri, rt->above_i = (1u << rt->ri) - 1, rt->bit_j = 1u << rt->rj, rt->above_j = (1u << rt->rj) - 1;
            local_of_pair[8 * a + b] = out->npairs++;
        }
    for (int a = 0; a < n; a++) {
        if (!(any_stock >> a & 1)) continue;
        if (*nall == MAX_ROUTES) return -1;
        route *rt = &all[(*nall)++];
        int r = cells_r[a];
        rt->kind = 1, rt->ci = cells_c[a], rt->ri = r, rt->bit_i = 1u << r;
        rt->reach = r + 1 < bottom ? r + 1 : bottom;
        rt->below = r < bottom ? ~((2u << r) - 1) : 0;
        local_of_stock[a] = out->npairs + out->nstock++;
    }
    for (int k = 0; k < found.n; k++) {
        uint32_t mask = 0;
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++)
                if (found.together[k] >> (8 * a + b) & 1) mask |= 1u << local_of_pair[8 * a + b];
            if (found.with_stock[k] >> a & 1) mask |= 1u << local_of_stock[a];
        }
        out->pairing[k] = mask;
    }
    return 1;
}

/* `_free_all`: whether `free` grows to every card, given these routes (indices into `all`,
 * pairs and stock routes apart); `fired` (if given) marks the routes that freed a card. */
static int free_all(const slide_space *sp, const uint32_t *full, const route *all, const int *pairs_in, int np, const int *stock_in,
                    int ns, uint8_t *fired) {
    int cols = sp->cols;
    uint32_t free_[MAX_COLS] = {0};
    int pairs[MAX_ROUTES], stock[MAX_ROUTES];
    memcpy(pairs, pairs_in, (size_t)np * sizeof *pairs);
    memcpy(stock, stock_in, (size_t)ns * sizeof *stock);
    int changed = 1;
    while (changed) {
        changed = 0;
        int still = 0;
        for (int i = 0; i < ns; i++) {
            const route *e = &all[stock[i]];
            int c = e->ci;
            if ((c > 0 && __builtin_popcount(full[c - 1] & ~free_[c - 1]) <= e->reach) ||
                (c + 1 < cols && __builtin_popcount(full[c + 1] & ~free_[c + 1]) <= e->reach) ||
                (e->below && !(full[c] & e->below & ~free_[c]))) {
                free_[c] |= e->bit_i;
                changed = 1;
                if (fired) fired[stock[i]] = 1;
            } else
                stock[still++] = stock[i];
        }
        ns = still;
        int waiting = 0;
        for (int i = 0; i < np; i++) {
            const route *e = &all[pairs[i]];
            if ((free_[e->ci] & e->bit_i) && (free_[e->cj] & e->bit_j)) continue;
            int can_touch;
            if (e->ci == e->cj) {
                uint32_t between = e->above_j ^ e->above_i ^ e->bit_i;
                can_touch = (free_[e->ci] & between) == between;
            } else
                can_touch = e->ri - __builtin_popcount(free_[e->ci] & e->above_i) <= e->rj + 1 &&
                            e->rj - __builtin_popcount(free_[e->cj] & e->above_j) <= e->ri + 1;
            if (can_touch) {
                free_[e->ci] |= e->bit_i, free_[e->cj] |= e->bit_j;
                changed = 1;
                if (fired) fired[pairs[i]] = 1;
            } else
                pairs[waiting++] = pairs[i];
        }
        np = waiting;
    }
    for (int c = 0; c < cols; c++)
        if (free_[c] != full[c]) return 0;
    return 1;
}

/* `_stuck`: whether some card on the grid can never be removed. 1 stuck, 0 not, -1 error.
 * (The route lists are filled only as far as they are read, which gcc cannot follow.) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
static int stuck(const slide_space *sp, const columns *in) {
    const uint8_t *spare = sp->spares[in->stock];
    int bottom = sp->rows - 1;
    int order[14], norder = 0, seen[14] = {0};
    int cells_c[14][MAX_RANK_CARDS], cells_r[14][MAX_RANK_CARDS], ncells[14] = {0};
    for (int c = 0; c < sp->cols; c++)
        for (int r = 0; r < in->len[c]; r++) {
            int rank = in->col[c][r];
            if (!seen[rank]) seen[rank] = 1, order[norder++] = rank;
            if (ncells[rank] == MAX_RANK_CARDS) return -1;
            cells_c[rank][ncells[rank]] = c, cells_r[rank][ncells[rank]] = r, ncells[rank]++;
        }
    route all[MAX_ROUTES];
    int nall = 0;
    rank_routes ranks[14];
    int pairs[MAX_ROUTES], np = 0, stock[MAX_ROUTES], ns = 0;
    for (int k = 0; k < norder; k++) {
        int rank = order[k];
        int found = find_routes(cells_c[rank], cells_r[rank], ncells[rank], spare[rank], bottom, all, &nall, &ranks[k]);
        if (found < 0) return -1;
        if (!found) return 1;
        for (int i = 0; i < ranks[k].npairs; i++) pairs[np++] = ranks[k].first + i;
        for (int i = 0; i < ranks[k].nstock; i++) stock[ns++] = ranks[k].first + ranks[k].npairs + i;
    }
    uint32_t full[MAX_COLS];
    for (int c = 0; c < sp->cols; c++) full[c] = (1u << in->len[c]) - 1;
    uint8_t fired[MAX_ROUTES] = {0};
    if (!free_all(sp, full, all, pairs, np, stock, ns, fired)) return 1;
    /* one pairing per rank */
    for (int k = 0; k < norder; k++) {
        const rank_routes *rr = &ranks[k];
        if (rr->npairings < 2) continue;
        uint32_t used = 0;
        for (int i = 0; i < rr->npairs + rr->nstock; i++)
            if (fired[rr->first + i]) used |= 1u << i;
        int alone = 0;
        for (int q = 0; q < rr->npairings && !alone; q++) alone = (used & ~rr->pairing[q]) == 0;
        if (alone) continue; /* that pairing alone would fire the same routes */
        int op[MAX_ROUTES], nop = 0, os[MAX_ROUTES], nos = 0;
        for (int j = 0; j < norder; j++) {
            if (j == k) continue;
            for (int i = 0; i < ranks[j].npairs; i++) op[nop++] = ranks[j].first + i;
            for (int i = 0; i < ranks[j].nstock; i++) os[nos++] = ranks[j].first + ranks[j].npairs + i;
        }
        int any = 0;
        for (int q = 0; q < rr->npairings && !any; q++) {
            int p2 = nop, s2 = nos;
            for (int i = 0; i < rr->npairs; i++)
                if (rr->pairing[q] >> i & 1) op[p2++] = rr->first + i;
            for (int i = 0; i < rr->nstock; i++)
                if (rr->pairing[q] >> (rr->npairs + i) & 1) os[s2++] = rr->first + rr->npairs + i;
            any = free_all(sp, full, all, op, p2, os, s2, NULL);
        }
        if (!any) return 1;
    }
    return 0;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* `_first_part`: once the stock is empty, only the first independent group of columns. */
static void first_part(const slide_space *sp, uint8_t *ranks) {
    int rows = sp->rows, cols = sp->cols;
    uint32_t held[MAX_COLS] = {0};
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            if (ranks[r * cols + c]) held[c] |= 1u << ranks[r * cols + c];
    int start = 0;
    while (start < cols && !held[start]) start++;
    int end = start + 1;
    while (end < cols && (held[end - 1] & held[end])) end++;
    if (end == cols && start == 0) return;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            if (c < start || c >= end) ranks[r * cols + c] = 0;
}

/* `_splits` with `_column_shift`: whether one pair can go first with the others still touching. */
static int column_splits(const slide_space *sp, const removals *r, const phase *ph) {
    int cols = sp->cols;
    for (int x = 0; x < ph->count; x++) {
        int first = sp->pool[ph->first + x], p = r->a[first], q = r->b[first];
        int all_touch = 1;
        for (int y = 0; y < ph->count && all_touch; y++) {
            int m = sp->pool[ph->first + y];
            int a = r->a[m], b = r->b[m];
            if (m == first || a == b) continue;
            int cells[2] = {a, b}, shifted[2];
            for (int k = 0; k < 2; k++) {
                int cell = cells[k], below = 0;
                if (p % cols == cell % cols && p < cell) below++;
                if (q != p && q % cols == cell % cols && q < cell) below++;
                shifted[k] = cell - cols * below;
            }
            if (!sp->touching[shifted[0]][shifted[1]]) all_touch = 0;
        }
        if (all_touch) return 1;
    }
    return 0;
}

static int column_expand(space *base, const uint8_t *state, size_t len, children *out) {
    slide_space *sp = (slide_space *)base;
    if (sp->root_dead && len == sp->root_len && memcmp(state, sp->root, len) == 0) return 0;
    columns in;
    read_columns(sp, state, &in);
    int rows = sp->rows, cols = sp->cols, cells = sp->cells;
    uint8_t ranks[MAX_CELLS] = {0};
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            if (r < in.len[c]) ranks[r * cols + c] = in.col[c][r];
    if (in.stock == sp->total) first_part(sp, ranks);
    uint32_t where[14] = {0};
    for (int c = 0; c < cols; c++)
        for (int r = 0; r < in.len[c]; r++) where[in.col[c][r]] += 1u << 3 * c;
    removals rm;
    find_removals(sp, ranks, cells, &rm);
    sp->nphases = 0, sp->npool = 0;
    if (rm.n == 0) return 0;
    if (matching_phases(sp, &rm, sp->strict) < 0) return -1;
    size_t at;
    if (sort_phases(sp, &at) < 0) return -1;
    for (size_t i = 0; i < at; i++) {
        const phase *ph = &sp->sorted[i];
        if (in.stock == sp->total && ph->count > 1 && !sp->strict && column_splits(sp, &rm, ph)) continue;
        uint32_t gone[14] = {0}, came[14] = {0}, cut[MAX_COLS] = {0};
        int heights[MAX_COLS];
        for (int c = 0; c < cols; c++) heights[c] = in.len[c];
        for (int m = 0; m < ph->count; m++) {
            int move = sp->pool[ph->first + m], cell2[2] = {rm.a[move], rm.b[move]};
            int rank = ranks[cell2[0]];
            for (int k = 0; k < 2; k++) {
                int c = cell2[k] % cols, row = cell2[k] / cols;
                gone[rank] += 1u << 3 * c;
                cut[c] |= 1u << row;
                heights[c]--;
            }
        }
        /* `_deal`: the stock fills the gaps row by row, left to right */
        columns child;
        int stock = in.stock;
        for (int c = 0; c < cols; c++) {
            child.len[c] = 0;
            for (int r = 0; r < in.len[c]; r++)
                if (!(cut[c] >> r & 1)) child.col[c][child.len[c]++] = in.col[c][r];
        }
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++)
                if (heights[c] == r && stock < sp->total) {
                    int rank = sp->rank_list[stock++];
                    child.col[c][child.len[c]++] = (uint8_t)rank;
                    came[rank] += 1u << 3 * c;
                    heights[c]++;
                }
        child.stock = stock;
        const uint8_t *spare = sp->spares[stock];
        int lost = 0;
        for (int rank = 1; rank <= 13 && !lost; rank++) {
            if (gone[rank]) lost = unmatched(where[rank] - gone[rank] + came[rank]) > spare[rank];
            else if (came[rank]) lost = unmatched(where[rank] + came[rank]) > spare[rank];
        }
        if (lost) continue;
        int dead = stuck(sp, &child);
        if (dead < 0) {
            sp->base.failure = "a Weddings position the compiled core cannot hold";
            return -1;
        }
        if (dead) continue;
        uint8_t bytes[1 + MAX_COLS + MAX_CELLS];
        if (add_child(sp, &rm, ph, bytes, write_columns(sp, &child, bytes), out) < 0) return -1;
    }
    return 0;
}

static int column_is_won(space *base, const uint8_t *state, size_t len) {
    slide_space *sp = (slide_space *)base;
    (void)len;
    if (state[0] != sp->total) return 0;
    for (int c = 0; c < sp->cols; c++)
        if (state[1 + c]) return 0;
    return 1;
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
    PyMem_RawFree(sp->options);
    PyMem_RawFree(sp);
}

/* Whether the space can hold a grid of rows x cols (compared one side at a time first, so
 * that no product of two ints overflows). */
int slide_grid_fits(int rows, int cols) {
    return rows >= 1 && cols >= 2 && rows <= MAX_GRID && cols <= MAX_GRID && rows * cols <= MAX_GRID;
}

space *slide_space_new(int rows, int cols, int thirteens, int strict) {
    if (!slide_grid_fits(rows, cols)) return NULL; /* the callers ask first */
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

_Static_assert(COLUMNS_MAX_STATE <= sizeof(((slide_space *)0)->root), "a Weddings state fits the space's copy of its root");
_Static_assert(1 + MAX_CARDS / 2 <= CORE_MAX_STATE && COLUMNS_MAX_STATE <= CORE_MAX_STATE, "the search's table holds every state");

/* Whether a Weddings deal and state are ones the space can read: one deck's ranks at most,
 * columns of at most 7 cards (3 bits a column count them), heights that add up, and no rank
 * more than four times in the grid and the stock together (so that no child holds more of
 * a rank than the dead-position tests count). */
int columns_readable(int rows, int cols, const uint8_t *rank_list, size_t total, const uint8_t *state, size_t len) {
    if (rows < 1 || rows > 7 || cols < 2 || cols > MAX_COLS || rows * cols > MAX_GRID || total < 1 || total > MAX_CARDS) return 0;
    int copies[14] = {0};
    for (size_t k = 0; k < total; k++)
        if (rank_list[k] < 1 || rank_list[k] > 13 || ++copies[rank_list[k]] > 4) return 0;
    if (len < 1 + (size_t)cols || state[0] > total) return 0;
    size_t cards = 0;
    for (int c = 0; c < cols; c++) {
        if (state[1 + c] > rows) return 0;
        cards += state[1 + c];
    }
    if (len != 1 + (size_t)cols + cards) return 0;
    int held[14] = {0};
    for (size_t k = state[0]; k < total; k++) held[rank_list[k]]++;
    for (size_t i = 1 + (size_t)cols; i < len; i++)
        if (state[i] < 1 || state[i] > 13 || ++held[state[i]] > 4) return 0;
    return 1;
}

space *column_space_new(int rows, int cols, const uint8_t *rank_list, int total, const uint8_t *root, size_t root_len, int root_dead) {
    if (total < 0 || !columns_readable(rows, cols, rank_list, (size_t)total, root, root_len)) return NULL; /* the callers ask first */
    space *base = slide_space_new(rows, cols, 0, 0);
    if (!base) return NULL;
    slide_space *sp = (slide_space *)base;
    base->expand = column_expand;
    base->is_won = column_is_won;
    sp->total = total;
    memcpy(sp->rank_list, rank_list, (size_t)total);
    for (int k = total - 1; k >= 0; k--) {
        memcpy(sp->spares[k], sp->spares[k + 1], sizeof sp->spares[k]);
        sp->spares[k][rank_list[k]]++;
    }
    memcpy(sp->root, root, root_len);
    sp->root_len = root_len, sp->root_dead = root_dead;
    return base;
}

/* A sliding line's steps as coded moves, as SequenceSpace.codes makes them (see there):
 * each phase's removals, (a, x, b, y) or (a, x) for a lone king, where x and y are the card
 * codes at cells a and b, then () when the phase leaves a card to consolidate. `codes` are
 * the card codes of the start state in its order; a step names cells of the state it
 * leaves, each pair of cells below that state's length (else ValueError). */
/* Append a new reference to `list`, giving it up either way: 0, or -1 with an error set
 * (`item` NULL when making it failed). */
static int append_new(PyObject *list, PyObject *item) {
    if (!item) return -1;
    int rc = PyList_Append(list, item);
    Py_DECREF(item);
    return rc;
}

PyObject *slide_codes(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer start;
    int size;
    PyObject *steps;
    if (!PyArg_ParseTuple(args, "y*iO", &start, &size, &steps)) return NULL;
    uint8_t left[MC_MAX_CARDS]; /* the codes of the cards still in play, in a state's order */
    Py_ssize_t copied = core_copy(&start, left, sizeof left);
    PyBuffer_Release(&start);
    if (copied < 0 || size < 1) {
        PyErr_SetString(PyExc_ValueError, "at most 104 cards, on a grid of one cell or more");
        return NULL;
    }
    int len = (int)copied;
    PyObject *line = PySequence_Fast(steps, "steps is a sequence"), *out = PyList_New(0);
    if (!line || !out) goto fail;
    for (Py_ssize_t s = 0; s < PySequence_Fast_GET_SIZE(line); s++) {
        PyObject *pairs = PySequence_Fast_GET_ITEM(line, s);
        if (!PyTuple_Check(pairs) || PyTuple_GET_SIZE(pairs) < 1 || PyTuple_GET_SIZE(pairs) > MC_MAX_CARDS) goto bad;
        int stock_left = len > size, on_grid = len < size ? len : size;
        uint8_t gone[MC_MAX_CARDS] = {0};
        for (Py_ssize_t p = 0; p < PyTuple_GET_SIZE(pairs); p++) {
            PyObject *pair = PyTuple_GET_ITEM(pairs, p);
            if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) goto bad;
            /* ints only: converting anything else may run Python code, which could free
               the steps borrowed here */
            PyObject *cell_a = PyTuple_GET_ITEM(pair, 0), *cell_b = PyTuple_GET_ITEM(pair, 1);
            if (!PyLong_Check(cell_a) || !PyLong_Check(cell_b)) goto bad;
            int overflow_a, overflow_b;
            long a = PyLong_AsLongAndOverflow(cell_a, &overflow_a), b = PyLong_AsLongAndOverflow(cell_b, &overflow_b);
            if (overflow_a || overflow_b || a < 0 || b < 0 || a >= len || b >= len) goto bad;
            PyObject *move = a == b ? Py_BuildValue("(ii)", (int)a, left[a]) : Py_BuildValue("(iiii)", (int)a, left[a], (int)b, left[b]);
            if (append_new(out, move) < 0) goto fail;
            gone[a] = gone[b] = 1;
        }
        int kept = 0, first = -1, emptied = 0;
        for (int i = 0; i < len; i++) {
            if (gone[i]) {
                emptied++;
                if (first < 0) first = i;
            } else {
                left[kept++] = left[i];
            }
        }
        len = kept;
        /* Once the stock is empty, a phase that emptied only the last cards of the grid
           leaves no card after a gap, and nothing to consolidate. */
        if (len && (stock_left || first != on_grid - emptied) && append_new(out, PyTuple_New(0)) < 0) goto fail;
    }
    Py_DECREF(line);
    return out;
bad:
    PyErr_SetString(PyExc_ValueError, "steps name pairs of cells of the state each leaves");
fail:
    Py_XDECREF(line);
    Py_XDECREF(out);
    return NULL;
}
