/* Matrimony under PySolFC's rules played out fast, for the searches that learn while they
 * search (wedlock/games/matrimony/rollouts.py, whose pure-Python twin this file follows
 * name for name): nested rollout policy adaptation (NRPA, Rosin 2011) with a bias on each
 * move's logit (Cazenave's GNRPA), nested Monte Carlo search (NMCS, Cazenave 2009), whose
 * greedy base policy makes it the nested rollouts of Bjarnason, Fern and Tadepalli (2009), and
 * UCT (Kocsis and Szepesvari 2006), the other search that paper bounded Klondike with.
 *
 * Two models of a playout's decisions:
 * - free: any primitive move, shifts folded into plays: play a pile's top card (the shifts a
 *   suit at 13 needs come with it), or the next deal or redeal, at any time;
 * - decisions: the exact space's (PysolSpace in pysol_space.py): after the safe plays, the
 *   first playable card that is not held back is played or held back (until its other copy
 *   goes down, or its pile is redealt; at 13, until its suit leaves 13), and when no such card
 *   is left the next deal or redeal comes. Plays in another order reach nothing new, so this
 *   one decides only what matters: which copy goes first, which card is a centre, what waits
 *   for a deal.
 * A card is a label (its place in the deal, or past 103 its place in the start position), so
 * the two copies of a card are two labels and a policy can learn which goes first. A
 * decision's code, which its weight belongs to, is the label, the action (or how many
 * copies of the card are down), and the epoch (deals and redeals made): the same decision
 * in every playout. */
#include "core.h"
#include "pysol_dead.h"

#include <math.h>
#include <time.h>

enum { DECK = 104, PILES = 16, ROUNDS = 16, FC = 13, FOUND = 8, NONE = 255, SUITS = 4, LAYOUT = 2 + PILES };
enum { LABELS = 2 * DECK }; /* the deal's places, then the start position's */
enum { EPOCHS = 6 + ROUNDS + 1, PLAY_CODES = LABELS * 2 * EPOCHS, CODES = PLAY_CODES + EPOCHS };
enum { MOST_MOVES = PILES + 1, EVENT = PILES, HOLD = PILES + 1 }; /* a move: a pile played, the event, HOLD + a pile */
enum { MOST_STEPS = 640 }; /* decisions a playout may take: plenty (a line that holds cards again and again is cut there) */
enum { METHOD_NRPA, METHOD_NMCS, METHOD_UCT };
enum { MODEL_FREE, MODEL_DECISIONS, MODEL_PRUNED };
enum { AHEAD_STATES = 15 }; /* the pruned model's lost test: the quick spaces' budget for the redeals ahead */
enum { MOST_LEVEL = 6, MOST_ITERATIONS = 100000 };

typedef struct {
    uint8_t len[PILES];
    uint8_t pile[PILES][DECK]; /* labels, bottom first */
    uint8_t counts[FOUND];
    uint8_t stock, rounds, epoch;
    uint8_t dead; /* the pruned model: the lost test said so at the last deal or redeal */
    uint8_t nfrozen, npassed;
    uint8_t frozen[DECK][3]; /* held back: (pile, height, copies down then) */
    uint8_t passed[DECK][2]; /* passed over as a centre: (pile, height) */
} rstate;

typedef struct {
    uint8_t code[LABELS]; /* a label's card code */
    uint8_t next[FOUND][FC + 1];
    uint8_t rank_in[FOUND][52];
    uint8_t down[SUITS], up[SUITS];
    uint8_t deal[DECK]; /* the deal's codes, for the stock */
    uint8_t deal_index[52][2]; /* the two copies' places in the deal */
    double bias[4];     /* play, event (or hold), uncover, depth */
    int model;          /* free, decisions, or decisions with the lost test at each deal and redeal */
    pysol_dead *lost;   /* the pruned model's lost test (pysol_dead.c) */
} rgame;

typedef struct {
    int n;
    uint8_t move[MOST_MOVES];
    int32_t code[MOST_MOVES];
    double bias[MOST_MOVES];
} choices;

typedef struct {
    int score, steps;
    uint8_t move[MOST_STEPS];
    choices at[MOST_STEPS]; /* what each step chose from, for NRPA's adaptation */
} line;

typedef struct {
    const rgame *g;
    rstate start;
    twister rng;
    int method, base_greedy;
    long long playouts, most_playouts; /* most_playouts < 0: no limit */
    long long held, most_held;          /* UCT: its tree's nodes, and how many it may hold (< 0: no limit) */
    const char *why;                    /* the limit that stopped it */
    double deadline; /* < 0: none */
    int stopped;     /* 1: a limit, 2: a signal or an error */
    PyThreadState *released;
    double last_check;
} run;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- the rules ---- */

static int card_of(const rgame *g, int label) { return g->code[label]; }

static int at_thirteen(const rgame *g, const uint8_t *counts, int code) {
    int s = code / 13;
    return counts[g->down[s]] + counts[g->up[s]] == FC;
}

static int playable(const rgame *g, const uint8_t *counts, int code) {
    int s = code / 13, d = g->down[s], u = g->up[s];
    if (counts[d] + counts[u] == FC) return 1;
    return g->next[u][counts[u]] == code || g->next[d][counts[d]] == code;
}

static int copies_down(const rgame *g, const uint8_t *counts, int code) {
    int s = code / 13, d = g->down[s], u = g->up[s];
    if (counts[d] + counts[u] == FC) return 1;
    return (counts[d] > g->rank_in[d][code]) + (counts[u] > g->rank_in[u][code]);
}

static void play_code(const rgame *g, uint8_t *counts, int code) {
    int s = code / 13, d = g->down[s], u = g->up[s];
    if (counts[d] + counts[u] == FC) { /* the centre: the shifts put the split where it goes */
        counts[d] = (uint8_t)(g->rank_in[d][code] + 1), counts[u] = (uint8_t)(g->rank_in[u][code] + 1);
        return;
    }
    if (g->next[u][counts[u]] == code)
        counts[u]++;
    else
        counts[d]++;
    if (counts[d] + counts[u] == FC) counts[d] = 0, counts[u] = FC;
}

static int cards_down(const rstate *st) {
    int n = 0;
    for (int f = 0; f < FOUND; f++) n += st->counts[f];
    return n;
}

static int has_event(const rstate *st) { return st->stock < DECK || st->rounds < ROUNDS; }

static int won(const rstate *st) {
    for (int f = 0; f < FOUND; f++)
        if (st->counts[f] != FC) return 0;
    return 1;
}

/* The top card of pile p onto its foundation. */
static void play_top(const rgame *g, rstate *st, int p) {
    int label = st->pile[p][--st->len[p]];
    play_code(g, st->counts, card_of(g, label));
}

/* The next deal, or the next redeal (its pile's cards, bottom first, onto it and onward). */
static void event(rstate *st) {
    if (st->stock < DECK) {
        for (int p = 0; p < PILES && st->stock < DECK; p++) st->pile[p][st->len[p]++] = st->stock++;
    } else {
        int p = PILES - 1 - st->rounds, n = st->len[p];
        uint8_t cards[DECK];
        memcpy(cards, st->pile[p], (size_t)n);
        st->len[p] = 0;
        for (int k = 0; k < n; k++) {
            int q = (p + k) % PILES;
            st->pile[q][st->len[q]++] = cards[k];
        }
        st->rounds++;
    }
    st->epoch++;
}

/* ---- the decisions model: holds and safe plays, as PysolSpace has them ---- */

/* Copies of `code` in piles other than p, with the stock empty. */
static int copies_elsewhere(const rgame *g, const rstate *st, int p, int code) {
    int n = 2 - copies_down(g, st->counts, code);
    for (int k = 0; k < st->len[p]; k++) n -= card_of(g, st->pile[p][k]) == code;
    return n;
}

/* Whether a redeal before pile p's own might put a card on p (PysolSuits.may_land_on). */
static int may_land_on(const rstate *st, int p, int next_redeal) {
    int most[PILES], known[PILES] = {0};
    for (int q = next_redeal; q >= p; q--) {
        int n = st->len[q];
        for (int q2 = next_redeal; q2 > q; q2--) {
            if (!known[q2]) continue;
            int first = PILES + q - q2;
            if (most[q2] > first) n += (most[q2] - first - 1) / PILES + 1;
        }
        if (q == p) return n > st->len[p];
        most[q] = n, known[q] = 1;
    }
    return 0;
}

/* Whether playing pile p's top card now is never worse than keeping it (PysolSuits.safe). */
static int safe(const rgame *g, const rstate *st, int p) {
    if (st->stock < DECK) return 0;
    int n = st->len[p], code = card_of(g, st->pile[p][n - 1]);
    if (at_thirteen(g, st->counts, code) || copies_elsewhere(g, st, p, code)) return 0;
    int next_redeal = PILES - 1 - st->rounds;
    if (p > next_redeal) return 1;
    int twice = 0;
    for (int k = 0; k < n; k++) twice += card_of(g, st->pile[p][k]) == code;
    if (twice > 1) return 0;
    return p + n - 1 < PILES && !may_land_on(st, p, next_redeal);
}

static int frozen_at(const rstate *st, int p, int h) {
    for (int k = 0; k < st->nfrozen; k++)
        if (st->frozen[k][0] == p && st->frozen[k][1] == h) return 1;
    return 0;
}

static int passed_at(const rstate *st, int p, int h) {
    for (int k = 0; k < st->npassed; k++)
        if (st->passed[k][0] == p && st->passed[k][1] == h) return 1;
    return 0;
}

/* Drop the holds that no longer bind: the card's other copy has gone down since (or the
 * card itself), its suit has left 13, or its pile was redealt (`redealt`, -1: none). */
static void drop_holds(const rgame *g, rstate *st, int redealt) {
    int kept = 0;
    for (int k = 0; k < st->nfrozen; k++) {
        int p = st->frozen[k][0], h = st->frozen[k][1];
        if (p != redealt && h < st->len[p] && copies_down(g, st->counts, card_of(g, st->pile[p][h])) == st->frozen[k][2])
            memcpy(st->frozen[kept++], st->frozen[k], 3);
    }
    st->nfrozen = (uint8_t)kept;
    kept = 0;
    for (int k = 0; k < st->npassed; k++) {
        int p = st->passed[k][0], h = st->passed[k][1];
        if (p != redealt && h < st->len[p] && at_thirteen(g, st->counts, card_of(g, st->pile[p][h])))
            memcpy(st->passed[kept++], st->passed[k], 2);
    }
    st->npassed = (uint8_t)kept;
}

/* The safe plays, as long as there are any (a held card is set free when its other copy
 * goes down), each written to `out` when given; then the holds that no longer bind go. */
static void advance(const rgame *g, rstate *st, uint8_t *out, int *n) {
    if (g->model == MODEL_FREE) return;
    for (int again = 1; again;) {
        again = 0;
        if (st->nfrozen) drop_holds(g, st, -1);
        for (int p = 0; p < PILES; p++) {
            int len = st->len[p];
            if (!len || !playable(g, st->counts, card_of(g, st->pile[p][len - 1])) || frozen_at(st, p, len - 1) || !safe(g, st, p))
                continue;
            play_top(g, st, p);
            if (out) out[(*n)++] = (uint8_t)p;
            again = 1;
            break;
        }
    }
    drop_holds(g, st, -1);
}

/* Whether the lost test (one suit at a time, with the redeals ahead) calls the position
 * lost for the lines that keep its holds; memory running out leaves it not lost. */
static uint8_t lost_now(const rgame *g, const rstate *st) {
    uint8_t codes[PILES][DECK], frozen[DECK * 3], passed[DECK * 2];
    const uint8_t *piles[PILES];
    for (int p = 0; p < PILES; p++) {
        for (int k = 0; k < st->len[p]; k++) codes[p][k] = (uint8_t)card_of(g, st->pile[p][k]);
        piles[p] = codes[p];
    }
    memcpy(frozen, st->frozen, (size_t)st->nfrozen * 3);
    memcpy(passed, st->passed, (size_t)st->npassed * 2);
    return pysol_dead_check(g->lost, piles, st->len, st->counts, st->stock, st->rounds, frozen, st->nfrozen, passed, st->npassed, 1, 0) == 1;
}

/* A decision made: a play, a hold, or the event (then the holds of a redealt pile go). */
static void apply(const rgame *g, rstate *st, int move) {
    if (move < PILES) {
        play_top(g, st, move);
    } else if (move == EVENT) {
        int redealt = st->stock < DECK ? -1 : PILES - 1 - st->rounds;
        event(st);
        if (g->model != MODEL_FREE) drop_holds(g, st, redealt);
        if (g->model == MODEL_PRUNED) st->dead = lost_now(g, st);
    } else {
        int p = move - HOLD, h = st->len[p] - 1, code = card_of(g, st->pile[p][h]);
        if (at_thirteen(g, st->counts, code)) {
            int k = st->npassed++;
            st->passed[k][0] = (uint8_t)p, st->passed[k][1] = (uint8_t)h;
        } else {
            int k = st->nfrozen++;
            st->frozen[k][0] = (uint8_t)p, st->frozen[k][1] = (uint8_t)h, st->frozen[k][2] = (uint8_t)copies_down(g, st->counts, code);
        }
    }
}

/* A play's bias: the play's own, more for each card under it, more when it uncovers a card
 * that can go next. */
static double play_bias(const rgame *g, const rstate *st, int p) {
    int n = st->len[p], code = card_of(g, st->pile[p][n - 1]);
    double bias = g->bias[0] + g->bias[3] * (n - 1);
    if (n > 1) {
        uint8_t after[FOUND];
        memcpy(after, st->counts, FOUND);
        play_code(g, after, code);
        if (playable(g, after, card_of(g, st->pile[p][n - 2]))) bias += g->bias[2];
    }
    return bias;
}

/* The choices of a position, with their codes and biases, in the order the Python twin
 * lists them. Free: the piles' plays first to last, then the deal or redeal. Decisions:
 * the first card that is not held back, played or held; with none, the event. */
static void moves_of(const rgame *g, const rstate *st, choices *out) {
    out->n = 0;
    if (st->dead) return; /* a lost line ends there */
    for (int p = 0; p < PILES; p++) {
        int n = st->len[p];
        if (!n) continue;
        int label = st->pile[p][n - 1], code = card_of(g, label);
        if (!playable(g, st->counts, code)) continue;
        if (g->model != MODEL_FREE) {
            if (frozen_at(st, p, n - 1) || (passed_at(st, p, n - 1) && at_thirteen(g, st->counts, code))) continue;
            int base = (label * 2) * EPOCHS + st->epoch;
            out->move[0] = (uint8_t)p, out->code[0] = base, out->bias[0] = play_bias(g, st, p);
            out->move[1] = (uint8_t)(HOLD + p), out->code[1] = base + EPOCHS, out->bias[1] = g->bias[1];
            out->n = 2;
            return;
        }
        int k = out->n++;
        out->move[k] = (uint8_t)p;
        out->code[k] = (label * 2 + copies_down(g, st->counts, code)) * EPOCHS + st->epoch;
        out->bias[k] = play_bias(g, st, p);
    }
    if (has_event(st)) {
        int k = out->n++;
        out->move[k] = EVENT;
        out->code[k] = PLAY_CODES + st->epoch;
        out->bias[k] = g->model == MODEL_FREE ? g->bias[1] : 0.0;
    }
}

/* The primitive moves of a line of decisions from `start`: safe plays, plays, events. */
static int line_moves(const rgame *g, rstate st, const uint8_t *decisions, int steps, uint8_t *out) {
    int n = 0;
    advance(g, &st, out, &n);
    for (int t = 0; t < steps; t++) {
        int move = decisions[t];
        apply(g, &st, move);
        if (move <= EVENT) out[n++] = (uint8_t)move;
        advance(g, &st, out, &n);
    }
    return n;
}

/* ---- limits ---- */

/* Whether the run must stop: a limit (checked every 32 playouts) or Ctrl-C (every 0.05 s). */
static int stop_now(run *r) {
    if (r->stopped) return 1;
    if (r->most_playouts >= 0 && r->playouts >= r->most_playouts) return r->why = "node_limit", r->stopped = 1;
    if (r->playouts % 32) return 0;
    double t = now();
    if (r->deadline >= 0 && t > r->deadline) return r->why = "time_limit", r->stopped = 1;
    if (t - r->last_check > 0.05) {
        r->last_check = t;
        PyEval_RestoreThread(r->released);
        int signalled = PyErr_CheckSignals() < 0;
        r->released = PyEval_SaveThread();
        if (signalled) return r->stopped = 2;
    }
    return 0;
}

/* ---- playouts ---- */

/* One choice drawn with probabilities in proportion to exp(weight + bias); weights NULL:
 * the bias alone, or its greatest (first) when `greedy`. */
static int draw(run *r, const choices *c, const double *weights, int greedy) {
    if (c->n == 1) return 0;
    double logit[MOST_MOVES], top = -HUGE_VAL;
    for (int i = 0; i < c->n; i++) {
        logit[i] = c->bias[i] + (weights ? weights[c->code[i]] : 0.0);
        if (logit[i] > top) top = logit[i];
    }
    if (greedy) {
        for (int i = 0; i < c->n; i++)
            if (logit[i] == top) return i;
    }
    double total = 0, e[MOST_MOVES];
    for (int i = 0; i < c->n; i++) total += e[i] = exp(logit[i] - top);
    double u = twister_random(&r->rng) * total;
    for (int i = 0; i < c->n - 1; i++) {
        u -= e[i];
        if (u < 0) return i;
    }
    return c->n - 1;
}

/* Play `st` out to its end, appending to `out` (from out->steps on): by the weights, or by
 * the base policy (the bias, drawn or greedy). */
static void playout(run *r, rstate st, const double *weights, int greedy, line *out) {
    r->playouts++;
    advance(r->g, &st, NULL, NULL);
    while (!won(&st) && out->steps < MOST_STEPS) {
        choices *c = &out->at[out->steps];
        moves_of(r->g, &st, c);
        if (!c->n) break;
        int i = draw(r, c, weights, greedy);
        out->move[out->steps++] = c->move[i];
        apply(r->g, &st, c->move[i]);
        advance(r->g, &st, NULL, NULL);
    }
    out->score = cards_down(&st);
}

/* A line copied, only as far as it goes. */
static void copy_line(line *to, const line *from) {
    to->score = from->score, to->steps = from->steps;
    memcpy(to->move, from->move, (size_t)from->steps);
    memcpy(to->at, from->at, sizeof(choices) * (size_t)from->steps);
}

/* ---- NRPA ---- */

/* Rosin's adaptation: every choice of the best line made likelier, the probabilities all
 * taken from the weights as they were (the changes are gathered first, then made). */
static void adapt(double *policy, const line *best, double alpha) {
    int32_t code[MOST_STEPS * MOST_MOVES];
    double delta[MOST_STEPS * MOST_MOVES];
    int n = 0;
    for (int t = 0; t < best->steps; t++) {
        const choices *c = &best->at[t];
        double top = -HUGE_VAL, z = 0, e[MOST_MOVES];
        for (int i = 0; i < c->n; i++)
            if (policy[c->code[i]] + c->bias[i] > top) top = policy[c->code[i]] + c->bias[i];
        for (int i = 0; i < c->n; i++) z += e[i] = exp(policy[c->code[i]] + c->bias[i] - top);
        for (int i = 0; i < c->n; i++) {
            code[n] = c->code[i];
            delta[n++] = (c->move[i] == best->move[t] ? alpha : 0.0) - alpha * e[i] / z;
        }
    }
    for (int k = 0; k < n; k++) policy[code[k]] += delta[k];
}

/* Level `level` of NRPA from the start, with `policy` (changed): the best line into `best`. */
static int nrpa(run *r, int level, int iterations, double *policy, line *best) {
    if (level == 0) {
        best->steps = 0;
        playout(r, r->start, policy, 0, best);
        return 0;
    }
    double *mine = PyMem_RawMalloc(sizeof(double) * CODES);
    line *found = PyMem_RawMalloc(sizeof *found);
    if (!mine || !found) {
        PyMem_RawFree(mine), PyMem_RawFree(found);
        return -1;
    }
    best->score = -1, best->steps = 0;
    for (int i = 0; i < iterations && !stop_now(r); i++) {
        memcpy(mine, policy, sizeof(double) * CODES);
        if (nrpa(r, level - 1, iterations, mine, found) < 0) {
            PyMem_RawFree(mine), PyMem_RawFree(found);
            return -1;
        }
        if (found->score >= best->score) copy_line(best, found);
        if (best->score == DECK) break;
        adapt(policy, best, 1.0);
    }
    PyMem_RawFree(mine), PyMem_RawFree(found);
    return 0;
}

/* ---- NMCS ---- */

/* Level `level` of NMCS from `st`, whose line so far is in `so_far` (its first `done` steps):
 * the best line found into `best`. */
static int nmcs(run *r, const rstate *from, int level, line *so_far, int done, line *best) {
    if (level == 0) {
        memcpy(best->move, so_far->move, (size_t)done);
        best->steps = done;
        playout(r, *from, NULL, r->base_greedy, best);
        return 0;
    }
    line *trial = PyMem_RawMalloc(sizeof *trial);
    if (!trial) return -1;
    rstate st = *from;
    advance(r->g, &st, NULL, NULL);
    best->score = -1, best->steps = done;
    memcpy(best->move, so_far->move, (size_t)done);
    while (!won(&st) && !stop_now(r) && done < MOST_STEPS) {
        choices c;
        moves_of(r->g, &st, &c);
        if (!c.n) break;
        for (int i = 0; i < c.n && !stop_now(r); i++) {
            rstate child = st;
            apply(r->g, &child, c.move[i]);
            advance(r->g, &child, NULL, NULL);
            so_far->move[done] = c.move[i];
            if (nmcs(r, &child, level - 1, so_far, done + 1, trial) < 0) {
                PyMem_RawFree(trial);
                return -1;
            }
            if (trial->score > best->score) {
                best->score = trial->score, best->steps = trial->steps;
                memcpy(best->move, trial->move, (size_t)trial->steps);
                if (best->score == DECK) break;
            }
        }
        if (best->score == DECK || best->steps <= done) break;
        int next = best->move[done]; /* follow the best line found so far */
        so_far->move[done++] = (uint8_t)next;
        apply(r->g, &st, next);
        advance(r->g, &st, NULL, NULL);
    }
    PyMem_RawFree(trial);
    return 0;
}

/* ---- UCT ---- */

typedef struct {
    int32_t child; /* the first child (a node's children are consecutive); -1: not expanded */
    uint8_t n;     /* children */
    uint8_t move;  /* the decision that leads here */
    int32_t visits;
    double total; /* the rewards of the playouts through it: cards down / 104 */
} tnode;

enum { MOST_NODES = 1 << 25 }; /* past them the tree stops growing, whatever the state limit: its leaves play out */

/* UCT from the start: select by UCB1 (the mean reward plus `exploration` times the root of
 * log N / n; an unvisited child first), expand a leaf, play out with the base policy, and
 * add the playout's reward along the path. The best line into `best`. */
static int uct(run *r, double exploration, line *best) {
    size_t cap = 1024, count = 1;
    tnode *nodes = PyMem_RawMalloc(cap * sizeof *nodes);
    line *trial = PyMem_RawMalloc(sizeof *trial);
    if (!nodes || !trial) {
        PyMem_RawFree(nodes), PyMem_RawFree(trial);
        return -1;
    }
    nodes[0] = (tnode){-1, 0, 0, 0, 0.0};
    r->held = 1;
    best->score = -1, best->steps = 0;
    int32_t path[MOST_STEPS + 2];
    while (!stop_now(r)) {
        rstate st = r->start;
        advance(r->g, &st, NULL, NULL);
        int32_t k = 0;
        int depth = 0;
        path[depth++] = 0;
        trial->steps = 0;
        while (nodes[k].child >= 0 && nodes[k].n > 0 && trial->steps < MOST_STEPS) {
            int32_t first = nodes[k].child, chosen = -1;
            double top = -HUGE_VAL, log_n = log((double)nodes[k].visits);
            for (int i = 0; i < nodes[k].n; i++) {
                const tnode *c = &nodes[first + i];
                if (!c->visits) {
                    chosen = first + i;
                    break;
                }
                double value = c->total / c->visits + exploration * sqrt(log_n / c->visits);
                if (value > top) top = value, chosen = first + i;
            }
            k = chosen;
            trial->move[trial->steps++] = nodes[k].move;
            apply(r->g, &st, nodes[k].move);
            advance(r->g, &st, NULL, NULL);
            path[depth++] = k;
        }
        if (nodes[k].child < 0 && trial->steps < MOST_STEPS) { /* expand the leaf, and go down to its first child */
            choices c;
            moves_of(r->g, &st, &c);
            if (won(&st)) c.n = 0;
            if (r->most_held >= 0 && (long long)(count + (size_t)c.n) > r->most_held) {
                r->why = "max_states", r->stopped = 1; /* the tree holds what it may */
                break;
            }
            if (count + (size_t)c.n <= MOST_NODES) {
                if (count + (size_t)c.n > cap) {
                    size_t more = 2 * cap;
                    tnode *grown = PyMem_RawRealloc(nodes, more * sizeof *nodes);
                    if (!grown) {
                        PyMem_RawFree(nodes), PyMem_RawFree(trial);
                        return -1;
                    }
                    nodes = grown, cap = more;
                }
                nodes[k].child = (int32_t)count, nodes[k].n = (uint8_t)c.n;
                for (int i = 0; i < c.n; i++) nodes[count + (size_t)i] = (tnode){-1, 0, c.move[i], 0, 0.0};
                count += (size_t)c.n;
                r->held = (long long)count;
                if (c.n) {
                    k = nodes[k].child;
                    trial->move[trial->steps++] = nodes[k].move;
                    apply(r->g, &st, nodes[k].move);
                    advance(r->g, &st, NULL, NULL);
                    path[depth++] = k;
                }
            }
        }
        playout(r, st, NULL, r->base_greedy, trial);
        double reward = trial->score / (double)DECK;
        for (int d = 0; d < depth; d++) nodes[path[d]].visits++, nodes[path[d]].total += reward;
        if (trial->score > best->score) {
            best->score = trial->score, best->steps = trial->steps;
            memcpy(best->move, trial->move, (size_t)trial->steps);
        }
        if (best->score == DECK) break;
    }
    PyMem_RawFree(nodes), PyMem_RawFree(trial);
    return 0;
}

/* ---- from Python ---- */

static int read_game(const uint8_t *deal, const uint8_t *takes, const uint8_t *down, const uint8_t *up, rgame *g) {
    for (int i = 0; i < DECK; i++) {
        if (deal[i] >= 52) return -1;
        g->deal[i] = g->code[i] = deal[i];
    }
    memset(g->rank_in, NONE, sizeof g->rank_in);
    for (int f = 0; f < FOUND; f++) {
        for (int k = 0; k < FC; k++) {
            int code = takes[f * FC + k];
            if (code >= 52 || g->rank_in[f][code] != NONE) return -1;
            g->next[f][k] = (uint8_t)code, g->rank_in[f][code] = (uint8_t)k;
        }
        g->next[f][FC] = NONE;
    }
    for (int s = 0; s < SUITS; s++) {
        if (down[s] >= FOUND || up[s] >= FOUND || down[s] == up[s]) return -1;
        g->down[s] = down[s], g->up[s] = up[s];
        for (int k = 0; k < FC; k++)
            if (g->next[down[s]][k] / 13 != s || g->next[up[s]][k] / 13 != s) return -1;
    }
    return 0;
}

/* The start: piles given as card codes, bottom first, each ended by 255; the counts; the
 * stock's next deal index; the redeals made. Pile cards get the labels past the deal's. */
static int read_start(const uint8_t *s, size_t len, rgame *g, rstate *st) {
    size_t i = 0;
    int label = DECK;
    for (int p = 0; p < PILES; p++) {
        int n = 0;
        while (i < len && s[i] != NONE) {
            if (s[i] >= 52 || n == DECK || label == LABELS) return -1;
            g->code[label] = s[i++];
            st->pile[p][n++] = (uint8_t)label++;
        }
        if (i == len) return -1;
        i++;
        st->len[p] = (uint8_t)n;
    }
    if (len - i != FOUND + 2) return -1;
    memcpy(st->counts, s + i, FOUND);
    st->stock = s[i + FOUND], st->rounds = s[i + FOUND + 1];
    for (int f = 0; f < FOUND; f++)
        if (st->counts[f] > FC) return -1;
    for (int su = 0; su < SUITS; su++) /* a suit at 13, however split, as the searches write it */
        if (st->counts[g->down[su]] + st->counts[g->up[su]] == FC) st->counts[g->down[su]] = 0, st->counts[g->up[su]] = FC;
    if (st->stock > DECK || st->rounds > ROUNDS || (st->stock < DECK && st->rounds)) return -1;
    int cards = 0;
    for (int p = 0; p < PILES; p++) cards += st->len[p];
    for (int f = 0; f < FOUND; f++) cards += st->counts[f];
    if (cards + (DECK - st->stock) != DECK) return -1;
    if (st->stock < LAYOUT) return -1;
    st->epoch = (uint8_t)((st->stock - LAYOUT + PILES - 1) / PILES + st->rounds); /* deals made, then redeals */
    return 0;
}

/* pysol_rollouts(deal, takes, down, up, start, model, method, level, iterations, greedy, bias,
 * exploration, seed, time_limit, most_playouts, most_held) -> (cards down, moves, playouts, held, stopped): the best line
 * found, its primitive moves a byte each (a pile 0-15 whose top card is played, 16 the next
 * deal or redeal). */
PyObject *pysol_rollouts(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    static char *names[] = {"deal", "takes", "down", "up", "start", "model", "method", "level", "iterations", "greedy", "bias",
                            "exploration", "seed", "time_limit", "most_playouts", "most_held", NULL};
    Py_buffer deal, takes, down, up, start;
    int model, method, level, iterations, greedy;
    double bias[4], exploration;
    unsigned long long seed;
    PyObject *time_limit, *most_playouts, *most_held;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*y*y*y*y*iiiip(dddd)dKOOO", names, &deal, &takes, &down, &up, &start, &model, &method,
                                     &level, &iterations, &greedy, &bias[0], &bias[1], &bias[2], &bias[3], &exploration, &seed, &time_limit,
                                     &most_playouts, &most_held))
        return NULL;
    uint8_t d[DECK], t[FOUND * FC], dn[SUITS], u[SUITS], s[DECK + PILES + FOUND + 2];
    int whole = core_copy(&deal, d, sizeof d) == DECK && core_copy(&takes, t, sizeof t) == FOUND * FC &&
                core_copy(&down, dn, sizeof dn) == SUITS && core_copy(&up, u, sizeof u) == SUITS;
    Py_ssize_t start_len = core_copy(&start, s, sizeof s);
    PyBuffer_Release(&deal), PyBuffer_Release(&takes), PyBuffer_Release(&down), PyBuffer_Release(&up), PyBuffer_Release(&start);
    limits lim;
    if (core_read_limits(most_playouts, time_limit, most_held, Py_None, &lim) < 0) return NULL;
    rgame *g = PyMem_RawMalloc(sizeof *g);
    run *r = PyMem_RawMalloc(sizeof *r);
    line *best = PyMem_RawMalloc(sizeof *best);
    double *policy = PyMem_RawCalloc(CODES, sizeof(double));
    if (!g || !r || !best || !policy) {
        PyMem_RawFree(g), PyMem_RawFree(r), PyMem_RawFree(best), PyMem_RawFree(policy);
        return PyErr_NoMemory();
    }
    memset(r, 0, sizeof *r);
    int ok = whole && start_len >= 0 && read_game(d, t, dn, u, g) == 0 && read_start(s, (size_t)start_len, g, &r->start) == 0 &&
             (method == METHOD_NRPA || method == METHOD_NMCS || method == METHOD_UCT) && (model == MODEL_FREE || model == MODEL_DECISIONS || model == MODEL_PRUNED) && level >= 0 && level <= MOST_LEVEL && iterations >= 1 &&
             iterations <= MOST_ITERATIONS;
    for (int i = 0; i < 4; i++) ok = ok && isfinite(bias[i]) && fabs(bias[i]) <= 1000;
    ok = ok && isfinite(exploration) && exploration >= 0 && exploration <= 1000;
    if (!ok) {
        PyMem_RawFree(g), PyMem_RawFree(r), PyMem_RawFree(best), PyMem_RawFree(policy);
        PyErr_SetString(PyExc_ValueError, "not a PySolFC Matrimony deal, position and search the compiled core can run");
        return NULL;
    }
    memcpy(g->bias, bias, sizeof g->bias);
    g->model = model;
    g->lost = NULL;
    if (model == MODEL_PRUNED) {
        uint8_t place[52];
        for (int code = 0; code < 52; code++) place[code] = g->rank_in[g->up[code / 13]][code];
        g->lost = pysol_dead_new(g->down, g->up, place, AHEAD_STATES, 0);
        if (!g->lost) {
            PyMem_RawFree(g), PyMem_RawFree(r), PyMem_RawFree(best), PyMem_RawFree(policy);
            return PyErr_NoMemory();
        }
    }
    r->g = g, r->method = method, r->base_greedy = greedy;
    r->most_playouts = lim.node_limit, r->most_held = lim.max_states;
    r->held = method == METHOD_UCT ? 1 : level + 1; /* NRPA and NMCS hold a line a level, and the playout's */
    twister_seed(&r->rng, seed);
    r->last_check = now();
    r->deadline = lim.time_limit >= 0 ? r->last_check + lim.time_limit : -1.0;
    int rc;
    r->released = PyEval_SaveThread();
    if (method == METHOD_NRPA) {
        rc = nrpa(r, level, iterations, policy, best);
    } else if (method == METHOD_UCT) {
        rc = uct(r, exploration, best);
    } else {
        line *so_far = PyMem_RawMalloc(sizeof *so_far);
        rc = so_far ? nmcs(r, &r->start, level, so_far, 0, best) : -1;
        PyMem_RawFree(so_far);
    }
    PyEval_RestoreThread(r->released);
    int stopped = r->stopped;
    long long playouts = r->playouts;
    PyObject *out = NULL;
    if (stopped == 2)
        ; /* the signal's exception is set */
    else if (rc < 0)
        PyErr_NoMemory();
    else {
        const char *why = stopped ? r->why : NULL;
        uint8_t moves[DECK + MOST_STEPS];
        int n = best->score < 0 ? 0 : line_moves(g, r->start, best->move, best->steps, moves);
        out = Py_BuildValue("(iy#LLz)", best->score < 0 ? 0 : best->score, (const char *)moves, (Py_ssize_t)n, playouts, r->held, why);
    }
    pysol_dead_free(g->lost);
    PyMem_RawFree(g), PyMem_RawFree(r), PyMem_RawFree(best), PyMem_RawFree(policy);
    return out;
}
