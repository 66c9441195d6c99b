/* Matrimony under PySolFC's rules as a compiled space: the twin of PysolSpace in
 * wedlock/games/matrimony/pysol_space.py (one decision per edge: the first playable card is
 * played now or held back), which says why the safe plays and the holds lose no win. The
 * functions here follow that file's, name for name; the lost tests are pysol_dead.c.
 *
 * A state is PysolSpace.key's bytes, so it is its own key and the two searches count the
 * same states: each pile's card codes bottom first, ended by 255; the eight foundation
 * counts (a suit at 13 written as Jack-down 0, Queen-up 13); the stock's next deal index;
 * the redeals made; the frozen holds (pile, height, copies down), sorted, ended by 255;
 * the passed holds (pile, height), sorted. A step: what ends it (0 nothing, 1 a deal, 2 a
 * redeal), the redealt pile, the number of plays, then two bytes a play: pile, card code. */
#include "bytemap.h"
#include "core.h"
#include "pysol_dead.h"

#include <string.h>

enum { DECK = 104, PILES = 16, ROUNDS = 16, FOUNDATION_CARDS = 13, FOUNDATIONS = 8, NONE = 255, SUITS = 4, LAYOUT = 2 + PILES };
enum { STEP_NONE, STEP_DEAL, STEP_REDEAL };
/* the longest state: every card in a pile, and every card held */
enum { MAX_STATE = DECK + PILES + FOUNDATIONS + 2 + 3 * DECK + 1 + 2 * DECK };

typedef struct {
    uint8_t stock, rounds;
    uint8_t counts[FOUNDATIONS];
    uint8_t len[PILES];
    uint8_t cards[PILES][DECK];
    int nfrozen, npassed;
    uint8_t frozen[DECK][3]; /* (pile, height, copies down), sorted */
    uint8_t passed[DECK][2]; /* (pile, height), sorted */
} pstate;

typedef struct {
    space base;
    uint8_t codes[DECK];
    uint8_t takes[FOUNDATIONS * FOUNDATION_CARDS];
    uint8_t next_code[FOUNDATIONS][FOUNDATION_CARDS + 1];
    uint8_t rank_in[FOUNDATIONS][52];
    uint8_t down[SUITS], up[SUITS];
    uint8_t deal_index[52][2];
    int tangles;
    int check_ends; /* whether a deal or redeal's result gets its lost test with the redeals ahead */
    pysol_dead *dead;
    PyObject *deal_move, *redeal_class;
    pstate here, child; /* one expansion's work */
    long long *census; /* NULL, or the states expanded, counted by where they are (CENSUS_CELLS) */
} pysol_space;

/* A census of the states a search expands, asked for by benchmarks/proof_cost.py: one count
 * per deals and redeals made (0..22), cards on the foundations (0..104) and holds (0, 1, 2,
 * 3 or more). A single pass expands each state it holds once. */
enum { CENSUS_EPOCHS = 6 + ROUNDS + 1, CENSUS_CARDS = DECK + 1, CENSUS_HOLDS = 4, CENSUS_CELLS = CENSUS_EPOCHS * CENSUS_CARDS * CENSUS_HOLDS };

/* ---- states ---- */

/* Read a state; 0, or -1 when the bytes are not one (a root from Python: children are
 * always well formed). */
static int read_state(const uint8_t *s, size_t len, pstate *st) {
    size_t i = 0, cards = 0;
    for (int p = 0; p < PILES; p++) {
        int n = 0;
        while (i < len && s[i] != NONE) {
            if (s[i] >= 52 || n == DECK) return -1;
            st->cards[p][n++] = s[i++];
        }
        if (i == len) return -1;
        i++; /* the pile's end */
        st->len[p] = (uint8_t)n;
        cards += (size_t)n;
    }
    if (i + FOUNDATIONS + 3 > len) return -1;
    memcpy(st->counts, s + i, FOUNDATIONS);
    i += FOUNDATIONS;
    st->stock = s[i++], st->rounds = s[i++];
    if (st->stock > DECK || st->rounds > ROUNDS || cards + (DECK - st->stock) > DECK) return -1;
    for (int f = 0; f < FOUNDATIONS; f++)
        if (st->counts[f] > FOUNDATION_CARDS) return -1;
    st->nfrozen = 0;
    while (i < len && s[i] != NONE) {
        if (i + 3 > len || st->nfrozen == DECK) return -1;
        memcpy(st->frozen[st->nfrozen++], s + i, 3);
        i += 3;
    }
    if (i == len) return -1;
    i++;
    st->npassed = 0;
    while (i < len) {
        if (i + 2 > len || st->npassed == DECK) return -1;
        memcpy(st->passed[st->npassed++], s + i, 2);
        i += 2;
    }
    /* each list of holds in order of place, one hold a place (as PysolSpace.key writes
     * them): a state is its own key, and holding one more card always has room */
    for (int k = 0; k < st->nfrozen; k++)
        if (st->frozen[k][0] >= PILES || st->frozen[k][1] >= st->len[st->frozen[k][0]] || st->frozen[k][2] > 1 ||
            (k && memcmp(st->frozen[k - 1], st->frozen[k], 2) >= 0))
            return -1;
    for (int k = 0; k < st->npassed; k++)
        if (st->passed[k][0] >= PILES || st->passed[k][1] >= st->len[st->passed[k][0]] ||
            (k && memcmp(st->passed[k - 1], st->passed[k], 2) >= 0))
            return -1;
    return 0;
}

static size_t write_state(const pstate *st, uint8_t *s) {
    uint8_t *c = s;
    for (int p = 0; p < PILES; p++) {
        memcpy(c, st->cards[p], st->len[p]);
        c += st->len[p];
        *c++ = NONE;
    }
    memcpy(c, st->counts, FOUNDATIONS);
    c += FOUNDATIONS;
    *c++ = st->stock, *c++ = st->rounds;
    for (int k = 0; k < st->nfrozen; k++, c += 3) memcpy(c, st->frozen[k], 3);
    *c++ = NONE;
    for (int k = 0; k < st->npassed; k++, c += 2) memcpy(c, st->passed[k], 2);
    return (size_t)(c - s);
}

/* ---- what a card does to its suit ---- */

static int at_thirteen(const pysol_space *sp, const uint8_t *counts, int code) {
    int s = code / 13;
    return counts[sp->down[s]] + counts[sp->up[s]] == FOUNDATION_CARDS;
}

/* The suit's (down, up) counts once `code` is played; 0 when it cannot be. */
static int after_play(const pysol_space *sp, const uint8_t *counts, int code, uint8_t after[2]) {
    int s = code / 13, d = sp->down[s], u = sp->up[s];
    int held_down = counts[d], held_up = counts[u];
    if (held_down + held_up == FOUNDATION_CARDS) {
        after[0] = (uint8_t)(sp->rank_in[d][code] + 1), after[1] = (uint8_t)(sp->rank_in[u][code] + 1);
        return 1;
    }
    if (sp->next_code[u][held_up] == code) held_up++;
    else if (sp->next_code[d][held_down] == code) held_down++;
    else return 0;
    if (held_down + held_up == FOUNDATION_CARDS) held_down = 0, held_up = FOUNDATION_CARDS;
    after[0] = (uint8_t)held_down, after[1] = (uint8_t)held_up;
    return 1;
}

/* How many copies of `code` are on the foundations (one for every card at 13). */
static int copies_down(const pysol_space *sp, const uint8_t *counts, int code) {
    int s = code / 13, d = sp->down[s], u = sp->up[s];
    if (counts[d] + counts[u] == FOUNDATION_CARDS) return 1;
    return (counts[d] > sp->rank_in[d][code]) + (counts[u] > sp->rank_in[u][code]);
}

static int count_of(const uint8_t *cards, int n, int code) {
    int k = 0;
    for (int i = 0; i < n; i++) k += cards[i] == code;
    return k;
}

/* Copies of `code` in piles other than p, its suit not at 13, the stock empty. */
static int copies_elsewhere(const pysol_space *sp, const pstate *st, int p, int code) {
    int s = code / 13, d = sp->down[s], u = sp->up[s];
    int on_foundations = (st->counts[d] > sp->rank_in[d][code]) + (st->counts[u] > sp->rank_in[u][code]);
    return 2 - on_foundations - count_of(st->cards[p], st->len[p], code);
}

static void play(const pysol_space *sp, pstate *st, int p, const uint8_t after[2]) {
    int code = st->cards[p][--st->len[p]], s = code / 13;
    st->counts[sp->down[s]] = after[0], st->counts[sp->up[s]] = after[1];
}

/* ---- plays that need no choice ---- */

/* Whether a redeal before pile p's own might put a card on p (PysolSuits.may_land_on). */
static int may_land_on(const pstate *st, int p, int next_redeal) {
    int most[PILES];
    for (int q = next_redeal; q >= p; q--) {
        int n = st->len[q];
        for (int q2 = next_redeal; q2 > q; q2--) {
            int first = PILES + q - q2; /* the height in q2 whose card lands on q */
            if (most[q2] > first) n += (most[q2] - first - 1) / PILES + 1;
        }
        if (q == p) return n > st->len[p];
        most[q] = n;
    }
    return 0;
}

/* Whether playing pile p's top card now is never worse than keeping it (PysolSuits.safe). */
static int safe(const pysol_space *sp, const pstate *st, int p) {
    if (st->stock < DECK) return 0;
    int code = st->cards[p][st->len[p] - 1];
    if (at_thirteen(sp, st->counts, code) || copies_elsewhere(sp, st, p, code)) return 0;
    int next_redeal = PILES - 1 - st->rounds;
    if (p > next_redeal) return 1;
    if (count_of(st->cards[p], st->len[p], code) > 1) return 0;
    return p + st->len[p] - 1 < PILES && !may_land_on(st, p, next_redeal);
}

/* Whether a frozen hold still binds: its other copy has not gone down, its card is there,
 * and its pile has not been redealt. */
static int binds(const pysol_space *sp, const pstate *st, const uint8_t *hold, int redealt) {
    int p = hold[0], h = hold[1];
    return p != redealt && h < st->len[p] && copies_down(sp, st->counts, st->cards[p][h]) == hold[2];
}

static int frozen_at(const pysol_space *sp, const pstate *st, int p, int h, int check) {
    for (int k = 0; k < st->nfrozen; k++)
        if (st->frozen[k][0] == p && st->frozen[k][1] == h && (!check || binds(sp, st, st->frozen[k], -1))) return 1;
    return 0;
}

/* Make the safe plays as long as there are any (PysolSuits.play_safe), writing each. */
static void play_safe(const pysol_space *sp, pstate *st, uint8_t *plays, int *nplays) {
    for (;;) {
        int p;
        uint8_t after[2];
        for (p = 0; p < PILES; p++) {
            int n = st->len[p];
            if (!n || !after_play(sp, st->counts, st->cards[p][n - 1], after)) continue;
            if (st->nfrozen && frozen_at(sp, st, p, n - 1, 1)) continue;
            if (safe(sp, st, p)) break;
        }
        if (p == PILES) return;
        plays[2 * *nplays] = (uint8_t)p, plays[2 * *nplays + 1] = st->cards[p][st->len[p] - 1];
        (*nplays)++;
        play(sp, st, p, after);
    }
}

/* Drop the holds that no longer bind (PysolSpace.held): the other copy has gone down, the
 * suit has left 13, or the pile has been redealt. */
static void held(const pysol_space *sp, pstate *st, int redealt) {
    int kept = 0;
    for (int k = 0; k < st->nfrozen; k++)
        if (binds(sp, st, st->frozen[k], redealt)) memmove(st->frozen[kept++], st->frozen[k], 3);
    st->nfrozen = kept;
    kept = 0;
    for (int k = 0; k < st->npassed; k++) {
        int p = st->passed[k][0], h = st->passed[k][1];
        if (p != redealt && h < st->len[p] && at_thirteen(sp, st->counts, st->cards[p][h])) memmove(st->passed[kept++], st->passed[k], 2);
    }
    st->npassed = kept;
}

static int passed_at(const pstate *st, int p, int h) {
    for (int k = 0; k < st->npassed; k++)
        if (st->passed[k][0] == p && st->passed[k][1] == h) return 1;
    return 0;
}

/* The first pile whose top card can be played and is not held back, or -1. */
static int first_choice(const pysol_space *sp, const pstate *st, uint8_t after[2]) {
    for (int p = 0; p < PILES; p++) {
        int n = st->len[p];
        if (!n) continue;
        int code = st->cards[p][n - 1];
        if (!after_play(sp, st->counts, code, after)) continue;
        if (frozen_at(sp, st, p, n - 1, 0)) continue;
        if (passed_at(st, p, n - 1) && at_thirteen(sp, st->counts, code)) continue;
        return p;
    }
    return -1;
}

static void add_frozen(pstate *st, int p, int h, int n) {
    int k = st->nfrozen;
    while (k > 0 && memcmp(st->frozen[k - 1], (uint8_t[3]){(uint8_t)p, (uint8_t)h, (uint8_t)n}, 3) > 0) {
        memcpy(st->frozen[k], st->frozen[k - 1], 3);
        k--;
    }
    st->frozen[k][0] = (uint8_t)p, st->frozen[k][1] = (uint8_t)h, st->frozen[k][2] = (uint8_t)n;
    st->nfrozen++;
}

static void add_passed(pstate *st, int p, int h) {
    int k = st->npassed;
    while (k > 0 && (st->passed[k - 1][0] > p || (st->passed[k - 1][0] == p && st->passed[k - 1][1] > h))) {
        memcpy(st->passed[k], st->passed[k - 1], 2);
        k--;
    }
    st->passed[k][0] = (uint8_t)p, st->passed[k][1] = (uint8_t)h;
    st->npassed++;
}

/* ---- deals and redeals ---- */

static void deal_round(const pysol_space *sp, pstate *st) {
    for (int p = 0; p < PILES && st->stock < DECK; p++) st->cards[p][st->len[p]++] = sp->codes[st->stock++];
}

static void redeal(pstate *st) {
    int p = PILES - 1 - st->rounds, n = st->len[p];
    uint8_t cards[DECK];
    memcpy(cards, st->cards[p], (size_t)n);
    st->len[p] = 0;
    for (int k = 0; k < n; k++) {
        int q = (p + k) % PILES;
        st->cards[q][st->len[q]++] = cards[k];
    }
    st->rounds++;
}

/* ---- the space ---- */

static int is_won_counts(const uint8_t *counts) {
    for (int f = 0; f < FOUNDATIONS; f++)
        if (counts[f] != FOUNDATION_CARDS) return 0;
    return 1;
}

/* pysol_dead_check over a state: 1 lost, 0 not, -1 out of memory. */
static int dead(pysol_space *sp, const pstate *st, int ahead) {
    const uint8_t *piles[PILES];
    for (int p = 0; p < PILES; p++) piles[p] = st->cards[p];
    return pysol_dead_check(sp->dead, piles, st->len, st->counts, st->stock, st->rounds, &st->frozen[0][0], st->nfrozen, &st->passed[0][0],
                            st->npassed, ahead, sp->tangles);
}

static int add_child(const pstate *st, int kind, int pile, const uint8_t *plays, int nplays, children *out) {
    uint8_t state[MAX_STATE], step[3 + 2 * DECK];
    size_t len = write_state(st, state);
    step[0] = (uint8_t)kind, step[1] = (uint8_t)pile, step[2] = (uint8_t)nplays;
    memcpy(step + 3, plays, 2 * (size_t)nplays);
    if (strings_add(&out->states, state, len) < 0 || strings_add(&out->steps, step, 3 + 2 * (size_t)nplays) < 0) return -1;
    return 0;
}

/* A child unless the lost tests cut it (PysolSpace.alive, or with `ahead` PysolSpace.viable). */
static int add_alive(pysol_space *sp, const pstate *st, int ahead, int kind, int pile, const uint8_t *plays, int nplays, children *out) {
    if (!(ahead && (is_won_counts(st->counts) || !sp->check_ends))) {
        int lost = dead(sp, st, ahead);
        if (lost < 0) return -1;
        if (lost) return 0;
    }
    return add_child(st, kind, pile, plays, nplays, out);
}

/* Deals made from the stock, by the deal index of its next card (the last deal is short). */
static int deals_made(int stock) { return stock > LAYOUT ? (stock - LAYOUT + PILES - 1) / PILES : 0; }

/* phi, the level of the search by levels: cards on the foundations + deals made + redeals
 * made. A play (with the shifts it needs), a deal and a redeal each raise it by one; a hold
 * keeps it (docs/SOLVER.md). -1 for bytes that are not a state. */
static int pysol_level(const uint8_t *s, size_t len) {
    size_t i = 0;
    for (int p = 0; p < PILES; p++) {
        while (i < len && s[i] != NONE) i++;
        if (i++ >= len) return -1;
    }
    if (i + FOUNDATIONS + 2 > len) return -1;
    int phi = 0;
    for (int f = 0; f < FOUNDATIONS; f++) phi += s[i + f];
    int stock = s[i + FOUNDATIONS], rounds = s[i + FOUNDATIONS + 1];
    return phi + deals_made(stock) + rounds;
}

/* PysolSpace.edges, with its ends checked or not as `check_ends` says. */
static int pysol_expand(space *base, const uint8_t *state, size_t len, children *out) {
    pysol_space *sp = (pysol_space *)base;
    pstate *st = &sp->here, *ch = &sp->child;
    uint8_t plays[2 * DECK + 2];
    int nplays = 0;
    if (read_state(state, len, st) < 0) {
        base->failure = "a state the PySolFC Matrimony core cannot read";
        return -1;
    }
    if (sp->census) {
        int deals = deals_made(st->stock), cards = 0, holds = st->nfrozen + st->npassed;
        for (int f = 0; f < FOUNDATIONS; f++) cards += st->counts[f];
        sp->census[((deals + st->rounds) * CENSUS_CARDS + cards) * CENSUS_HOLDS + (holds < CENSUS_HOLDS ? holds : CENSUS_HOLDS - 1)]++;
    }
    play_safe(sp, st, plays, &nplays);
    if (is_won_counts(st->counts)) {
        st->nfrozen = st->npassed = 0;
        return add_child(st, STEP_NONE, 0, plays, nplays, out);
    }
    held(sp, st, -1); /* the safe plays may free some */
    uint8_t after[2];
    int p = first_choice(sp, st, after);
    if (p < 0) {
        if (st->stock < DECK) {
            deal_round(sp, st);
            held(sp, st, -1);
            return add_alive(sp, st, 1, STEP_DEAL, 0, plays, nplays, out);
        }
        if (st->rounds < ROUNDS) {
            int pile = PILES - 1 - st->rounds;
            redeal(st);
            held(sp, st, pile);
            return add_alive(sp, st, 1, STEP_REDEAL, pile, plays, nplays, out);
        }
        return 0;
    }
    int h = st->len[p] - 1, code = st->cards[p][h];
    /* play it now */
    *ch = *st;
    play(sp, ch, p, after);
    plays[2 * nplays] = (uint8_t)p, plays[2 * nplays + 1] = (uint8_t)code;
    held(sp, ch, -1);
    if (add_alive(sp, ch, 0, STEP_NONE, 0, plays, nplays + 1, out) < 0) return -1;
    /* or hold it back: as the centre at 13, else until its other copy goes down */
    *ch = *st;
    if (at_thirteen(sp, st->counts, code)) {
        if (!passed_at(ch, p, h)) add_passed(ch, p, h);
    } else if (!frozen_at(sp, ch, p, h, 0))
        add_frozen(ch, p, h, copies_down(sp, st->counts, code));
    held(sp, ch, -1);
    return add_alive(sp, ch, 0, STEP_NONE, 0, plays, nplays, out);
}

static int pysol_is_won(space *base, const uint8_t *state, size_t len) {
    (void)base;
    /* the counts sit after the sixteen piles and their ends */
    size_t i = 0;
    for (int p = 0; p < PILES; p++) {
        while (i < len && state[i] != NONE) i++;
        i++;
    }
    return i + FOUNDATIONS <= len && is_won_counts(state + i);
}

static PyObject *pysol_step(space *base, const uint8_t *step, size_t len) {
    (void)len;
    pysol_space *sp = (pysol_space *)base;
    int n = step[2];
    PyObject *plays = PyTuple_New(n);
    if (!plays) return NULL;
    for (int k = 0; k < n; k++) {
        PyObject *one = Py_BuildValue("(ii)", step[3 + 2 * k], step[4 + 2 * k]);
        if (!one) {
            Py_DECREF(plays);
            return NULL;
        }
        PyTuple_SET_ITEM(plays, k, one);
    }
    PyObject *event;
    if (step[0] == STEP_NONE) event = Py_NewRef(Py_None);
    else if (step[0] == STEP_DEAL) event = Py_NewRef(sp->deal_move);
    else event = PyObject_CallFunction(sp->redeal_class, "i", step[1]);
    if (!event) {
        Py_DECREF(plays);
        return NULL;
    }
    return Py_BuildValue("(NN)", plays, event);
}

static void pysol_release(space *base) {
    pysol_space *sp = (pysol_space *)base;
    Py_XDECREF(sp->deal_move);
    Py_XDECREF(sp->redeal_class);
    if (sp->dead) pysol_dead_free(sp->dead);
    PyMem_RawFree(sp);
}

/* The space over one deal: its 104 codes, each foundation's 13 codes in order, each
 * suit's Jack-down and Queen-up foundations. NULL with a Python error set. */
static space *pysol_space_new(const uint8_t *codes, const uint8_t *takes, const uint8_t *down, const uint8_t *up, int ahead_states,
                              int tangle_states, int tangles, PyObject *deal_move, PyObject *redeal_class) {
    pysol_space *sp = PyMem_RawCalloc(1, sizeof *sp);
    if (!sp) {
        PyErr_NoMemory();
        return NULL;
    }
    sp->base.expand = pysol_expand;
    sp->base.is_won = pysol_is_won;
    sp->base.step_object = pysol_step;
    sp->base.release = pysol_release;
    sp->base.acyclic = 0; /* as PysolSpace: one exact pass */
    memcpy(sp->codes, codes, DECK);
    memcpy(sp->takes, takes, sizeof sp->takes);
    memcpy(sp->down, down, SUITS), memcpy(sp->up, up, SUITS);
    memset(sp->rank_in, NONE, sizeof sp->rank_in);
    for (int f = 0; f < FOUNDATIONS; f++) {
        for (int k = 0; k < FOUNDATION_CARDS; k++) {
            sp->next_code[f][k] = takes[FOUNDATION_CARDS * f + k];
            sp->rank_in[f][takes[FOUNDATION_CARDS * f + k]] = (uint8_t)k;
        }
        sp->next_code[f][FOUNDATION_CARDS] = NONE;
    }
    int seen[52] = {0};
    for (int i = 0; i < DECK; i++) sp->deal_index[codes[i]][seen[codes[i]]++ ? 1 : 0] = (uint8_t)i;
    uint8_t place[52];
    for (int code = 0; code < 52; code++) place[code] = sp->rank_in[up[code / 13]][code];
    sp->tangles = tangles;
    sp->check_ends = 1;
    sp->dead = pysol_dead_new(down, up, place, ahead_states, tangle_states);
    Py_INCREF(deal_move), Py_INCREF(redeal_class);
    sp->deal_move = deal_move, sp->redeal_class = redeal_class;
    if (!sp->dead) {
        pysol_release(&sp->base);
        PyErr_NoMemory();
        return NULL;
    }
    return &sp->base;
}

/* Whether the rules are PySolFC's as the space reads them: every code 0..51 twice in the
 * deal; suit s's foundations down[s] and up[s] take its 13 cards, in opposite orders. */
static int rules_readable(const uint8_t *codes, const uint8_t *takes, const uint8_t *down, const uint8_t *up) {
    int copies[52] = {0};
    for (int i = 0; i < DECK; i++)
        if (codes[i] >= 52 || ++copies[codes[i]] > 2) return 0;
    int used[FOUNDATIONS] = {0};
    for (int s = 0; s < SUITS; s++) {
        if (down[s] >= FOUNDATIONS || up[s] >= FOUNDATIONS || down[s] == up[s] || used[down[s]]++ || used[up[s]]++) return 0;
        for (int k = 0; k < FOUNDATION_CARDS; k++) {
            int a = takes[FOUNDATION_CARDS * up[s] + k], b = takes[FOUNDATION_CARDS * down[s] + FOUNDATION_CARDS - 1 - k];
            if (a != b || a / 13 != s) return 0;
        }
        int in_suit[13] = {0};
        for (int k = 0; k < FOUNDATION_CARDS; k++)
            if (in_suit[takes[FOUNDATION_CARDS * up[s] + k] % 13]++) return 0;
    }
    return 1;
}

/* Whether no card is in the piles, the stock and on the foundations more than twice. */
static int cards_readable(const uint8_t *codes, const uint8_t *takes, const pstate *st) {
    int copies[52] = {0};
    for (int p = 0; p < PILES; p++)
        for (int h = 0; h < st->len[p]; h++) copies[st->cards[p][h]]++;
    for (int i = st->stock; i < DECK; i++) copies[codes[i]]++;
    for (int f = 0; f < FOUNDATIONS; f++)
        for (int k = 0; k < st->counts[f]; k++) copies[takes[FOUNDATION_CARDS * f + k]]++;
    for (int code = 0; code < 52; code++)
        if (copies[code] > 2) return 0;
    return 1;
}

/* The deal and the rules, copied from the caller's buffers (core_copy) and checked. */
typedef struct {
    uint8_t codes[DECK], takes[FOUNDATIONS * FOUNDATION_CARDS], down[SUITS], up[SUITS];
} pysol_rules;

static int read_rules(Py_buffer *codes, Py_buffer *takes, Py_buffer *down, Py_buffer *up, pysol_rules *out) {
    return core_copy(codes, out->codes, DECK) == DECK && core_copy(takes, out->takes, sizeof out->takes) == (Py_ssize_t)sizeof out->takes &&
           core_copy(down, out->down, SUITS) == SUITS && core_copy(up, out->up, SUITS) == SUITS &&
           rules_readable(out->codes, out->takes, out->down, out->up);
}

_Static_assert(MAX_STATE <= CORE_MAX_STATE, "the search's table holds every state");

PyObject *search_pysol(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    static char *names[] = {"state", "codes", "takes", "down", "up", "ahead_states", "tangle_states", "tangles", "deal_move", "redeal_class",
                            "node_limit", "time_limit", "max_states", "first_pass", "census", "layered", "checkpoint", "digest", "every", NULL};
    Py_buffer state, codes, takes, down, up;
    int ahead_states, tangle_states, tangles, census = 0, by_levels = 0;
    PyObject *checkpoint = Py_None;
    Py_buffer digest = {0};
    double every = 600;
    PyObject *deal_move, *redeal_class, *node_limit, *time_limit, *max_states, *first_pass;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*y*y*y*y*iipOOOOOO|$ppOy*d", names, &state, &codes, &takes, &down, &up, &ahead_states,
                                     &tangle_states, &tangles, &deal_move, &redeal_class, &node_limit, &time_limit, &max_states,
                                     &first_pass, &census, &by_levels, &checkpoint, &digest, &every))
        return NULL;
    /* a checkpoint's path as bytes the search keeps while it runs, and its digest */
    PyObject *path = NULL;
    uint8_t digest_copy[32] = {0};
    int checkpoint_ok = checkpoint == Py_None || (by_levels && PyUnicode_FSConverter(checkpoint, &path) && digest.buf && digest.len == 32 && every >= 0);
    if (digest.buf) {
        if (digest.len == 32) memcpy(digest_copy, digest.buf, 32);
        PyBuffer_Release(&digest);
    }
    if (!checkpoint_ok) {
        Py_XDECREF(path);
        PyBuffer_Release(&state), PyBuffer_Release(&codes), PyBuffer_Release(&takes), PyBuffer_Release(&down), PyBuffer_Release(&up);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "a checkpoint needs layered=True, a digest of 32 bytes and every >= 0 seconds");
        return NULL;
    }
    /* the search reads the root without the GIL: its own copy, which no thread can change */
    uint8_t copy[MAX_STATE];
    pysol_rules rules;
    Py_ssize_t len = core_copy(&state, copy, sizeof copy);
    int readable = read_rules(&codes, &takes, &down, &up, &rules);
    PyBuffer_Release(&state), PyBuffer_Release(&codes), PyBuffer_Release(&takes), PyBuffer_Release(&down), PyBuffer_Release(&up);
    limits lim;
    if (core_read_limits(node_limit, time_limit, max_states, first_pass, &lim) < 0) {
        Py_XDECREF(path);
        return NULL;
    }
    pstate *root = PyMem_RawMalloc(sizeof *root);
    if (!root) {
        Py_XDECREF(path);
        return PyErr_NoMemory();
    }
    readable = readable && len >= 0 && ahead_states >= 0 && tangle_states >= 0 && read_state(copy, (size_t)len, root) == 0 &&
               cards_readable(rules.codes, rules.takes, root);
    PyMem_RawFree(root);
    if (!readable) {
        Py_XDECREF(path);
        PyErr_SetString(PyExc_ValueError, "not a PySolFC Matrimony deal and position the compiled core can read");
        return NULL;
    }
    space *sp =
        pysol_space_new(rules.codes, rules.takes, rules.down, rules.up, ahead_states, tangle_states, tangles, deal_move, redeal_class);
    if (!sp) {
        Py_XDECREF(path);
        return NULL;
    }
    if (by_levels && !census) {
        /* with `layered`: the search by levels, (verdict, states, nodes, limit or None, peak held) */
        layered res;
        int rc = core_layers(sp, pysol_level, copy, (size_t)len, &lim, path ? PyBytes_AS_STRING(path) : NULL, digest_copy, every, &res);
        sp->release(sp);
        Py_XDECREF(path);
        if (rc < 0) return NULL;
        return Py_BuildValue("(sLLzL)", res.verdict == VERDICT_WON ? "won" : res.verdict == VERDICT_LOST ? "lost" : "unknown", res.states, res.nodes, res.limit, res.peak);
    }
    Py_XDECREF(path);
    if (by_levels) {
        PyErr_SetString(PyExc_ValueError, "the search by levels keeps no census");
        sp->release(sp);
        return NULL;
    }
    if (!census) return core_run(sp, copy, (size_t)len, &lim);
    /* with `census`: (the search's tuple, the counts as CENSUS_CELLS native 64-bit ints) */
    long long *counts = PyMem_RawCalloc(CENSUS_CELLS, sizeof *counts);
    if (!counts) {
        sp->release(sp);
        return PyErr_NoMemory();
    }
    ((pysol_space *)sp)->census = counts;
    PyObject *out = core_run(sp, copy, (size_t)len, &lim);
    if (out) out = Py_BuildValue("(Ny#)", out, (const char *)counts, (Py_ssize_t)(CENSUS_CELLS * sizeof *counts));
    PyMem_RawFree(counts);
    return out;
}

/* ---- one phase at a time, for beams (PysolPhaseSpace) ----
 *
 * A PysolPhases object keeps one deal's space, with the lost tests' caches, across the
 * calls a beam makes. Its states are the exact space's (bytes, as above); a phase's step is
 * the exact steps it is made of, one after the other (each self-delimiting: kind, pile,
 * number of plays, the plays). */

/* A state met inside a phase: the one it came from, its step from there, its holds. */
typedef struct {
    int32_t parent;
    int32_t holds;
} phase_node;

typedef struct {
    PyObject_HEAD
    pysol_space *sp;
    int outcomes, holds; /* holds < 0: any number */
    int busy;            /* a method is using the scratch below (see phases_enter) */
    children kids;
    strings states, steps; /* node i's state and the step that reached it */
    phase_node *nodes;
    size_t cap_nodes;
    int32_t *todo;
    size_t cap_todo;
    bytemap inner, ends;
    pstate parent, kid;
    uint8_t path[DECK * (3 + 2 * DECK)];
} phases_object;

static void phases_dealloc(PyObject *self) {
    phases_object *ph = (phases_object *)self;
    if (ph->sp) pysol_release(&ph->sp->base);
    strings_free(&ph->kids.states), strings_free(&ph->kids.steps);
    strings_free(&ph->states), strings_free(&ph->steps);
    PyMem_RawFree(ph->nodes), PyMem_RawFree(ph->todo);
    bytemap_free(&ph->inner), bytemap_free(&ph->ends);
    PyObject_Free(self);
}

/* Whether every hold of `child` is one of `here`'s. */
static int holds_within(const pstate *child, const pstate *here) {
    for (int k = 0; k < child->nfrozen; k++) {
        int in = 0;
        for (int j = 0; j < here->nfrozen && !in; j++) in = memcmp(child->frozen[k], here->frozen[j], 3) == 0;
        if (!in) return 0;
    }
    for (int k = 0; k < child->npassed; k++) {
        int in = 0;
        for (int j = 0; j < here->npassed && !in; j++) in = memcmp(child->passed[k], here->passed[j], 2) == 0;
        if (!in) return 0;
    }
    return 1;
}

static int add_node(phases_object *ph, int32_t parent, const uint8_t *state, size_t len, const uint8_t *step, size_t step_len, int32_t holds) {
    size_t n = ph->states.count;
    if (n == ph->cap_nodes) {
        size_t cap = ph->cap_nodes ? 2 * ph->cap_nodes : 256;
        phase_node *nodes = PyMem_RawRealloc(ph->nodes, cap * sizeof *nodes);
        int32_t *todo = PyMem_RawRealloc(ph->todo, cap * sizeof *todo);
        if (nodes) ph->nodes = nodes;
        if (todo) ph->todo = todo;
        if (!nodes || !todo) return -1;
        ph->cap_nodes = ph->cap_todo = cap;
    }
    if (strings_add(&ph->states, state, len) < 0 || strings_add(&ph->steps, step, step_len) < 0) return -1;
    ph->nodes[n].parent = parent, ph->nodes[n].holds = holds;
    return 0;
}

/* The steps from the phase's start to node `n`, then `last`, into ph->path. */
static size_t path_to(phases_object *ph, int32_t n, const uint8_t *last, size_t last_len) {
    size_t total = last_len;
    for (int32_t k = n; k > 0; k = ph->nodes[k].parent) {
        size_t len;
        strings_at(&ph->steps, (size_t)k, &len);
        total += len;
    }
    size_t at = total - last_len;
    memcpy(ph->path + at, last, last_len);
    for (int32_t k = n; k > 0; k = ph->nodes[k].parent) {
        size_t len;
        const uint8_t *step = strings_at(&ph->steps, (size_t)k, &len);
        at -= len;
        memcpy(ph->path + at, step, len);
    }
    return total;
}

static int step_ends_phase(const uint8_t *step, const uint8_t *state, size_t len) {
    return step[0] != STEP_NONE || pysol_is_won(NULL, state, len);
}

/* The children of `state` into ph->kids; 0, or -1 with a Python error set (ValueError for a
 * state the space cannot expand, else out of memory). */
static int expand_kids(phases_object *ph, const uint8_t *state, size_t len) {
    strings_clear(&ph->kids.states), strings_clear(&ph->kids.steps);
    if (pysol_expand(&ph->sp->base, state, len, &ph->kids) == 0) return 0;
    if (ph->sp->base.failure) PyErr_SetString(PyExc_ValueError, ph->sp->base.failure), ph->sp->base.failure = NULL;
    else PyErr_NoMemory();
    return -1;
}

/* PysolPhaseSpace.phase: the ends of the phase from `root`, as (steps, state) pairs
 * appended to `out`. 0, or -1 with a Python error set. */
static int walk_phase(phases_object *ph, const uint8_t *root, size_t root_len, PyObject *out) {
    strings_clear(&ph->states), strings_clear(&ph->steps);
    bytemap_clear(&ph->inner), bytemap_clear(&ph->ends);
    if (add_node(ph, -1, root, root_len, NULL, 0, 0) < 0) goto no_memory;
    size_t ntodo = 0;
    int found = 0;
    ph->todo[ntodo++] = 0;
    while (ntodo) {
        int32_t n = ph->todo[--ntodo];
        size_t len;
        const uint8_t *here = strings_at(&ph->states, (size_t)n, &len);
        if (expand_kids(ph, here, len) < 0) return -1;
        here = strings_at(&ph->states, (size_t)n, &len); /* (unmoved: expanding adds no node) */
        if (read_state(here, len, &ph->parent) < 0) goto unreadable;
        for (size_t i = 0; i < ph->kids.states.count; i++) {
            size_t clen, slen;
            const uint8_t *child = strings_at(&ph->kids.states, i, &clen);
            const uint8_t *step = strings_at(&ph->kids.steps, i, &slen);
            if (!step_ends_phase(step, child, clen)) {
                if (read_state(child, clen, &ph->kid) < 0) goto unreadable;
                int32_t more = ph->nodes[n].holds + !holds_within(&ph->kid, &ph->parent);
                bool seen;
                uint32_t hash;
                bytemap_slot *slot = bytemap_seek(&ph->inner, child, clen, &hash, &seen);
                if (!slot) goto no_memory;
                if (ph->holds < 0) {
                    if (seen) continue;
                } else if (more > ph->holds || (seen && slot->value <= more))
                    continue;
                uint8_t kept = (uint8_t)(more < 255 ? more : 255); /* a bound (at most 250) compares below that */
                if (seen) slot->value = kept;
                else if (bytemap_fill(&ph->inner, slot, child, clen, hash, kept) < 0) goto no_memory;
                if (add_node(ph, n, child, clen, step, slen, more) < 0) goto no_memory;
                ph->todo[ntodo++] = (int32_t)(ph->states.count - 1);
                continue;
            }
            int added = bytemap_add(&ph->ends, child, clen, 0);
            if (added < 0) goto no_memory;
            if (!added) continue;
            size_t plen = path_to(ph, n, step, slen);
            PyObject *pair = Py_BuildValue("(y#y#)", ph->path, (Py_ssize_t)plen, child, (Py_ssize_t)clen);
            if (!pair || PyList_Append(out, pair) < 0) {
                Py_XDECREF(pair);
                return -1;
            }
            Py_DECREF(pair);
            if (++found == ph->outcomes) return 0;
        }
    }
    return 0;
no_memory:
    PyErr_NoMemory();
    return -1;
unreadable:
    PyErr_SetString(PyExc_ValueError, "a state the PySolFC Matrimony core cannot read");
    return -1;
}

/* A method that uses the object's scratch (its space's expansion, the walk's tables, the
 * states read) takes it for the call: 0, or -1 with RuntimeError set when a call is under
 * way. The methods never let go of the GIL, but Python code may run inside one (a garbage
 * collection's callbacks and finalizers while it makes its answer), and that code may call
 * the object again, or let another thread do so. */
static int phases_enter(phases_object *ph) {
    if (ph->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this PysolPhases is answering another call");
        return -1;
    }
    ph->busy = 1;
    return 0;
}

/* A state from Python: 0, or -1 with ValueError set. */
static int state_arg(phases_object *ph, PyObject *arg, const uint8_t **state, Py_ssize_t *len) {
    char *buf;
    if (PyBytes_AsStringAndSize(arg, &buf, len) < 0) return -1;
    *state = (const uint8_t *)buf;
    if (*len > MAX_STATE || read_state(*state, (size_t)*len, &ph->parent) < 0 ||
        !cards_readable(ph->sp->codes, ph->sp->takes, &ph->parent)) {
        PyErr_SetString(PyExc_ValueError, "not a state of this deal");
        return -1;
    }
    return 0;
}

static PyObject *phases_phase(PyObject *self, PyObject *args) {
    phases_object *ph = (phases_object *)self;
    PyObject *state_obj;
    int check_ends;
    const uint8_t *state;
    Py_ssize_t len;
    if (!PyArg_ParseTuple(args, "Sp", &state_obj, &check_ends)) return NULL;
    if (phases_enter(ph) < 0) return NULL;
    PyObject *out = NULL;
    if (state_arg(ph, state_obj, &state, &len) == 0 && (out = PyList_New(0))) {
        ph->sp->check_ends = check_ends;
        if (walk_phase(ph, state, (size_t)len, out) < 0) Py_CLEAR(out);
        ph->sp->check_ends = 1;
    }
    ph->busy = 0;
    return out;
}

/* PysolPhaseSpace.greedy_phase: the exact space's first line through the phase and its end
 * before the end's lost test, as a list of one (steps, state) pair, or an empty list. */
/* The first line through the phase from `here` (the end's state left in `here`), its steps
 * in ph->path: their length (0: no line, as every step has bytes), or -1 with a Python error
 * set. */
static Py_ssize_t greedy_line(phases_object *ph, uint8_t *here, size_t *here_len) {
    size_t plen = 0;
    for (;;) {
        if (expand_kids(ph, here, *here_len) < 0) return -1;
        if (!ph->kids.states.count) return 0;
        size_t clen, slen;
        const uint8_t *child = strings_at(&ph->kids.states, 0, &clen);
        const uint8_t *step = strings_at(&ph->kids.steps, 0, &slen);
        memcpy(ph->path + plen, step, slen);
        plen += slen;
        memcpy(here, child, clen);
        *here_len = clen;
        if (step_ends_phase(step, child, clen)) return (Py_ssize_t)plen;
    }
}

static PyObject *phases_greedy(PyObject *self, PyObject *arg) {
    phases_object *ph = (phases_object *)self;
    const uint8_t *state;
    Py_ssize_t len;
    if (phases_enter(ph) < 0) return NULL;
    PyObject *out = NULL;
    if (state_arg(ph, arg, &state, &len) == 0) {
        uint8_t here[MAX_STATE];
        size_t here_len = (size_t)len;
        memcpy(here, state, here_len);
        ph->sp->check_ends = 0;
        Py_ssize_t plen = greedy_line(ph, here, &here_len);
        ph->sp->check_ends = 1;
        if (plen == 0) out = PyList_New(0);
        else if (plen > 0) out = Py_BuildValue("[(y#y#)]", ph->path, plen, here, (Py_ssize_t)here_len);
    }
    ph->busy = 0;
    return out;
}

/* PysolSpace.viable: won, or not lost with the redeals ahead. */
static PyObject *phases_viable(PyObject *self, PyObject *arg) {
    phases_object *ph = (phases_object *)self;
    const uint8_t *state;
    Py_ssize_t len;
    if (phases_enter(ph) < 0) return NULL;
    PyObject *out = NULL;
    if (state_arg(ph, arg, &state, &len) == 0) {
        int lost = is_won_counts(ph->parent.counts) ? 0 : dead(ph->sp, &ph->parent, 1);
        out = lost < 0 ? PyErr_NoMemory() : PyBool_FromLong(!lost);
    }
    ph->busy = 0;
    return out;
}

static PyObject *phases_won(PyObject *self, PyObject *arg) {
    phases_object *ph = (phases_object *)self;
    const uint8_t *state;
    Py_ssize_t len;
    if (phases_enter(ph) < 0) return NULL;
    int won = state_arg(ph, arg, &state, &len) == 0 ? is_won_counts(ph->parent.counts) : -1;
    ph->busy = 0;
    return won < 0 ? NULL : PyBool_FromLong(won);
}

static PyObject *phases_cards_down(PyObject *self, PyObject *arg) {
    phases_object *ph = (phases_object *)self;
    const uint8_t *state;
    Py_ssize_t len;
    if (phases_enter(ph) < 0) return NULL;
    int down = -1;
    if (state_arg(ph, arg, &state, &len) == 0)
        for (int f = down = 0; f < FOUNDATIONS; f++) down += ph->parent.counts[f];
    ph->busy = 0;
    return down < 0 ? NULL : PyLong_FromLong(down);
}

/* The exact space's steps a phase's steps are made of, as PysolSpace gives them. */
static PyObject *phases_exact_steps(PyObject *self, PyObject *arg) {
    phases_object *ph = (phases_object *)self;
    char *buf;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(arg, &buf, &len) < 0) return NULL;
    const uint8_t *step = (const uint8_t *)buf;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (Py_ssize_t at = 0; at < len;) {
        if (at + 3 > len || at + 3 + 2 * (Py_ssize_t)step[at + 2] > len || step[at] > STEP_REDEAL) {
            Py_DECREF(out);
            PyErr_SetString(PyExc_ValueError, "not the steps of a phase");
            return NULL;
        }
        size_t one = 3 + 2 * (size_t)step[at + 2];
        PyObject *obj = pysol_step(&ph->sp->base, step + at, one);
        if (!obj || PyList_Append(out, obj) < 0) {
            Py_XDECREF(obj);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(obj);
        at += (Py_ssize_t)one;
    }
    return out;
}

static PyMethodDef phases_methods[] = {
    {"phase", phases_phase, METH_VARARGS, "phase(state, check_ends): the ends of the phase from a state, as (steps, state) pairs."},
    {"greedy", phases_greedy, METH_O, "The first line through the phase from a state: [(steps, state)], or [] when it has none."},
    {"viable", phases_viable, METH_O, "Whether a state is won, or not lost with the redeals ahead."},
    {"won", phases_won, METH_O, "Whether every card of a state is on the foundations."},
    {"cards_down", phases_cards_down, METH_O, "The cards on a state's foundations."},
    {"exact_steps", phases_exact_steps, METH_O, "The exact space's steps that a phase's steps are made of."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject phases_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "wedlock._core.PysolPhases",
    .tp_basicsize = sizeof(phases_object),
    .tp_dealloc = phases_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "PySolFC's exact Matrimony space one phase at a time, for beams (made by pysol_phases).",
    .tp_methods = phases_methods,
};

PyObject *pysol_phases(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    static char *names[] = {"codes", "takes", "down", "up", "ahead_states", "tangle_states", "tangles", "deal_move", "redeal_class",
                            "outcomes", "holds", NULL};
    Py_buffer codes, takes, down, up;
    int ahead_states, tangle_states, tangles, outcomes, holds;
    PyObject *deal_move, *redeal_class;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*y*y*y*iipOOii", names, &codes, &takes, &down, &up, &ahead_states, &tangle_states,
                                     &tangles, &deal_move, &redeal_class, &outcomes, &holds))
        return NULL;
    pysol_rules rules;
    int readable = read_rules(&codes, &takes, &down, &up, &rules);
    PyBuffer_Release(&codes), PyBuffer_Release(&takes), PyBuffer_Release(&down), PyBuffer_Release(&up);
    if (!readable || outcomes < 1 || ahead_states < 0 || tangle_states < 0 || holds < -1 || holds > 250) {
        PyErr_SetString(PyExc_ValueError, "not a PySolFC Matrimony deal the compiled core can read");
        return NULL;
    }
    phases_object *ph = PyObject_New(phases_object, &phases_type);
    if (!ph) return NULL;
    memset((char *)ph + sizeof(PyObject), 0, sizeof *ph - sizeof(PyObject));
    ph->outcomes = outcomes, ph->holds = holds;
    ph->sp = (pysol_space *)pysol_space_new(rules.codes, rules.takes, rules.down, rules.up, ahead_states, tangle_states, tangles, deal_move,
                                            redeal_class);
    if (!ph->sp) Py_CLEAR(ph);
    return (PyObject *)ph;
}
