/* The "lost" tests of PySolFC's Matrimony in C: a twin of wedlock/games/matrimony/pysol_dead.py
 * (SuitPuzzle: the one-suit puzzle over the settled piles, and with the redeals ahead) and
 * of wedlock/games/matrimony/pysol_tangle.py (Tangles: the two-suit puzzle), combined as
 * PysolSuits.dead combines them. The docstrings there explain the puzzles and why they are
 * sound; this file explains only how it follows them.
 *
 * The two searches with a budget (the redeals ahead, and the two-suit puzzle) give up
 * "undecided" once they have seen so many states. Each is written as the Python loop is: a
 * stack of states with the children pushed in Python's order, and a set of the states seen
 * that tells states apart exactly as Python's does, so both stop on the same state. (The
 * answer itself depends only on which states can be reached and how many: a search answers
 * "cannot be finished" only when it has seen every reachable state, none finished, and no
 * more of them than the budget. So it is the state identity and the count that must match;
 * the order keeps the two searches alike step by step.) The one-suit search over the
 * settled piles has no budget, so only its answer has to agree.
 *
 * Every answer is a function of its puzzle, so each is cached by the puzzle's bytes (the
 * caches are emptied when they grow past CACHE_ENTRIES). Nothing here touches a Python
 * object: the search calls pysol_dead_check without the GIL. */
#include "pysol_dead.h"

#include "bytemap.h"
#include "core.h"

#include <limits.h>
#include <stdbool.h>
#include <string.h>

#define PILES 16
#define DECK 104
#define ROUNDS 16
#define CODES 52
#define SUITS 4
#define FOUNDATIONS 8
#define PLACES 13
#define FULL 13             /* FOUNDATION_CARDS: a suit at its centre, and a full foundation */
#define SUIT_CARDS 26       /* both decks' cards of one suit */
#define PILE_ROOM 104       /* the most cards a pile holds */
#define PASSED_MARK 4       /* hold mark (PASSED >> 4): may not be the centre */
#define EMPTY 255           /* the top of a pile with none of the pair's cards left */
#define PAIRS 6
#define CACHE_ENTRIES 65536 /* answers a cache keeps before it starts over */
#define KEY_ROOM 128        /* the longest key: a pair's 52 cards and 16 chain lengths, and a few counts */

/* ---- caches and the states a search has met: bytemap.h ---- */

/* A cached answer (0 or 1), or -1 when the key is not cached. */
static int cache_get(bytemap *k, const uint8_t *key, size_t len) {
    if (!k->slots) return -1;
    bool found;
    bytemap_slot *s = bytemap_probe(k, key, len, bytemap_hash(key, len), &found);
    return found ? s->value : -1;
}

/* Remember an answer for a key not cached yet; -1 when memory ran out. */
static int cache_put(bytemap *k, const uint8_t *key, size_t len, int answer) {
    if (k->count >= CACHE_ENTRIES) bytemap_clear(k);
    return bytemap_add(k, key, len, (uint8_t)answer) < 0 ? -1 : 0;
}

/* What a search finds when it pops a state: Python's `if state in seen: continue`, then
 * `if len(seen) >= budget: return True` (undecided), then `seen.add(state)`. */
enum { SEEN_BEFORE, SEEN_NEW, OVER_BUDGET, NO_MEMORY = -1 };

static int visit(bytemap *seen, const uint8_t *key, size_t len, long long budget) {
    bool found;
    uint32_t hash;
    bytemap_slot *s = bytemap_seek(seen, key, len, &hash, &found);
    if (!s) return NO_MEMORY;
    if (found) return SEEN_BEFORE;
    if ((long long)seen->count >= budget) return OVER_BUDGET;
    return bytemap_fill(seen, s, key, len, hash, 0) < 0 ? NO_MEMORY : SEEN_NEW;
}

/* ---- a stack of fixed-size states, Python's `todo` list ---- */

typedef struct {
    uint8_t *items;
    size_t count, size, room; /* room in bytes */
} stack;

static void stack_start(stack *s, size_t size) {
    s->count = 0;
    s->size = size;
}

/* A new item on top, or NULL when memory ran out. The pointer lasts until the next push. */
static void *stack_push(stack *s) {
    size_t need = (s->count + 1) * s->size;
    if (need > s->room) {
        size_t room = s->room ? 2 * s->room : 1 << 16;
        while (room < need) room *= 2;
        uint8_t *items = PyMem_RawRealloc(s->items, room);
        if (!items) return NULL;
        s->items = items, s->room = room;
    }
    return s->items + s->size * s->count++;
}

static bool stack_pop(stack *s, void *out) {
    if (!s->count) return false;
    s->count--;
    memcpy(out, s->items + s->size * s->count, s->size);
    return true;
}

/* ---- one suit's foundations (pysol_dead.py's helpers) ---- */

/* Copies of place x on the suit's foundations at counts (d, u): `_on_foundations`. */
static int on_foundations(int d, int u, int x) { return (x < u) + (x >= FULL - d); }

/* The places the foundations take next, in `_wanted`'s order; how many. */
static int wanted_places(int d, int u, uint8_t out[PLACES]) {
    int n = 0;
    if (d + u == FULL) {
        for (int x = 0; x < PLACES; x++) out[n++] = (uint8_t)x;
        return n;
    }
    if (u < FULL) out[n++] = (uint8_t)u;
    if (d < FULL && 12 - d != u) out[n++] = (uint8_t)(12 - d);
    return n;
}

/* The counts once the card at place x (wanted) is played: `_after`. */
static void play_place(int *d, int *u, int x) {
    if (*d + *u == FULL) {
        *d = FULL - x, *u = x + 1;
        return;
    }
    if (x == *u)
        ++*u;
    else
        ++*d;
    if (*d + *u == FULL) *d = 0, *u = FULL;
}

static bool suit_done(int d, int u) { return d == FULL && u == FULL; }

/* Whether a chain card at place x with this hold mark may be played now: `_may_play`. */
static bool may_play(int mark, int x, int d, int u) {
    if (!mark) return true;
    if (d + u == FULL) return mark != PASSED_MARK && mark != 2;
    return mark == PASSED_MARK || mark - 1 != on_foundations(d, u, x);
}

/* ---- the object ---- */

struct pysol_dead {
    uint8_t down[SUITS], up[SUITS];
    uint8_t place[CODES];
    uint8_t code_of[SUITS][PLACES]; /* Tangles.code: the card of each suit at each place */
    long long ahead_states, tangle_states;
    bytemap settled_cache; /* SuitPuzzle._cache */
    bytemap ahead_cache;   /* SuitPuzzle._ahead */
    bytemap tangle_cache;  /* Tangles._cache */
    bytemap seen;          /* the states of the search under way */
    stack todo;
    uint8_t marks[PILES][PILE_ROOM]; /* the holds of the check under way; zero between checks */
};

pysol_dead *pysol_dead_new(const uint8_t down[4], const uint8_t up[4], const uint8_t place[52], int ahead_states, int tangle_states) {
    pysol_dead *d = PyMem_RawCalloc(1, sizeof *d);
    if (!d) return NULL;
    memcpy(d->down, down, SUITS);
    memcpy(d->up, up, SUITS);
    memcpy(d->place, place, CODES);
    for (int code = 0; code < CODES; code++) d->code_of[code / PLACES][place[code] % PLACES] = (uint8_t)code;
    d->ahead_states = ahead_states;
    d->tangle_states = tangle_states;
    return d;
}

void pysol_dead_free(pysol_dead *d) {
    if (!d) return;
    bytemap_free(&d->settled_cache);
    bytemap_free(&d->ahead_cache);
    bytemap_free(&d->tangle_cache);
    bytemap_free(&d->seen);
    PyMem_RawFree(d->todo.items);
    PyMem_RawFree(d);
}

/* ---- each suit's cards in a run of piles: `_chains` ---- */

/* For each suit, its cards in piles first..end-1, pile after pile, each pile top first, as
 * place | tag << 4: the hold mark for settled piles, the landing pile for waiting ones. A
 * suit with more than SUIT_CARDS cards there is flagged `over` (more copies than the game
 * has: `_free_copies` would say None) and its chains are left short. */
typedef struct {
    uint8_t cards[SUITS][SUIT_CARDS];
    uint8_t start[SUITS][PILES], len[SUITS][PILES];
    uint8_t total[SUITS];
    bool over[SUITS];
} suit_chains;

static void read_chains(const pysol_dead *pd, const uint8_t *const piles[PILES], const uint8_t lens[PILES], int first, int end, bool settled,
                        suit_chains *out) {
    memset(out, 0, sizeof *out);
    for (int p = first; p < end; p++) {
        for (int s = 0; s < SUITS; s++) out->start[s][p] = out->total[s];
        for (int h = lens[p] - 1; h >= 0; h--) {
            int code = piles[p][h];
            if (code >= CODES) continue; /* not a card: the callers never pass one */
            int s = code / PLACES;
            int tag = !settled ? (p + h) % PILES : h < PILE_ROOM ? pd->marks[p][h] : 0;
            if (out->total[s] == SUIT_CARDS)
                out->over[s] = true;
            else
                out->cards[s][out->total[s]++] = (uint8_t)(pd->place[code] | tag << 4);
        }
        for (int s = 0; s < SUITS; s++) out->len[s][p] = (uint8_t)(out->total[s] - out->start[s][p]);
    }
}

/* `dead`'s marks: 16 * (n + 1) for a frozen card (n copies down), PASSED for a passed one,
 * the passed holds read last so that they win a spot held both ways. Only settled piles
 * keep holds. The mark is kept as its high nibble. */
static void set_marks(pysol_dead *pd, const uint8_t lens[PILES], int first, const uint8_t *frozen, int nfrozen, const uint8_t *passed,
                      int npassed) {
    for (int i = 0; i < nfrozen; i++) {
        int p = frozen[3 * i], h = frozen[3 * i + 1], n = frozen[3 * i + 2];
        if (p >= first && p < PILES && h < lens[p] && h < PILE_ROOM) pd->marks[p][h] = (uint8_t)(n < 15 ? n + 1 : 15);
    }
    for (int i = 0; i < npassed; i++) {
        int p = passed[2 * i], h = passed[2 * i + 1];
        if (p >= first && p < PILES && h < lens[p] && h < PILE_ROOM) pd->marks[p][h] = PASSED_MARK;
    }
}

static void clear_marks(pysol_dead *pd, const uint8_t *frozen, int nfrozen, const uint8_t *passed, int npassed) {
    for (int i = 0; i < nfrozen; i++)
        if (frozen[3 * i] < PILES && frozen[3 * i + 1] < PILE_ROOM) pd->marks[frozen[3 * i]][frozen[3 * i + 1]] = 0;
    for (int i = 0; i < npassed; i++)
        if (passed[2 * i] < PILES && passed[2 * i + 1] < PILE_ROOM) pd->marks[passed[2 * i]][passed[2 * i + 1]] = 0;
}

/* Some chains, each top first. */
typedef struct {
    int n;
    const uint8_t *cards[PILES];
    uint8_t len[PILES];
} chain_list;

/* Python's order of bytes objects: byte by byte, a prefix first. */
static int compare_chains(const uint8_t *a, int na, const uint8_t *b, int nb) {
    int c = memcmp(a, b, (size_t)(na < nb ? na : nb));
    return c ? c : na - nb;
}

static void sort_chains(chain_list *cl) {
    for (int i = 1; i < cl->n; i++) {
        const uint8_t *cards = cl->cards[i];
        uint8_t len = cl->len[i];
        int j = i;
        for (; j > 0 && compare_chains(cl->cards[j - 1], cl->len[j - 1], cards, len) > 0; j--) {
            cl->cards[j] = cl->cards[j - 1];
            cl->len[j] = cl->len[j - 1];
        }
        cl->cards[j] = cards;
        cl->len[j] = len;
    }
}

/* The chains' lengths and cards appended to a key; the new length. */
static size_t key_chains(uint8_t *key, size_t at, const chain_list *cl) {
    for (int i = 0; i < cl->n; i++) {
        key[at++] = cl->len[i];
        memcpy(key + at, cl->cards[i], cl->len[i]);
        at += cl->len[i];
    }
    return at;
}

/* ---- the one-suit puzzle over the settled piles: `_solvable` ---- */

/* A state of `_solvable`. Python's state also holds the free copies, but they follow from
 * these: every copy of a place is on the foundations (known from d and u), in a chain
 * below `taken`, or free, so the key leaves them out. */
typedef struct {
    uint8_t taken[PILES];
    uint8_t free[PLACES];
    uint8_t d, u;
} settled_state;

/* 1 when every card of the suit can be played, 0 when not, -1 when memory ran out. The
 * search is Python's, in the same order, though only its answer matters. */
static int settled_solvable(pysol_dead *pd, const chain_list *cl, const int free[PLACES], int d, int u) {
    bytemap_clear(&pd->seen);
    stack_start(&pd->todo, sizeof(settled_state));
    settled_state *start = stack_push(&pd->todo);
    if (!start) return -1;
    memset(start, 0, sizeof *start);
    for (int x = 0; x < PLACES; x++) start->free[x] = (uint8_t)free[x];
    start->d = (uint8_t)d, start->u = (uint8_t)u;
    int n = cl->n;
    settled_state st;
    uint8_t key[PILES + 2];
    while (stack_pop(&pd->todo, &st)) {
        if (suit_done(st.d, st.u)) return 1;
        memcpy(key, st.taken, (size_t)n);
        key[n] = st.d, key[n + 1] = st.u;
        int seen = visit(&pd->seen, key, (size_t)n + 2, LLONG_MAX);
        if (seen == NO_MEMORY) return -1;
        if (seen == SEEN_BEFORE) continue;
        uint8_t want[PLACES];
        int nwant = wanted_places(st.d, st.u, want);
        for (int k = 0; k < nwant; k++) {
            int x = want[k], nd = st.d, nu = st.u;
            play_place(&nd, &nu, x);
            bool top = false;
            for (int i = 0; i < n; i++) {
                if (st.taken[i] >= cl->len[i]) continue;
                int card = cl->cards[i][st.taken[i]];
                if ((card & 15) != x || !may_play(card >> 4, x, st.d, st.u)) continue;
                top = true;
                settled_state *child = stack_push(&pd->todo);
                if (!child) return -1;
                *child = st;
                child->taken[i]++;
                child->d = (uint8_t)nd, child->u = (uint8_t)nu;
            }
            if (!top && st.free[x]) {
                settled_state *child = stack_push(&pd->todo);
                if (!child) return -1;
                *child = st;
                child->free[x]--;
                child->d = (uint8_t)nd, child->u = (uint8_t)nu;
            }
        }
    }
    return 0;
}

/* Suit s's puzzle over the settled piles: its free copies and its chains, sorted as the
 * cache's key sorts them. False when the piles hold more copies of a place than the
 * foundations leave (`_free_copies` says None). */
static bool settled_puzzle(const suit_chains *sc, int s, int first, int d, int u, int free[PLACES], chain_list *cl) {
    for (int x = 0; x < PLACES; x++) free[x] = 2 - on_foundations(d, u, x);
    for (int i = 0; i < sc->total[s]; i++) free[sc->cards[s][i] & 15]--;
    for (int x = 0; x < PLACES; x++)
        if (free[x] < 0) return false;
    cl->n = 0;
    for (int p = first; p < PILES; p++) {
        if (!sc->len[s][p]) continue;
        cl->cards[cl->n] = sc->cards[s] + sc->start[s][p];
        cl->len[cl->n++] = sc->len[s][p];
    }
    sort_chains(cl);
    return true;
}

/* The settled part of SuitPuzzle.dead: 1 when some suit cannot be finished, 0 when each
 * can, -1 when memory ran out. */
static int settled_dead(pysol_dead *pd, const suit_chains *sc, int first, const uint8_t counts[FOUNDATIONS]) {
    for (int s = 0; s < SUITS; s++) {
        int d = counts[pd->down[s]], u = counts[pd->up[s]];
        if (suit_done(d, u)) continue;
        if (sc->over[s]) return 1;
        if (!sc->total[s]) continue; /* free copies alone always finish a suit */
        int free[PLACES];
        chain_list cl;
        if (!settled_puzzle(sc, s, first, d, u, free, &cl)) return 1;
        uint8_t key[KEY_ROOM];
        key[0] = (uint8_t)d, key[1] = (uint8_t)u;
        size_t len = key_chains(key, 2, &cl);
        int answer = cache_get(&pd->settled_cache, key, len);
        if (answer < 0) {
            answer = settled_solvable(pd, &cl, free, d, u);
            if (answer < 0 || cache_put(&pd->settled_cache, key, len, answer) < 0) return -1;
        }
        if (!answer) return 1;
    }
    return 0;
}

/* ---- the one-suit puzzle with the redeals ahead: `_solvable_ahead` ---- */

/* A state of `_solvable_ahead`. The chains of all 16 piles are kept one after another in
 * `cards`, each top first; every pile's chain only loses its top card or gains cards on
 * top at a redeal, and the suit has at most SUIT_CARDS cards in the piles. As in
 * `settled_state`, `free` and `inp` follow from the rest, so the key leaves them out. */
typedef struct {
    uint8_t len[PILES];    /* the suit's cards in each pile's chain */
    uint8_t taken[PILES];  /* cards taken from the top of each waiting pile 0..q */
    uint8_t free[PLACES];  /* copies outside the piles */
    uint8_t inp[PLACES];   /* copies in the piles, chains and waiting piles */
    int8_t q;              /* the pile the next redeal deals out; -1 when none is left */
    uint8_t d, u, total;   /* the counts; cards in all chains */
    uint8_t cards[SUIT_CARDS];
} ahead_state;

/* The piles still to be redealt (0..n-1): the suit's cards in each, top first, as place |
 * landing pile << 4. */
typedef struct {
    int n;
    const uint8_t *cards[PILES];
    uint8_t len[PILES];
} waiting_list;

typedef enum { FROM_CHAIN, FROM_WAITING, FROM_OUTSIDE } source;

typedef struct {
    uint8_t from, pile, x;
} ahead_move;

static int chain_start(const ahead_state *st, int pile) {
    int at = 0;
    for (int i = 0; i < pile; i++) at += st->len[i];
    return at;
}

static void chain_pop(ahead_state *st, int pile) {
    int at = chain_start(st, pile);
    memmove(st->cards + at, st->cards + at + 1, (size_t)(st->total - at - 1));
    st->len[pile]--;
    st->total--;
}

static void chain_push(ahead_state *st, int pile, int card) {
    int at = chain_start(st, pile);
    memmove(st->cards + at + 1, st->cards + at, (size_t)(st->total - at));
    st->cards[at] = (uint8_t)card;
    st->len[pile]++;
    st->total++;
}

/* The state after pile q's redeal: what is left of it, bottom card first, lands on the
 * chains of piles q and up, or becomes free when it lands on a pile still to be redealt. */
static void redeal_into(const ahead_state *st, const waiting_list *w, ahead_state *out) {
    *out = *st;
    int q = st->q;
    for (int k = w->len[q] - 1; k >= st->taken[q]; k--) {
        int card = w->cards[q][k], dest = card >> 4, x = card & 15;
        if (dest >= q) {
            chain_push(out, dest, x);
        } else {
            out->free[x]++;
            out->inp[x]--;
        }
    }
    out->q = (int8_t)(q - 1);
}

static size_t ahead_key(const ahead_state *st, uint8_t *key) {
    size_t at = 0;
    memcpy(key, st->len, PILES);
    at += PILES;
    memcpy(key + at, st->cards, st->total);
    at += st->total;
    memcpy(key + at, st->taken, (size_t)(st->q + 1));
    at += (size_t)(st->q + 1);
    key[at++] = (uint8_t)(st->q + 1);
    key[at++] = st->d;
    key[at++] = st->u;
    return at;
}

/* The plays `_solvable_ahead` tries from a state, in its order; how many, and whether the
 * first was forced (then it is the only one, and no redeal follows). */
static int ahead_moves(const ahead_state *st, const waiting_list *w, ahead_move moves[2 * PLACES], bool *forced) {
    uint8_t want[PLACES];
    int nwant = wanted_places(st->d, st->u, want), n = 0;
    *forced = false;
    for (int k = 0; k < nwant; k++) {
        int x = want[k], before = n;
        for (int i = 0, at = 0; i < PILES; at += st->len[i], i++) {
            if (!st->len[i]) continue;
            int card = st->cards[at];
            if ((card & 15) == x && may_play(card >> 4, x, st->d, st->u)) moves[n++] = (ahead_move){FROM_CHAIN, (uint8_t)i, (uint8_t)x};
        }
        for (int i = 0; i <= st->q; i++)
            if (st->taken[i] < w->len[i] && (w->cards[i][st->taken[i]] & 15) == x) moves[n++] = (ahead_move){FROM_WAITING, (uint8_t)i, (uint8_t)x};
        int others = n > before ? st->inp[x] - 1 : st->inp[x]; /* copies of x in the piles besides the one played */
        if (n == before && st->free[x]) moves[n++] = (ahead_move){FROM_OUTSIDE, 0, (uint8_t)x};
        if (n > before && !others && st->d + st->u != FULL) {
            moves[0] = moves[before];
            *forced = true;
            return 1;
        }
    }
    return n;
}

static void ahead_play(const ahead_state *st, ahead_move m, ahead_state *out) {
    *out = *st;
    int d = st->d, u = st->u;
    play_place(&d, &u, m.x);
    out->d = (uint8_t)d, out->u = (uint8_t)u;
    if (m.from == FROM_OUTSIDE) {
        out->free[m.x]--;
        return;
    }
    out->inp[m.x]--;
    if (m.from == FROM_CHAIN)
        chain_pop(out, m.pile);
    else
        out->taken[m.pile]++;
}

/* 1 when every card of the suit can be played (or the budget ran out first), 0 when not,
 * -1 when memory ran out. Python's search state by state: the redeal is pushed before the
 * plays, so it is tried last. Each pile's chain holds at most two copies of a place, so a
 * state has at most two plays per place. */
static int ahead_solvable(pysol_dead *pd, const ahead_state *start, const waiting_list *w) {
    bytemap_clear(&pd->seen);
    stack_start(&pd->todo, sizeof(ahead_state));
    ahead_state *first = stack_push(&pd->todo);
    if (!first) return -1;
    *first = *start;
    ahead_state st;
    uint8_t key[KEY_ROOM];
    ahead_move moves[2 * PLACES];
    while (stack_pop(&pd->todo, &st)) {
        int seen = visit(&pd->seen, key, ahead_key(&st, key), pd->ahead_states);
        if (seen == NO_MEMORY) return -1;
        if (seen == SEEN_BEFORE) continue;
        if (seen == OVER_BUDGET || suit_done(st.d, st.u)) return 1;
        bool forced;
        int n = ahead_moves(&st, w, moves, &forced);
        if (!forced && st.q >= 0) {
            ahead_state *child = stack_push(&pd->todo);
            if (!child) return -1;
            redeal_into(&st, w, child);
        }
        for (int i = 0; i < n; i++) {
            ahead_state *child = stack_push(&pd->todo);
            if (!child) return -1;
            ahead_play(&st, moves[i], child);
        }
    }
    return 0;
}

/* Suit s's puzzle with the redeals ahead: its start state (the settled piles' chains) and
 * the piles still to be redealt. False when the piles hold more copies of a place than
 * the foundations leave (`_free_copies` says None). */
static bool ahead_puzzle(const suit_chains *settled, const suit_chains *waiting, int s, int first, int d, int u, ahead_state *start,
                         waiting_list *w) {
    int free[PLACES];
    memset(start, 0, sizeof *start);
    for (int x = 0; x < PLACES; x++) free[x] = 2 - on_foundations(d, u, x);
    for (int i = 0; i < settled->total[s]; i++) free[settled->cards[s][i] & 15]--, start->inp[settled->cards[s][i] & 15]++;
    for (int i = 0; i < waiting->total[s]; i++) free[waiting->cards[s][i] & 15]--, start->inp[waiting->cards[s][i] & 15]++;
    for (int x = 0; x < PLACES; x++) {
        if (free[x] < 0) return false;
        start->free[x] = (uint8_t)free[x];
    }
    for (int p = first; p < PILES; p++) start->len[p] = settled->len[s][p];
    memcpy(start->cards, settled->cards[s], settled->total[s]);
    start->total = settled->total[s];
    start->q = (int8_t)(first - 1);
    start->d = (uint8_t)d, start->u = (uint8_t)u;
    w->n = first;
    for (int p = 0; p < first; p++) {
        w->cards[p] = waiting->cards[s] + waiting->start[s][p];
        w->len[p] = waiting->len[s][p];
    }
    return true;
}

/* SuitPuzzle._ahead's key, (settled, waiting, d, u): each pile's chain as its length and
 * cards, the piles still to be redealt first; the length. */
static size_t ahead_cache_key(const suit_chains *settled, const suit_chains *waiting, int s, int first, int d, int u, uint8_t *key) {
    size_t len = 0;
    key[len++] = (uint8_t)first, key[len++] = (uint8_t)d, key[len++] = (uint8_t)u;
    for (int p = 0; p < PILES; p++) {
        const suit_chains *from = p < first ? waiting : settled;
        key[len++] = from->len[s][p];
        memcpy(key + len, from->cards[s] + from->start[s][p], from->len[s][p]);
        len += from->len[s][p];
    }
    return len;
}

/* The redeals-ahead part of SuitPuzzle.dead (`dead_ahead` for each suit): 1 when some suit
 * cannot be finished, 0 when each can (or is undecided), -1 when memory ran out. */
static int ahead_dead(pysol_dead *pd, const suit_chains *settled, const suit_chains *waiting, int first, const uint8_t counts[FOUNDATIONS]) {
    for (int s = 0; s < SUITS; s++) {
        int d = counts[pd->down[s]], u = counts[pd->up[s]];
        if (suit_done(d, u) || (!waiting->total[s] && !waiting->over[s])) continue; /* no redeal moves a card of the suit */
        if (settled->over[s] || waiting->over[s] || settled->total[s] + waiting->total[s] > SUIT_CARDS) return 1;
        ahead_state start;
        waiting_list w;
        if (!ahead_puzzle(settled, waiting, s, first, d, u, &start, &w)) return 1;
        uint8_t key[KEY_ROOM];
        size_t len = ahead_cache_key(settled, waiting, s, first, d, u, key);
        int answer = cache_get(&pd->ahead_cache, key, len);
        if (answer < 0) {
            answer = ahead_solvable(pd, &start, &w);
            if (answer < 0 || cache_put(&pd->ahead_cache, key, len, answer) < 0) return -1;
        }
        if (!answer) return 1;
    }
    return 0;
}

/* ---- the two-suit puzzle: pysol_tangle.py ---- */

/* The chains of a pair of suits (a < b) in the settled piles: card codes, top first. The
 * puzzle's per-card counts are kept by pair index, 13 * (suit is b) + rank. */
typedef struct {
    int suit[2];
    chain_list chains;
} pair_puzzle;

typedef struct {
    uint8_t taken[PILES];
    uint8_t tops[PILES];          /* each chain's top card, EMPTY when none is left */
    uint8_t du[2][2];             /* the two suits' (down, up) counts */
    uint8_t free[2 * PLACES];     /* copies outside the piles */
    uint8_t inch[2 * PLACES];     /* copies in the chains */
} tangle_state;

typedef struct {
    uint8_t k, x, pile;
} tangle_move;

static int pair_index(const pair_puzzle *pz, int code) { return (code / PLACES == pz->suit[1]) * PLACES + code % PLACES; }

static int find_top(const tangle_state *st, int n, int code, int from) {
    for (int i = from; i < n; i++)
        if (st->tops[i] == code) return i;
    return -1;
}

/* `_pop`: one more card taken from chain i, the card under it on top. */
static void take_top(const pair_puzzle *pz, tangle_state *st, int i) {
    int t = ++st->taken[i];
    st->tops[i] = t < pz->chains.len[i] ? pz->chains.cards[i][t] : EMPTY;
}

/* `_forced`: the plays that need no choice, made until none is left. */
static void tangle_forced(const pysol_dead *pd, const pair_puzzle *pz, tangle_state *st) {
    bool moved = true;
    while (moved) {
        moved = false;
        for (int k = 0; k < 2; k++) {
            int d = st->du[k][0], u = st->du[k][1];
            while (!suit_done(d, u) && d + u != FULL) {
                bool past = d + u > FULL;
                uint8_t want[PLACES];
                int nwant = wanted_places(d, u, want), played = -1;
                for (int j = 0; j < nwant && played < 0; j++) {
                    int x = want[j], code = pd->code_of[pz->suit[k]][x], c = pair_index(pz, code);
                    if (st->free[c] && (past || !st->inch[c])) {
                        st->free[c]--;
                        played = x;
                    } else if (past || (st->free[c] && st->inch[c] == 1)) {
                        int i = find_top(st, pz->chains.n, code, 0);
                        if (i >= 0) {
                            take_top(pz, st, i);
                            st->inch[c]--;
                            played = x;
                        }
                    }
                }
                if (played < 0) break;
                play_place(&d, &u, played);
                st->du[k][0] = (uint8_t)d, st->du[k][1] = (uint8_t)u;
                moved = true;
            }
        }
    }
}

/* The plays Tangles._solvable branches on, in its order: every play of an outside copy,
 * then every play from a pile. At most one outside play per place, and at most two piles
 * show a card on top (the game has two copies), so 2 * 13 and 2 * 2 * 13 of them. */
static void tangle_moves(const pysol_dead *pd, const pair_puzzle *pz, const tangle_state *st, tangle_move *outside, int *nout,
                         tangle_move *inside, int *nin) {
    *nout = *nin = 0;
    for (int k = 0; k < 2; k++) {
        int d = st->du[k][0], u = st->du[k][1];
        if (suit_done(d, u)) continue;
        uint8_t want[PLACES];
        int nwant = wanted_places(d, u, want);
        for (int j = 0; j < nwant; j++) {
            int x = want[j], code = pd->code_of[pz->suit[k]][x];
            int i = find_top(st, pz->chains.n, code, 0);
            if (i >= 0) {
                for (; i >= 0; i = find_top(st, pz->chains.n, code, i + 1)) inside[(*nin)++] = (tangle_move){(uint8_t)k, (uint8_t)x, (uint8_t)i};
            } else if (st->free[pair_index(pz, code)]) {
                outside[(*nout)++] = (tangle_move){(uint8_t)k, (uint8_t)x, 0};
            }
        }
    }
}

static void tangle_play(const pysol_dead *pd, const pair_puzzle *pz, const tangle_state *st, tangle_move m, bool from_pile, tangle_state *out) {
    *out = *st;
    int c = pair_index(pz, pd->code_of[pz->suit[m.k]][m.x]);
    if (from_pile) {
        take_top(pz, out, m.pile);
        out->inch[c]--;
    } else {
        out->free[c]--;
    }
    int d = st->du[m.k][0], u = st->du[m.k][1];
    play_place(&d, &u, m.x);
    out->du[m.k][0] = (uint8_t)d, out->du[m.k][1] = (uint8_t)u;
}

static int push_tangle_moves(const pysol_dead *pd, const pair_puzzle *pz, stack *todo, const tangle_state *st, const tangle_move *moves, int n,
                             bool from_pile) {
    for (int i = 0; i < n; i++) {
        tangle_state *child = stack_push(todo);
        if (!child) return -1;
        tangle_play(pd, pz, st, moves[i], from_pile, child);
    }
    return 0;
}

/* Tangles._solvable: 1 when both suits can be finished (or the budget ran out, or the
 * counts are not a game's), 0 when not, -1 when memory ran out. The seen states are keyed
 * as Python keys them, by (taken, suits) after the forced plays. */
static int tangle_solvable(pysol_dead *pd, const pair_puzzle *pz, const uint8_t du[2][2]) {
    const chain_list *cl = &pz->chains;
    int free[2 * PLACES];
    tangle_state start = {0};
    for (int k = 0; k < 2; k++)
        for (int x = 0; x < PLACES; x++) free[pair_index(pz, pd->code_of[pz->suit[k]][x])] = 2 - on_foundations(du[k][0], du[k][1], x);
    for (int i = 0; i < cl->n; i++) {
        start.tops[i] = cl->cards[i][0];
        for (int j = 0; j < cl->len[i]; j++) {
            int c = pair_index(pz, cl->cards[i][j]);
            free[c]--;
            start.inch[c]++;
        }
    }
    for (int c = 0; c < 2 * PLACES; c++) {
        if (free[c] < 0) return 1; /* not a position of the game: cut nothing */
        start.free[c] = (uint8_t)free[c];
    }
    memcpy(start.du, du, sizeof start.du);

    bytemap_clear(&pd->seen);
    stack_start(&pd->todo, sizeof(tangle_state));
    tangle_state *first = stack_push(&pd->todo);
    if (!first) return -1;
    *first = start;
    tangle_state st;
    uint8_t key[PILES + 4];
    tangle_move outside[2 * PLACES], inside[4 * PLACES];
    int nout, nin;
    while (stack_pop(&pd->todo, &st)) {
        tangle_forced(pd, pz, &st);
        if (suit_done(st.du[0][0], st.du[0][1]) && suit_done(st.du[1][0], st.du[1][1])) return 1;
        memcpy(key, st.taken, (size_t)cl->n);
        memcpy(key + cl->n, st.du, 4);
        int seen = visit(&pd->seen, key, (size_t)cl->n + 4, pd->tangle_states);
        if (seen == NO_MEMORY) return -1;
        if (seen == SEEN_BEFORE) continue;
        if (seen == OVER_BUDGET) return 1; /* undecided: never cut on a guess */
        tangle_moves(pd, pz, &st, outside, &nout, inside, &nin);
        if (push_tangle_moves(pd, pz, &pd->todo, &st, outside, nout, false) < 0) return -1;
        if (push_tangle_moves(pd, pz, &pd->todo, &st, inside, nin, true) < 0) return -1;
    }
    return 0;
}

/* The pair's cards in each settled pile, top first, into `cards` (room for both suits'
 * SUIT_CARDS), the piles without any left out, sorted as Tangles sorts them. */
static void pair_chains(pair_puzzle *pz, const uint8_t *const piles[PILES], const uint8_t lens[PILES], int first, uint8_t *cards) {
    chain_list *cl = &pz->chains;
    int total = 0;
    cl->n = 0;
    for (int p = first; p < PILES; p++) {
        int begin = total;
        for (int h = lens[p] - 1; h >= 0; h--) {
            int code = piles[p][h], s = code / PLACES;
            if (code < CODES && (s == pz->suit[0] || s == pz->suit[1])) cards[total++] = (uint8_t)code;
        }
        if (total > begin) {
            cl->cards[cl->n] = cards + begin;
            cl->len[cl->n++] = (uint8_t)(total - begin);
        }
    }
    sort_chains(cl);
}

/* Tangles.dead: 1 when the settled piles tangle two suits so that no line wins, 0 when
 * not, -1 when memory ran out. `over` flags the suits with more cards in the settled piles
 * than the game has: with such a suit the puzzle is not a game's, and cuts nothing. */
static int tangles_dead(pysol_dead *pd, const uint8_t *const piles[PILES], const uint8_t lens[PILES], int first, const uint8_t counts[FOUNDATIONS],
                        const bool over[SUITS]) {
    static const int pairs[PAIRS][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    for (int i = 0; i < PAIRS; i++) {
        pair_puzzle pz = {.suit = {pairs[i][0], pairs[i][1]}};
        uint8_t du[2][2];
        bool skip = false;
        for (int k = 0; k < 2; k++) {
            int s = pz.suit[k];
            du[k][0] = counts[pd->down[s]], du[k][1] = counts[pd->up[s]];
            skip = skip || suit_done(du[k][0], du[k][1]) || over[s];
        }
        if (skip) continue;
        uint8_t cards[2 * SUIT_CARDS];
        pair_chains(&pz, piles, lens, first, cards);
        if (pz.chains.n < 2) continue; /* a tangle needs two piles */
        uint8_t key[KEY_ROOM];
        key[0] = (uint8_t)i;
        memcpy(key + 1, du, 4);
        size_t len = key_chains(key, 5, &pz.chains);
        int dead = cache_get(&pd->tangle_cache, key, len);
        if (dead < 0) {
            int solvable = tangle_solvable(pd, &pz, (const uint8_t(*)[2])du);
            if (solvable < 0) return -1;
            dead = !solvable;
            if (cache_put(&pd->tangle_cache, key, len, dead) < 0) return -1;
        }
        if (dead) return 1;
    }
    return 0;
}

/* ---- PysolSuits.dead ---- */

int pysol_dead_check(pysol_dead *d, const uint8_t *const piles[16], const uint8_t lens[16], const uint8_t counts[8], int stock, int rounds,
                     const uint8_t *frozen, int nfrozen, const uint8_t *passed, int npassed, int ahead, int tangles) {
    if (stock < DECK || rounds <= 0) return 0; /* no pile is settled yet */
    if (rounds > ROUNDS) rounds = ROUNDS;
    int first = PILES - rounds;
    suit_chains settled;
    set_marks(d, lens, first, frozen, nfrozen, passed, npassed);
    read_chains(d, piles, lens, first, PILES, true, &settled);
    clear_marks(d, frozen, nfrozen, passed, npassed);
    int r = settled_dead(d, &settled, first, counts);
    if (r || !ahead) return r;
    suit_chains waiting;
    read_chains(d, piles, lens, 0, first, false, &waiting);
    r = ahead_dead(d, &settled, &waiting, first, counts);
    if (r || !tangles || rounds < 2) return r;
    return tangles_dead(d, piles, lens, first, counts, settled.over);
}

/* ---- the test entry: _core.pysol_dead ---- */

static int check_bytes(const char *name, Py_ssize_t len, Py_ssize_t want, const uint8_t *data, int below) {
    if (len != want) {
        PyErr_Format(PyExc_ValueError, "%s must be %zd bytes, not %zd", name, want, len);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        if (data[i] >= below) {
            PyErr_Format(PyExc_ValueError, "%s[%zd] is %d: each must be below %d", name, i, data[i], below);
            return -1;
        }
    }
    return 0;
}

/* Whether `place` maps each suit's 13 cards onto the places 0..12, one to one. */
static int check_places(const uint8_t *place) {
    for (int s = 0; s < SUITS; s++) {
        unsigned used = 0;
        for (int r = 0; r < PLACES; r++) used |= 1u << place[PLACES * s + r];
        if (used != (1u << PLACES) - 1) {
            PyErr_Format(PyExc_ValueError, "place must give suit %d's 13 cards the places 0..12, each once", s);
            return -1;
        }
    }
    return 0;
}

static int check_holds(const char *name, const uint8_t *holds, Py_ssize_t len, int width, const uint8_t lens[PILES]) {
    if (len % width) {
        PyErr_Format(PyExc_ValueError, "%s must be %d bytes per hold, not %zd bytes", name, width, len);
        return -1;
    }
    if (len / width > PILES * PILE_ROOM) {
        PyErr_Format(PyExc_ValueError, "%s: %zd holds, more than the piles have places", name, len / width);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i += width) {
        int p = holds[i], h = holds[i + 1];
        if (p >= PILES || h >= lens[p]) {
            PyErr_Format(PyExc_ValueError, "%s hold %zd: (pile %d, height %d) is not a card in the piles", name, i / width, p, h);
            return -1;
        }
        if (width == 3 && holds[i + 2] > 2) {
            PyErr_Format(PyExc_ValueError, "%s hold %zd: %d copies down (at most 2)", name, i / width, holds[i + 2]);
            return -1;
        }
    }
    return 0;
}

/* The 16 piles of a sequence of bytes objects, copied into `cards` (the check runs without
 * the GIL, while another thread may replace the sequence's items and free them); 0, or -1
 * with ValueError set. */
static int read_piles(PyObject *obj, uint8_t cards[PILES][PILE_ROOM], const uint8_t *piles[PILES], uint8_t lens[PILES]) {
    PyObject *seq = PySequence_Fast(obj, "piles must be a sequence of 16 bytes objects");
    if (!seq) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "piles must be a sequence of 16 bytes objects");
        }
        return -1;
    }
    int rc = -1;
    if (PySequence_Fast_GET_SIZE(seq) != PILES) {
        PyErr_Format(PyExc_ValueError, "piles must be 16 piles, not %zd", PySequence_Fast_GET_SIZE(seq));
        goto done;
    }
    for (int p = 0; p < PILES; p++) {
        PyObject *pile = PySequence_Fast_GET_ITEM(seq, p);
        if (!PyBytes_Check(pile)) {
            PyErr_Format(PyExc_ValueError, "pile %d must be bytes, not %s", p, Py_TYPE(pile)->tp_name);
            goto done;
        }
        Py_ssize_t len = PyBytes_GET_SIZE(pile);
        if (len > PILE_ROOM) {
            PyErr_Format(PyExc_ValueError, "pile %d holds %zd cards, more than %d", p, len, PILE_ROOM);
            goto done;
        }
        memcpy(cards[p], PyBytes_AS_STRING(pile), (size_t)len);
        for (Py_ssize_t h = 0; h < len; h++) {
            if (cards[p][h] >= CODES) {
                PyErr_Format(PyExc_ValueError, "pile %d, height %zd: %d is not a card code (0..51)", p, h, cards[p][h]);
                goto done;
            }
        }
        piles[p] = cards[p];
        lens[p] = (uint8_t)len;
    }
    rc = 0;
done:
    Py_DECREF(seq);
    return rc;
}

PyObject *pysol_dead_py(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    static char *kwlist[] = {"down", "up", "place", "ahead_states", "tangle_states", "piles", "counts", "stock", "rounds", "frozen", "passed",
                             "ahead", "tangles", NULL};
    const char *down, *up, *place, *counts, *frozen = "", *passed = "";
    Py_ssize_t ndown, nup, nplace, ncounts, nfrozen = 0, npassed = 0;
    int ahead_states, tangle_states, stock, rounds, ahead = 0, tangles = 0;
    PyObject *piles_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y#y#y#iiOy#ii|y#y#pp", kwlist, &down, &ndown, &up, &nup, &place, &nplace, &ahead_states,
                                     &tangle_states, &piles_obj, &counts, &ncounts, &stock, &rounds, &frozen, &nfrozen, &passed, &npassed, &ahead,
                                     &tangles))
        return NULL;
    if (check_bytes("down", ndown, SUITS, (const uint8_t *)down, FOUNDATIONS) < 0 ||
        check_bytes("up", nup, SUITS, (const uint8_t *)up, FOUNDATIONS) < 0 ||
        check_bytes("place", nplace, CODES, (const uint8_t *)place, PLACES) < 0 || check_places((const uint8_t *)place) < 0 ||
        check_bytes("counts", ncounts, FOUNDATIONS, (const uint8_t *)counts, FULL + 1) < 0)
        return NULL;
    if (ahead_states < 0 || tangle_states < 0) {
        PyErr_SetString(PyExc_ValueError, "ahead_states and tangle_states must be >= 0");
        return NULL;
    }
    if (stock < 0 || stock > DECK || rounds < 0 || rounds > ROUNDS) {
        PyErr_Format(PyExc_ValueError, "stock must be 0..%d and rounds 0..%d, not %d and %d", DECK, ROUNDS, stock, rounds);
        return NULL;
    }
    uint8_t cards[PILES][PILE_ROOM];
    const uint8_t *piles[PILES];
    uint8_t lens[PILES];
    if (read_piles(piles_obj, cards, piles, lens) < 0) return NULL;
    /* (the bytes objects of y# cannot change, and the call's arguments keep them alive) */
    if (check_holds("frozen", (const uint8_t *)frozen, nfrozen, 3, lens) < 0 ||
        check_holds("passed", (const uint8_t *)passed, npassed, 2, lens) < 0)
        return NULL;
    pysol_dead *pd = pysol_dead_new((const uint8_t *)down, (const uint8_t *)up, (const uint8_t *)place, ahead_states, tangle_states);
    int answer = -1;
    if (pd) {
        Py_BEGIN_ALLOW_THREADS
        answer = pysol_dead_check(pd, piles, lens, (const uint8_t *)counts, stock, rounds, (const uint8_t *)frozen, (int)(nfrozen / 3),
                                  (const uint8_t *)passed, (int)(npassed / 2), ahead, tangles);
        Py_END_ALLOW_THREADS
        pysol_dead_free(pd);
    }
    if (answer < 0) return PyErr_NoMemory();
    return PyBool_FromLong(answer);
}
