/* The compiled core: the search of wedlock/search/exhaustive.py and some of its spaces, in C.
 *
 * A space here is a set of C functions over states that are byte strings. A state is its
 * own canonical key (the space reduces it before handing it out), so the search hashes
 * states directly. Each expansion lists the children in the same order as the Python
 * space, with a step per child that the space turns back into the Python space's step
 * object; the search is a line-by-line twin of search/exhaustive.py's, so both report the same
 * verdicts and the same state counts (tests/search/test_core.py).
 */
#ifndef WEDLOCK_CORE_H
#define WEDLOCK_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A 64-bit hash of a byte string, for the hash tables of the search and of the spaces. */
static inline uint64_t core_hash(const uint8_t *p, size_t n) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n;
    while (n >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        h = (h ^ v) * 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 31;
        p += 8, n -= 8;
    }
    uint64_t v = 0;
    memcpy(&v, p, n);
    h = (h ^ v) * 0x94d049bb133111ebULL;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return h;
}

/* A growable list of byte strings, kept in one buffer. */
typedef struct {
    uint8_t *bytes;
    size_t used, cap;
    size_t *ends; /* ends[i]: where string i stops; string i starts at ends[i - 1] (or 0) */
    size_t count, cap_count;
} strings;

int strings_add(strings *s, const uint8_t *data, size_t len);
void strings_clear(strings *s);
void strings_free(strings *s);
static inline const uint8_t *strings_at(const strings *s, size_t i, size_t *len) {
    size_t start = i ? s->ends[i - 1] : 0;
    *len = s->ends[i] - start;
    return s->bytes + start;
}

/* The children of one state: their states and, in the same order, their steps. */
typedef struct {
    strings states;
    strings steps;
} children;

typedef struct space space;
struct space {
    /* Fill `out` (already cleared) with the children of `state`; -1 when it cannot, with
     * `failure` saying why (left NULL: memory ran out). It runs without the GIL, so it
     * touches no Python object. */
    int (*expand)(space *sp, const uint8_t *state, size_t len, children *out);
    const char *failure;
    int (*is_won)(space *sp, const uint8_t *state, size_t len);
    /* The Python space's step object for this step; NULL with a Python error set. */
    PyObject *(*step_object)(space *sp, const uint8_t *step, size_t len);
    void (*release)(space *sp);
    int acyclic;
};

/* The longest state the search's table records (its entries keep a state's length in 16
 * bits): every space's states are far shorter, which each checks where it is compiled. */
#define CORE_MAX_STATE 65535

/* A caller's bytes, copied before anything reads them: another thread may change a buffer
 * such as a bytearray's while the core works (even while it holds the GIL, a thread that
 * let go of it may write). The copy's length, or -1 (nothing copied) when the buffer holds
 * more than `room` bytes. The core checks and searches its copy, never the caller's bytes. */
static inline Py_ssize_t core_copy(const Py_buffer *b, uint8_t *out, size_t room) {
    if (b->len < 0 || (size_t)b->len > room) return -1;
    if (b->len) memcpy(out, b->buf, (size_t)b->len);
    return b->len;
}

/* What the search was told: -1 means "no limit" for the integers, a negative time too. */
typedef struct {
    long long node_limit;
    double time_limit;
    long long max_states;
    long long first_pass; /* -1: one plain pass */
} limits;

enum { VERDICT_WON, VERDICT_LOST, VERDICT_UNKNOWN };

typedef struct {
    int verdict;
    const char *limit; /* the Limits field that stopped an unknown search */
    long long states, nodes;
    PyObject *steps; /* a list, the winning line's steps */
} result;

/* Search `sp` from `root`. 0, or -1 with a Python error set (MemoryError, Ctrl-C's, or
 * ValueError for a position the space cannot hold). Called with the GIL; releases it while
 * it searches, so `root` must be memory no other thread writes (the caller's own copy). */
int core_search(space *sp, const uint8_t *root, size_t root_len, const limits *lim, result *out);

/* The search by levels: for a space whose every step keeps or raises a state's level
 * (`level`, 0 .. CORE_LEVELS - 1; PySolFC's Matrimony: cards down + deals + redeals made),
 * breadth-first a level at a time, each level's states held until the level is done and
 * then let go. It reaches the same states as a single depth-first pass, so a lost verdict
 * counts the same states; it holds only the levels not yet finished (`peak`), and finds no
 * line: a won verdict comes without one. The limits are core_search's, but max_states bounds
 * the states held at once. 0, or -1 with a Python error set. */
enum { CORE_LEVELS = 256 };
typedef struct {
    int verdict;
    const char *limit;
    long long states, nodes, peak;
} layered;
/* With `checkpoint` (a path, or NULL): a search that finds a checkpoint there whose
 * 32-byte `digest` (the caller's, of the start and the rules) is this one's goes on from
 * it; one that finds none starts afresh; either writes one there at the end of a level once
 * `every` seconds have passed since the last (search.c says what it holds). */
int core_layers(space *sp, int (*level)(const uint8_t *state, size_t len), const uint8_t *root, size_t root_len, const limits *lim,
                const char *checkpoint, const uint8_t *digest, double every, layered *out);

/* The limits as the module's functions receive them: None for "no limit", else what
 * search.Limits allows (counts from 0, a first pass from 1, seconds from 0, not NaN); 0, or
 * -1 with a Python error set (ValueError, TypeError or OverflowError). */
int core_read_limits(PyObject *node_limit, PyObject *time_limit, PyObject *max_states, PyObject *first_pass, limits *lim);
/* Search `sp` from `root` and give search/exhaustive.py's Outcome fields as a tuple (verdict, steps,
 * states, nodes, limit or None); releases `sp`. */
PyObject *core_run(space *sp, const uint8_t *root, size_t root_len, const limits *lim);

/* Monte Carlo rule sets that slide the grid closed (wedlock/games/montecarlo/spaces.py's
 * SequenceSpace): `ranks` is the deal's rank sequence, grid first, at most MC_MAX_CARDS. A
 * space is made only for a grid that slide_grid_fits; NULL when memory ran out. */
enum { MC_MAX_CARDS = 104 };
int slide_grid_fits(int rows, int cols);
space *slide_space_new(int rows, int cols, int thirteens, int strict);
int slide_state(const uint8_t *ranks, size_t count, uint8_t *out, size_t *out_len);
/* slide_codes(codes, size, steps): a sliding line's steps as coded moves (SequenceSpace.codes). */
PyObject *slide_codes(PyObject *self, PyObject *args);
/* Weddings (ColumnSpace): the deal's ranks in order, and the start state (the stock's next
 * deal index, the column heights, each column's ranks from the top; at most
 * COLUMNS_MAX_STATE bytes), dead or not. A space is made only for what columns_readable
 * takes; NULL when memory ran out. */
enum { COLUMNS_MAX_STATE = 1 + 8 + 25 };
int columns_readable(int rows, int cols, const uint8_t *rank_list, size_t total, const uint8_t *state, size_t len);
space *column_space_new(int rows, int cols, const uint8_t *rank_list, int total, const uint8_t *root, size_t root_len, int root_dead);

/* Matrimony under Arnold's rules (wedlock/games/matrimony/arnold_space.py's ArnoldSpace): the
 * deal's 104 card codes, each foundation's 13 codes in order, each code's two foundations,
 * the diamond foundations building up and down, and the Python objects a step holds. A
 * state is at most ARNOLD_MAX_STATE bytes; a space is made only for what arnold_readable
 * takes, NULL when memory ran out. */
enum { ARNOLD_MAX_STATE = 2 + 8 + 16 + 104 };
int arnold_readable(const uint8_t *codes, const uint8_t *takes, const uint8_t *homes, int up, int down, const uint8_t *state, size_t len);
space *arnold_space_new(const uint8_t *codes, const uint8_t *takes, const uint8_t *homes, int up, int down, PyObject *deal_move,
                        PyObject *redeal_class);

/* Matrimony under PySolFC's rules (wedlock/games/matrimony/pysol_space.py's PysolSpace), in pysol.c:
 * the module's function, which reads the deal, the rules and the start state itself. */
PyObject *search_pysol(PyObject *self, PyObject *args, PyObject *kwargs);
/* The same space a phase at a time, for beams: a PysolPhases object. */
extern PyTypeObject phases_type;
PyObject *pysol_phases(PyObject *self, PyObject *args, PyObject *kwargs);

/* PySolFC's Matrimony played out by searches that learn while they search (pysol_rollouts.c). */
PyObject *pysol_rollouts(PyObject *self, PyObject *args, PyObject *kwargs);

/* The state graph of a Monte Carlo deal in arrays, and its exact figures (graph.c). */
extern PyTypeObject graph_type;
PyObject *graph_montecarlo(PyObject *self, PyObject *args, PyObject *kwargs);

/* Python's random.Random(seed).shuffle, so the search's later passes visit children in the
 * same order as search/exhaustive.py's. */
typedef struct {
    uint32_t mt[624];
    int index;
} twister;

void twister_prepare(void); /* once, before any twister_seed (the module's init calls it) */
void twister_seed(twister *t, uint64_t seed);
uint32_t twister_below(twister *t, uint32_t n);
double twister_random(twister *t);

#endif
