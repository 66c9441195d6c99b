/* Matrimony under Peter Arnold's rules as a compiled space: the twin of ArnoldSpace in
 * wedlock/games/matrimony/arnold_space.py, which says why each phase, safe play and dead line
 * is sound. The functions here follow that file's, name for name.
 *
 * A state: the stock's next deal index, the redeal steps made, the eight foundation counts
 * (twins sorted), the sixteen pile lengths, then the piles' card codes bottom first. It is
 * its own key, as the Python space's Position is. A step: what ends the phase (0 the plays
 * win, 1 a deal, 2 a redeal) and the redealt pile, the number of plays, then three bytes a
 * play: pile, card code, foundation. */
#include "bytemap.h"
#include "core.h"

#include <string.h>

enum { DECK = 104, PILES = 16, ROUNDS = 16, FOUNDATION_CARDS = 13, FOUNDATIONS = 8, NONE = 255, DIAMONDS = 3 };
enum { HEADER = 2 + FOUNDATIONS + PILES, MAX_STATE = HEADER + DECK };
_Static_assert((int)MAX_STATE == (int)ARNOLD_MAX_STATE, "callers copy whole states");
_Static_assert(MAX_STATE <= CORE_MAX_STATE, "the search's table holds every state");

typedef struct {
    uint8_t stock, rounds;
    uint8_t counts[FOUNDATIONS];
    uint8_t len[PILES];
    uint8_t cards[PILES][DECK];
} position;

typedef struct {
    space base;
    uint8_t codes[DECK];
    uint8_t takes[FOUNDATIONS][FOUNDATION_CARDS];
    uint8_t next_code[FOUNDATIONS][FOUNDATION_CARDS + 1];
    uint8_t rank_in[FOUNDATIONS][52];
    uint8_t homes[52][2];
    int twin[FOUNDATIONS];
    int twins[3][2];
    uint8_t deal_index[52][2];
    int up, down;
    PyObject *deal_move, *redeal_class;
    /* one expansion's phase: the floors of its start, and what lies below them */
    uint8_t floors[PILES];
    uint8_t buried[52];
    bytemap seen, found; /* sets */
    strings todo_states, todo_plays, found_states, found_plays;
} arnold_space;

/* ---- states ---- */

static void read_state(const uint8_t *s, position *pos) {
    pos->stock = s[0], pos->rounds = s[1];
    memcpy(pos->counts, s + 2, FOUNDATIONS);
    memcpy(pos->len, s + 2 + FOUNDATIONS, PILES);
    const uint8_t *c = s + HEADER;
    for (int p = 0; p < PILES; p++) {
        memcpy(pos->cards[p], c, pos->len[p]);
        c += pos->len[p];
    }
}

static size_t write_state(const position *pos, uint8_t *s) {
    s[0] = pos->stock, s[1] = pos->rounds;
    memcpy(s + 2, pos->counts, FOUNDATIONS);
    memcpy(s + 2 + FOUNDATIONS, pos->len, PILES);
    uint8_t *c = s + HEADER;
    for (int p = 0; p < PILES; p++) {
        memcpy(c, pos->cards[p], pos->len[p]);
        c += pos->len[p];
    }
    return (size_t)(c - s);
}

static void canonical(const arnold_space *sp, uint8_t *counts) {
    for (int t = 0; t < 3; t++) {
        int a = sp->twins[t][0], b = sp->twins[t][1];
        if (counts[a] > counts[b]) {
            uint8_t x = counts[a];
            counts[a] = counts[b], counts[b] = x;
        }
    }
}

/* ---- one phase ---- */

static int count_of(const uint8_t *cards, int n, int code) {
    int k = 0;
    for (int i = 0; i < n; i++) k += cards[i] == code;
    return k;
}

/* `floors`: the floors of the phase's piles and the count of each card below them. */
static void find_floors(arnold_space *sp, const position *phase) {
    uint8_t in_m[52] = {0}, exposed[52] = {0};
    int reach[FOUNDATIONS], tops[PILES];
    for (int f = 0; f < FOUNDATIONS; f++) reach[f] = phase->counts[f];
    for (int q = 0; q < PILES; q++) {
        tops[q] = phase->len[q] - 1;
        if (phase->len[q]) exposed[phase->cards[q][phase->len[q] - 1]] = 1;
    }
    int grew = 1;
    while (grew) {
        grew = 0;
        for (int f = 0; f < FOUNDATIONS; f++) {
            int k = reach[f];
            const uint8_t *way = sp->takes[f];
            while (k < FOUNDATION_CARDS && (in_m[way[k]] || exposed[way[k]])) {
                if (!in_m[way[k]]) in_m[way[k]] = 1, grew = 1;
                k++;
            }
            reach[f] = k;
        }
        if (grew)
            for (int q = 0; q < PILES; q++) {
                int t = tops[q];
                if (t >= 0 && in_m[phase->cards[q][t]]) {
                    t--;
                    while (t >= 0 && in_m[phase->cards[q][t]]) t--;
                    tops[q] = t;
                    if (t >= 0) exposed[phase->cards[q][t]] = 1;
                }
            }
    }
    memset(sp->buried, 0, sizeof sp->buried);
    for (int q = 0; q < PILES; q++) {
        sp->floors[q] = (uint8_t)(tops[q] > 0 ? tops[q] : 0);
        for (int i = 0; i < sp->floors[q]; i++) sp->buried[phase->cards[q][i]]++;
    }
}

static int copies_in_other_piles(const arnold_space *sp, const position *pos, int p, int code) {
    int a = sp->homes[code][0], b = sp->homes[code][1];
    int on_foundations = (pos->counts[a] > sp->rank_in[a][code]) + (pos->counts[b] > sp->rank_in[b][code]);
    int first = sp->deal_index[code][0], second = sp->deal_index[code][1];
    return 2 - on_foundations - (first >= pos->stock) - (second >= pos->stock) - count_of(pos->cards[p], pos->len[p], code);
}

static int may_be_played(const arnold_space *sp, const position *pos, int p, int code) {
    int others = copies_in_other_piles(sp, pos, p, code);
    if (!others) return 0;
    int below = sp->floors[p] < pos->len[p] ? sp->floors[p] : pos->len[p];
    return others > sp->buried[code] - count_of(pos->cards[p], below, code);
}

static int may_come_to_take(const arnold_space *sp, const position *pos, int p, int code, int f) {
    int g = f == sp->up ? sp->down : sp->up;
    int reach = sp->rank_in[g][code];
    if (reach < pos->counts[g]) return 0;
    for (int k = pos->counts[g]; k < reach; k++)
        if (!may_be_played(sp, pos, p, sp->takes[g][k])) return 0;
    return 1;
}

static int exposed_copy(const position *pos, int p, int code) {
    for (int q = 0; q < PILES; q++)
        if (q != p && pos->len[q] && pos->cards[q][pos->len[q] - 1] == code) return q;
    return -1;
}

/* `safe`: the plays to make at once (as pile, foundation pairs; their number), or 0 to branch. */
static int safe(const arnold_space *sp, const position *pos, int p, int code, const int *takers, int ntakers, int out[2][2]) {
    if (ntakers == 2) {
        if (sp->twin[takers[0]] == takers[1]) {
            out[0][0] = p, out[0][1] = takers[0];
            return 1;
        }
        int other = exposed_copy(pos, p, code);
        if (other < 0) return 0;
        out[0][0] = p, out[0][1] = takers[0], out[1][0] = other, out[1][1] = takers[1];
        return 2;
    }
    int f = takers[0];
    if (may_be_played(sp, pos, p, code)) return 0;
    if (code / 13 == DIAMONDS && may_come_to_take(sp, pos, p, code, f)) return 0;
    out[0][0] = p, out[0][1] = f;
    return 1;
}

static inline int top_of(const position *pos, int q) { return pos->len[q] ? pos->cards[q][pos->len[q] - 1] : NONE; }

/* `play_safe`: make safe plays (appended to `plays`, three bytes each) until none is left;
 * then the plays that remain, as (pile, foundation) pairs into `options`; their number. */
static int play_safe(const arnold_space *sp, position *pos, uint8_t *plays, int *nplays, uint8_t options[][2]) {
    for (;;) {
        int nopt = 0, made = 0;
        uint8_t wanted[52] = {0};
        for (int f = 0; f < FOUNDATIONS; f++) {
            int code = sp->next_code[f][pos->counts[f]];
            if (code != NONE) wanted[code] = 1;
        }
        for (int code = 0; code < 52 && !made; code++) {
            if (!wanted[code]) continue;
            for (int p = 0; p < PILES; p++) {
                if (top_of(pos, p) != code) continue;
                int takers[2] = {0, 0}, ntakers = 0;
                for (int h = 0; h < 2; h++) {
                    int f = sp->homes[code][h];
                    if (sp->next_code[f][pos->counts[f]] == code) takers[ntakers++] = f;
                }
                int plan[2][2];
                int n = safe(sp, pos, p, code, takers, ntakers, plan);
                if (!n) {
                    for (int t = 0; t < ntakers; t++) options[nopt][0] = (uint8_t)p, options[nopt][1] = (uint8_t)takers[t], nopt++;
                    continue;
                }
                for (int k = 0; k < n; k++) {
                    int q = plan[k][0], f = plan[k][1];
                    uint8_t *play = plays + 3 * (*nplays)++;
                    play[0] = (uint8_t)q, play[1] = (uint8_t)code, play[2] = (uint8_t)f;
                    pos->len[q]--;
                    pos->counts[f]++;
                }
                made = 1; /* the foundations have moved on: scan again */
                break;
            }
        }
        if (!made) return nopt;
    }
}

/* ---- dead lines ---- */

static int dead(const arnold_space *sp, const position *pos) {
    if (pos->stock < DECK || !pos->rounds) return 0;
    uint8_t marks[256];
    memset(marks, NONE, sizeof marks);
    const uint8_t *counts = pos->counts;
    int up = sp->up, down = sp->down;
    int from[5], to[5], on[5];
    int cu = counts[up], cd = counts[down];
    on[0] = up, from[0] = cu > FOUNDATION_CARDS - cd ? cu : FOUNDATION_CARDS - cd, to[0] = FOUNDATION_CARDS;
    on[1] = down, from[1] = cd > FOUNDATION_CARDS - cu ? cd : FOUNDATION_CARDS - cu, to[1] = FOUNDATION_CARDS;
    for (int t = 0; t < 3; t++) on[2 + t] = sp->twins[t][0], from[2 + t] = counts[sp->twins[t][0]], to[2 + t] = counts[sp->twins[t][1]];
    for (int c = 0; c < 5; c++)
        for (int k = from[c]; k < to[c]; k++) marks[sp->takes[on[c]][k]] = (uint8_t)(16 * c + (k - from[c]));
    for (int q = PILES - pos->rounds; q < PILES; q++) {
        int lowest[5] = {-1, -1, -1, -1, -1};
        for (int i = 0; i < pos->len[q]; i++) {
            int mark = marks[pos->cards[q][i]];
            if (mark == NONE) continue;
            int chain = mark >> 4;
            if (lowest[chain] < 0 || mark < lowest[chain]) lowest[chain] = mark;
            else if (mark > lowest[chain]) return 1;
        }
    }
    return 0;
}

/* ---- successors ---- */

static int add_child(arnold_space *sp, children *out, const position *stuck_in, const uint8_t *plays, int nplays) {
    position stuck = *stuck_in;
    canonical(sp, stuck.counts);
    uint8_t step[3 + 3 * DECK], state[MAX_STATE];
    int won = 1;
    for (int f = 0; f < FOUNDATIONS; f++) won &= stuck.counts[f] == FOUNDATION_CARDS;
    step[1] = 0;
    if (won) step[0] = 0;
    else if (stuck.stock < DECK) {
        step[0] = 1; /* deal a card onto each pile while the stock lasts */
        for (int p = 0; p < PILES && stuck.stock < DECK; p++) stuck.cards[p][stuck.len[p]++] = sp->codes[stuck.stock++];
    } else if (stuck.rounds < ROUNDS) {
        int p = PILES - 1 - stuck.rounds, n = stuck.len[p];
        uint8_t cards[DECK];
        memcpy(cards, stuck.cards[p], (size_t)n);
        stuck.len[p] = 0;
        for (int k = 0; k < n; k++) {
            int q = (p + k) % PILES;
            stuck.cards[q][stuck.len[q]++] = cards[k];
        }
        stuck.rounds++;
        if (dead(sp, &stuck)) return 0;
        step[0] = 2, step[1] = (uint8_t)p;
    } else
        return 0; /* stuck for good */
    step[2] = (uint8_t)nplays;
    if (nplays) memcpy(step + 3, plays, 3 * (size_t)nplays);
    size_t len = write_state(&stuck, state);
    if (strings_add(&out->states, state, len) < 0 || strings_add(&out->steps, step, 3 + 3 * (size_t)nplays) < 0) return -1;
    return 0;
}

/* The phase key of a position inside a phase: its piles and canonical counts. */
static size_t phase_key(const arnold_space *sp, const position *pos, uint8_t *key) {
    position c = *pos;
    canonical(sp, c.counts);
    return write_state(&c, key);
}

static int arnold_expand(space *base, const uint8_t *state, size_t len, children *out) {
    (void)len;
    arnold_space *sp = (arnold_space *)base;
    position phase, pos;
    read_state(state, &phase);
    find_floors(sp, &phase);
    pos = phase;
    uint8_t plays[3 * DECK], options[2 * PILES][2];
    int nplays = 0;
    int nopt = play_safe(sp, &pos, plays, &nplays, options);
    if (!nopt) return add_child(sp, out, &pos, plays, nplays);
    /* `settle`: every distinct stuck position the plays can reach, first reached first */
    bytemap_clear(&sp->seen);
    bytemap_clear(&sp->found);
    strings_clear(&sp->todo_states), strings_clear(&sp->todo_plays);
    strings_clear(&sp->found_states), strings_clear(&sp->found_plays);
    uint8_t key[MAX_STATE], buffer[MAX_STATE];
    int first = 1;
    if (strings_add(&sp->todo_states, buffer, write_state(&pos, buffer)) < 0) goto no_memory;
    if (strings_add(&sp->todo_plays, plays, 3 * (size_t)nplays) < 0) goto no_memory;
    while (sp->todo_states.count) {
        size_t n = sp->todo_states.count - 1, slen, plen;
        const uint8_t *s = strings_at(&sp->todo_states, n, &slen);
        const uint8_t *pl = strings_at(&sp->todo_plays, n, &plen);
        read_state(s, &pos);
        nplays = (int)(plen / 3);
        if (plen) memcpy(plays, pl, plen);
        sp->todo_states.count--, sp->todo_states.used = n ? sp->todo_states.ends[n - 1] : 0;
        sp->todo_plays.count--, sp->todo_plays.used = n ? sp->todo_plays.ends[n - 1] : 0;
        if (!first) nopt = play_safe(sp, &pos, plays, &nplays, options);
        first = 0;
        if (!nopt) {
            int added = bytemap_add(&sp->found, key, phase_key(sp, &pos, key), 0);
            if (added < 0) goto no_memory;
            if (added) {
                if (strings_add(&sp->found_states, buffer, write_state(&pos, buffer)) < 0) goto no_memory;
                if (strings_add(&sp->found_plays, plays, 3 * (size_t)nplays) < 0) goto no_memory;
            }
            continue;
        }
        for (int o = 0; o < nopt; o++) {
            int p = options[o][0], f = options[o][1];
            position after = pos;
            int code = after.cards[p][--after.len[p]];
            after.counts[f]++;
            int added = bytemap_add(&sp->seen, key, phase_key(sp, &after, key), 0);
            if (added < 0) goto no_memory;
            if (!added) continue;
            uint8_t *play = plays + 3 * nplays;
            play[0] = (uint8_t)p, play[1] = (uint8_t)code, play[2] = (uint8_t)f;
            if (strings_add(&sp->todo_states, buffer, write_state(&after, buffer)) < 0) goto no_memory;
            if (strings_add(&sp->todo_plays, plays, 3 * (size_t)(nplays + 1)) < 0) goto no_memory;
        }
    }
    for (size_t i = 0; i < sp->found_states.count; i++) {
        size_t slen, plen;
        const uint8_t *s = strings_at(&sp->found_states, i, &slen);
        const uint8_t *pl = strings_at(&sp->found_plays, i, &plen);
        read_state(s, &pos);
        if (add_child(sp, out, &pos, pl, (int)(plen / 3)) < 0) goto no_memory;
    }
    return 0;
no_memory:
    return -1;
}

static int arnold_is_won(space *base, const uint8_t *state, size_t len) {
    (void)base, (void)len;
    for (int f = 0; f < FOUNDATIONS; f++)
        if (state[2 + f] != FOUNDATION_CARDS) return 0;
    return 1;
}

static PyObject *arnold_step(space *base, const uint8_t *step, size_t len) {
    (void)len;
    arnold_space *sp = (arnold_space *)base;
    int n = step[2];
    PyObject *plays = PyTuple_New(n);
    if (!plays) return NULL;
    for (int k = 0; k < n; k++) {
        PyObject *play = Py_BuildValue("(iii)", step[3 + 3 * k], step[4 + 3 * k], step[5 + 3 * k]);
        if (!play) {
            Py_DECREF(plays);
            return NULL;
        }
        PyTuple_SET_ITEM(plays, k, play);
    }
    PyObject *forced;
    if (step[0] == 0) forced = Py_NewRef(Py_None);
    else if (step[0] == 1) forced = Py_NewRef(sp->deal_move);
    else forced = PyObject_CallFunction(sp->redeal_class, "i", step[1]);
    if (!forced) {
        Py_DECREF(plays);
        return NULL;
    }
    return Py_BuildValue("(NN)", plays, forced);
}

static void arnold_release(space *base) {
    arnold_space *sp = (arnold_space *)base;
    Py_XDECREF(sp->deal_move);
    Py_XDECREF(sp->redeal_class);
    bytemap_free(&sp->seen), bytemap_free(&sp->found);
    strings_free(&sp->todo_states), strings_free(&sp->todo_plays);
    strings_free(&sp->found_states), strings_free(&sp->found_plays);
    PyMem_RawFree(sp);
}

static int takes_card(const uint8_t *takes, int f, int code) {
    for (int k = 0; k < FOUNDATION_CARDS; k++)
        if (takes[FOUNDATION_CARDS * f + k] == code) return 1;
    return 0;
}

int arnold_readable(const uint8_t *codes, const uint8_t *takes, const uint8_t *homes, int up, int down, const uint8_t *state, size_t len) {
    int copies[52] = {0};
    for (int i = 0; i < DECK; i++)
        if (codes[i] >= 52 || ++copies[codes[i]] > 2) return 0;
    for (int i = 0; i < FOUNDATIONS * FOUNDATION_CARDS; i++)
        if (takes[i] >= 52) return 0;
    for (int i = 0; i < 2 * 52; i++)
        if (homes[i] >= FOUNDATIONS) return 0;
    if (up < 0 || up >= FOUNDATIONS || down < 0 || down >= FOUNDATIONS) return 0;
    /* each card is taken by both its foundations, and each diamond by both diamond ones */
    for (int code = 0; code < 52; code++) {
        if (!takes_card(takes, homes[2 * code], code) || !takes_card(takes, homes[2 * code + 1], code)) return 0;
        if (code / 13 == DIAMONDS && (!takes_card(takes, up, code) || !takes_card(takes, down, code))) return 0;
    }
    if (len < HEADER || len > MAX_STATE || state[0] > DECK || state[1] > ROUNDS) return 0;
    for (int f = 0; f < FOUNDATIONS; f++)
        if (state[2 + f] > FOUNDATION_CARDS) return 0;
    size_t cards = 0;
    for (int p = 0; p < PILES; p++) cards += state[2 + FOUNDATIONS + p];
    /* the piles and what the stock still deals fit in one pile each */
    if (len != HEADER + cards || cards + (DECK - state[0]) > DECK) return 0;
    for (size_t i = HEADER; i < len; i++)
        if (state[i] >= 52) return 0;
    return 1;
}

space *arnold_space_new(const uint8_t *codes, const uint8_t *takes, const uint8_t *homes, int up, int down, PyObject *deal_move,
                        PyObject *redeal_class) {
    arnold_space *sp = PyMem_RawCalloc(1, sizeof *sp);
    if (!sp) return NULL;
    sp->base.expand = arnold_expand;
    sp->base.is_won = arnold_is_won;
    sp->base.step_object = arnold_step;
    sp->base.release = arnold_release;
    sp->base.acyclic = 1; /* every step deals or redeals */
    memcpy(sp->codes, codes, DECK);
    memset(sp->rank_in, NONE, sizeof sp->rank_in);
    for (int f = 0; f < FOUNDATIONS; f++) {
        for (int k = 0; k < FOUNDATION_CARDS; k++) {
            sp->takes[f][k] = sp->next_code[f][k] = takes[FOUNDATION_CARDS * f + k];
            sp->rank_in[f][sp->takes[f][k]] = (uint8_t)k;
        }
        sp->next_code[f][FOUNDATION_CARDS] = NONE;
        sp->twin[f] = -1;
    }
    for (int c = 0; c < 52; c++) sp->homes[c][0] = homes[2 * c], sp->homes[c][1] = homes[2 * c + 1];
    static const int twins[3][2] = {{2, 3}, {4, 5}, {6, 7}};
    for (int t = 0; t < 3; t++) {
        sp->twins[t][0] = twins[t][0], sp->twins[t][1] = twins[t][1];
        sp->twin[twins[t][0]] = twins[t][1], sp->twin[twins[t][1]] = twins[t][0];
    }
    int seen[52] = {0};
    for (int i = 0; i < DECK; i++) {
        int c = codes[i];
        sp->deal_index[c][seen[c] ? 1 : 0] = (uint8_t)i;
        seen[c]++;
    }
    sp->up = up, sp->down = down;
    Py_INCREF(deal_move), Py_INCREF(redeal_class);
    sp->deal_move = deal_move, sp->redeal_class = redeal_class;
    return &sp->base;
}
