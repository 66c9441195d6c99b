/* The Monte Carlo family's referee on small ints, in C: it replays a line of coded moves
 * on a deal and says whether the line wins, and how many of its moves are legal.
 *
 * It is the twin of `replay_codes` in wedlock/games/montecarlo/verify.py, written again from the
 * rules (docs/RULES.md) and sharing nothing with the search: no move generator, no
 * neighbour table, no state encoding. The search finds a line; this file only checks one.
 * tests/games/test_referees.py holds it to the Python replay and to the reference referee on
 * random lines, legal or not, and on the solver's lines, whole and damaged.
 *
 * A card is its code, 13 * suit + rank - 1, so its rank is code % 13 + 1. The table is one
 * array: the grid's cells in reading order, then the stock from its next card. An empty
 * cell holds GAP. A move is a tuple of ints:
 *     (a, x, b, y)   remove card x at cell a and card y at cell b, a touching pair
 *     (a, x)         remove the king x at cell a on its own (Thirteens)
 *     ()             consolidate: close the gaps and deal from the stock
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "referee.h"

enum {
    GAP = -1,
    KING = 12,         /* a king's code % 13 */
    MOST_DECKS = 8,
    MOST_CARDS = 52 * MOST_DECKS,
    MOST_ROWS = 10,    /* rows are named A to J */
    MOST_COLS = 9,     /* columns 1 to 9 */
};

typedef struct {
    int rows, cols, size;  /* the grid */
    int thirteens;         /* pairs total 13 and a king goes alone; else pairs share a rank */
    int columns;           /* cards close up their columns (Weddings); else they slide in reading order */
    int strict;            /* consolidate only when nothing can be removed */
    int cards[MOST_CARDS]; /* the grid, then the stock */
    int len;               /* entries in `cards` */
} table;

static int rank_of(int code) { return code % 13; } /* rank - 1 */

/* The cells that exist: under the sliding rules, once the stock is out, the table is
   shorter than the grid, and the cells past its end are gaps. */
static int on_grid(const table *t) { return t->len < t->size ? t->len : t->size; }

static int touch(const table *t, int a, int b) {
    int dr = a / t->cols - b / t->cols, dc = a % t->cols - b % t->cols;
    return a != b && dr >= -1 && dr <= 1 && dc >= -1 && dc <= 1;
}

static int match(const table *t, int x, int y) {
    if (t->thirteens) return rank_of(x) + rank_of(y) == 11; /* ranks total 13; a king (12) never does */
    return rank_of(x) == rank_of(y);
}

/* Whether a pair, or in Thirteens a lone king, may be removed from the grid now. */
static int removal_open(const table *t) {
    int cells = on_grid(t);
    for (int a = 0; a < cells; a++) {
        int x = t->cards[a];
        if (x == GAP) continue;
        if (t->thirteens && rank_of(x) == KING) return 1;
        for (int b = a + 1; b < cells; b++)
            if (t->cards[b] != GAP && touch(t, a, b) && match(t, x, t->cards[b])) return 1;
    }
    return 0;
}

/* Whether the rules allow consolidating now: a gap to close and, once the stock is out, a
   card that the closing moves; in the strict rules, nothing left to remove. */
static int may_consolidate(const table *t) {
    int first_gap = -1;
    for (int i = 0; i < t->len && first_gap < 0; i++)
        if (t->cards[i] == GAP) first_gap = i;
    if (first_gap < 0) return 0;
    if (t->len <= t->size) { /* the stock is out */
        int moves_a_card = 0;
        if (t->columns) {
            for (int cell = t->cols; cell < t->size && !moves_a_card; cell++)
                moves_a_card = t->cards[cell] != GAP && t->cards[cell - t->cols] == GAP;
        } else {
            for (int i = first_gap + 1; i < t->len && !moves_a_card; i++) moves_a_card = t->cards[i] != GAP;
        }
        if (!moves_a_card) return 0;
    }
    return !(t->strict && removal_open(t));
}

/* The sliding consolidation: every later card, the grid's and then the stock's, moves back
   one place over each gap, so the gaps leave the table. */
static void slide(table *t) {
    int kept = 0;
    for (int i = 0; i < t->len; i++)
        if (t->cards[i] != GAP) t->cards[kept++] = t->cards[i];
    t->len = kept;
}

/* Weddings' consolidation: each column closes up, straight up; then the gaps, in reading
   order, take the stock's cards. */
static void close_columns(table *t) {
    int grid[MOST_ROWS * MOST_COLS];
    for (int col = 0; col < t->cols; col++) {
        int row = 0;
        for (int cell = col; cell < t->size; cell += t->cols)
            if (t->cards[cell] != GAP) grid[row++ * t->cols + col] = t->cards[cell];
        for (; row < t->rows; row++) grid[row * t->cols + col] = GAP;
    }
    int next = t->size; /* the stock's next card */
    for (int cell = 0; cell < t->size; cell++) {
        if (grid[cell] == GAP && next < t->len) grid[cell] = t->cards[next++];
        t->cards[cell] = grid[cell];
    }
    int left = t->len - next;
    memmove(t->cards + t->size, t->cards + next, (size_t)left * sizeof t->cards[0]);
    t->len = t->size + left;
}

/* The ints of a move, when it is a tuple or list of at most four ints that fit; else -1. */
static Py_ssize_t read_move(PyObject *move, long long out[4]) {
    if (!PyTuple_Check(move) && !PyList_Check(move)) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(move);
    if (n > 4) return -1;
    PyObject **items = PySequence_Fast_ITEMS(move);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyLong_Check(items[i])) return -1;
        int overflow;
        out[i] = PyLong_AsLongLongAndOverflow(items[i], &overflow);
        if (overflow) return -1;
    }
    return n;
}

static int holds(const table *t, long long cell, long long card) {
    return cell >= 0 && cell < on_grid(t) && card >= 0 && t->cards[cell] == card;
}

/* Play one move if it is legal: 1 when it was, 0 when not. */
static int play(table *t, PyObject *move) {
    long long v[4];
    Py_ssize_t n = read_move(move, v);
    if (n == 4) { /* a pair */
        long long a = v[0], x = v[1], b = v[2], y = v[3];
        if (!holds(t, a, x) || !holds(t, b, y) || !touch(t, (int)a, (int)b) || !match(t, (int)x, (int)y)) return 0;
        t->cards[a] = t->cards[b] = GAP;
        return 1;
    }
    if (n == 2) { /* a lone king */
        if (!t->thirteens || !holds(t, v[0], v[1]) || rank_of((int)v[1]) != KING) return 0;
        t->cards[v[0]] = GAP;
        return 1;
    }
    if (n == 0) { /* consolidate */
        if (!may_consolidate(t)) return 0;
        if (t->columns) close_columns(t);
        else slide(t);
        return 1;
    }
    return 0;
}

PyObject *referee_montecarlo(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer deal;
    int rows, cols, decks, thirteens, columns, strict;
    PyObject *moves;
    if (!PyArg_ParseTuple(args, "y*iiipppO", &deal, &rows, &cols, &decks, &thirteens, &columns, &strict, &moves)) return NULL;
    /* the bounds first: a product of sizes no grid has could overflow an int */
    int fits = rows >= 1 && rows <= MOST_ROWS && cols >= 1 && cols <= MOST_COLS && decks >= 1 && decks <= MOST_DECKS &&
               rows * cols <= 52 * decks; /* the deal fills the grid */
    table t = {.rows = rows, .cols = cols, .size = fits ? rows * cols : 0, .thirteens = thirteens, .columns = columns, .strict = strict};
    int whole = fits && deal.len == 52 * decks;
    if (whole) { /* exactly `decks` full packs */
        const unsigned char *codes = deal.buf;
        int seen[52] = {0};
        t.len = (int)deal.len;
        for (int i = 0; i < t.len && whole; i++) {
            whole = codes[i] < 52 && ++seen[codes[i]] <= decks;
            t.cards[i] = codes[i];
        }
    }
    PyBuffer_Release(&deal);
    if (!fits) {
        PyErr_SetString(PyExc_ValueError, "a grid of 1 to 10 rows and 1 to 9 columns, 1 to 8 decks that fill it");
        return NULL;
    }
    if (!whole) return Py_BuildValue("(Oi)", Py_False, 0);
    PyObject *line = PySequence_Fast(moves, "moves is a sequence of tuples");
    if (!line) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(line), played = 0;
    PyObject **items = PySequence_Fast_ITEMS(line);
    while (played < count && play(&t, items[played])) played++;
    Py_DECREF(line);
    int won = played == count;
    for (int i = 0; i < t.len && won; i++) won = t.cards[i] == GAP;
    return Py_BuildValue("(On)", won ? Py_True : Py_False, played);
}
