/* Matrimony under PySolFC's rules as a compiled space: the twin of PysolSpace in
 * wedlock/matrimony/pysol_space.py (one decision per edge: the first playable card is
 * played now or held back), which says why the safe plays and the holds lose no win. The
 * functions here follow that file's, name for name; the lost tests are pysol_dead.c.
 *
 * A state is PysolSpace.key's bytes, so it is its own key and the two searches count the
 * same states: each pile's card codes bottom first, ended by 255; the eight foundation
 * counts (a suit at 13 written as Jack-down 0, Queen-up 13); the stock's next deal index;
 * the redeals made; the frozen holds (pile, height, copies down), sorted, ended by 255;
 * the passed holds (pile, height), sorted. A step: what ends it (0 nothing, 1 a deal, 2 a
 * redeal), the redealt pile, the number of plays, then two bytes a play: pile, card code. */
#include "core.h"
#include "pysol_dead.h"

#include <string.h>

enum { DECK = 104, PILES = 16, ROUNDS = 16, FOUNDATION_CARDS = 13, FOUNDATIONS = 8, NONE = 255, SUITS = 4 };
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
    uint8_t next_code[FOUNDATIONS][FOUNDATION_CARDS + 1];
    uint8_t rank_in[FOUNDATIONS][52];
    uint8_t down[SUITS], up[SUITS];
    uint8_t deal_index[52][2];
    int tangles;
    pysol_dead *dead;
    PyObject *deal_move, *redeal_class;
    pstate here, child; /* one expansion's work */
} pysol_space;

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
    for (int k = 0; k < st->nfrozen; k++)
        if (st->frozen[k][0] >= PILES || st->frozen[k][1] >= st->len[st->frozen[k][0]] || st->frozen[k][2] > 1) return -1;
    for (int k = 0; k < st->npassed; k++)
        if (st->passed[k][0] >= PILES || st->passed[k][1] >= st->len[st->passed[k][0]]) return -1;
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

static int add_child(pysol_space *sp, const pstate *st, int kind, int pile, const uint8_t *plays, int nplays, children *out) {
    uint8_t state[MAX_STATE], step[3 + 2 * DECK];
    size_t len = write_state(st, state);
    step[0] = (uint8_t)kind, step[1] = (uint8_t)pile, step[2] = (uint8_t)nplays;
    memcpy(step + 3, plays, 2 * (size_t)nplays);
    (void)sp;
    if (strings_add(&out->states, state, len) < 0 || strings_add(&out->steps, step, 3 + 2 * (size_t)nplays) < 0) return -1;
    return 0;
}

/* A child unless the lost tests cut it (PysolSpace.alive, or with `ahead` PysolSpace.viable). */
static int add_alive(pysol_space *sp, const pstate *st, int ahead, int kind, int pile, const uint8_t *plays, int nplays, children *out) {
    if (!(ahead && is_won_counts(st->counts))) {
        int lost = dead(sp, st, ahead);
        if (lost < 0) return -1;
        if (lost) return 0;
    }
    return add_child(sp, st, kind, pile, plays, nplays, out);
}

/* PysolSpace.edges with its ends checked. */
static int pysol_expand(space *base, const uint8_t *state, size_t len, children *out) {
    pysol_space *sp = (pysol_space *)base;
    pstate *st = &sp->here, *ch = &sp->child;
    uint8_t plays[2 * DECK + 2];
    int nplays = 0;
    if (read_state(state, len, st) < 0) {
        base->failure = "a state the PySolFC Matrimony core cannot read";
        return -1;
    }
    play_safe(sp, st, plays, &nplays);
    if (is_won_counts(st->counts)) {
        st->nfrozen = st->npassed = 0;
        return add_child(sp, st, STEP_NONE, 0, plays, nplays, out);
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

PyObject *search_pysol(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    static char *names[] = {"state", "codes", "takes", "down", "up", "ahead_states", "tangle_states", "tangles", "deal_move", "redeal_class",
                            "node_limit", "time_limit", "max_states", "first_pass", NULL};
    Py_buffer state, codes, takes, down, up;
    int ahead_states, tangle_states, tangles;
    PyObject *deal_move, *redeal_class, *node_limit, *time_limit, *max_states, *first_pass;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*y*y*y*y*iipOOOOOO", names, &state, &codes, &takes, &down, &up, &ahead_states,
                                     &tangle_states, &tangles, &deal_move, &redeal_class, &node_limit, &time_limit, &max_states,
                                     &first_pass))
        return NULL;
    PyObject *out = NULL;
    pstate *root = PyMem_RawMalloc(sizeof *root);
    if (!root) {
        PyErr_NoMemory();
        goto done;
    }
    if (codes.len != DECK || takes.len != FOUNDATIONS * FOUNDATION_CARDS || down.len != SUITS || up.len != SUITS ||
        !rules_readable(codes.buf, takes.buf, down.buf, up.buf) || state.len > MAX_STATE ||
        read_state(state.buf, (size_t)state.len, root) < 0 || !cards_readable(codes.buf, takes.buf, root)) {
        PyErr_SetString(PyExc_ValueError, "not a PySolFC Matrimony deal and position the compiled core can read");
        goto done;
    }
    limits lim;
    if (core_read_limits(node_limit, time_limit, max_states, first_pass, &lim) < 0) goto done;
    space *sp = pysol_space_new(codes.buf, takes.buf, down.buf, up.buf, ahead_states, tangle_states, tangles, deal_move, redeal_class);
    if (!sp) goto done;
    out = core_run(sp, state.buf, (size_t)state.len, &lim);
done:
    PyMem_RawFree(root);
    PyBuffer_Release(&state), PyBuffer_Release(&codes), PyBuffer_Release(&takes), PyBuffer_Release(&down), PyBuffer_Release(&up);
    return out;
}
