/* wedlock._core: the compiled search, called by wedlock/basics/compiled.py. */
#include "core.h"
#include "pysol_dead.h"
#include "referee.h"

static const char *VERDICTS[] = {"won", "lost", "unknown"};

/* One count of the limits: None (-1 here: no limit) or a whole number from `least` up. */
static int read_count(PyObject *obj, const char *name, long long least, long long *out) {
    if (obj == Py_None) {
        *out = -1;
        return 0;
    }
    long long n = PyLong_AsLongLong(obj);
    if (n == -1 && PyErr_Occurred()) return -1;
    if (n < least) {
        PyErr_Format(PyExc_ValueError, "%s is a whole number from %lld, or None; not %lld", name, least, n);
        return -1;
    }
    *out = n;
    return 0;
}

int core_read_limits(PyObject *node_limit, PyObject *time_limit, PyObject *max_states, PyObject *first_pass, limits *lim) {
    if (read_count(node_limit, "node_limit", 0, &lim->node_limit) < 0 || read_count(max_states, "max_states", 0, &lim->max_states) < 0 ||
        read_count(first_pass, "first_pass", 1, &lim->first_pass) < 0) /* a first pass of 0 would be cut at once, forever */
        return -1;
    lim->time_limit = -1.0;
    if (time_limit == Py_None) return 0;
    double seconds = PyFloat_AsDouble(time_limit);
    if (seconds == -1.0 && PyErr_Occurred()) return -1;
    if (!(seconds >= 0)) { /* NaN too: no deadline compares with it */
        PyErr_SetString(PyExc_ValueError, "time_limit is a number of seconds, 0 or more, or None");
        return -1;
    }
    lim->time_limit = seconds;
    return 0;
}

/* Search `sp` from `root` and give search/exhaustive.py's Outcome fields as a tuple:
 * (verdict, steps, states, nodes, limit or None). Releases `sp`. */
PyObject *core_run(space *sp, const uint8_t *root, size_t root_len, const limits *lim) {
    result res;
    int rc = core_search(sp, root, root_len, lim, &res);
    sp->release(sp);
    if (rc < 0) {
        Py_XDECREF(res.steps);
        return NULL;
    }
    PyObject *limit = res.limit ? PyUnicode_FromString(res.limit) : Py_NewRef(Py_None);
    if (!limit) {
        Py_DECREF(res.steps);
        return NULL;
    }
    return Py_BuildValue("(sNLLN)", VERDICTS[res.verdict], res.steps, res.states, res.nodes, limit);
}

static PyObject *search_slide(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    static char *names[] = {"ranks", "rows", "cols", "thirteens", "strict", "node_limit", "time_limit", "max_states", "first_pass", NULL};
    Py_buffer ranks;
    int rows, cols, thirteens, strict;
    PyObject *node_limit, *time_limit, *max_states, *first_pass;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*iippOOOO", names, &ranks, &rows, &cols, &thirteens, &strict, &node_limit,
                                     &time_limit, &max_states, &first_pass))
        return NULL;
    uint8_t deal[MC_MAX_CARDS];
    Py_ssize_t count = core_copy(&ranks, deal, sizeof deal);
    PyBuffer_Release(&ranks);
    limits lim;
    uint8_t root[1 + MC_MAX_CARDS / 2];
    size_t root_len;
    if (core_read_limits(node_limit, time_limit, max_states, first_pass, &lim) < 0) return NULL;
    if (count < 0 || slide_state(deal, (size_t)count, root, &root_len) < 0) {
        PyErr_SetString(PyExc_ValueError, "ranks: at most 104 cards, each of rank 1 to 13, eight of a rank at most");
        return NULL;
    }
    if (!slide_grid_fits(rows, cols)) {
        PyErr_SetString(PyExc_ValueError, "a grid the compiled core cannot hold");
        return NULL;
    }
    space *sp = slide_space_new(rows, cols, thirteens, strict);
    if (!sp) return PyErr_NoMemory();
    return core_run(sp, root, root_len, &lim);
}

static PyObject *search_columns(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    static char *names[] = {"state", "rank_list", "rows", "cols", "dead", "node_limit", "time_limit", "max_states", "first_pass", NULL};
    Py_buffer state, rank_list;
    int rows, cols, dead;
    PyObject *node_limit, *time_limit, *max_states, *first_pass;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*y*iipOOOO", names, &state, &rank_list, &rows, &cols, &dead, &node_limit, &time_limit,
                                     &max_states, &first_pass))
        return NULL;
    uint8_t root[COLUMNS_MAX_STATE], deal[MC_MAX_CARDS];
    Py_ssize_t root_len = core_copy(&state, root, sizeof root), total = core_copy(&rank_list, deal, sizeof deal);
    PyBuffer_Release(&state), PyBuffer_Release(&rank_list);
    limits lim;
    if (core_read_limits(node_limit, time_limit, max_states, first_pass, &lim) < 0) return NULL;
    if (root_len < 0 || total < 0 || !columns_readable(rows, cols, deal, (size_t)total, root, (size_t)root_len)) {
        PyErr_SetString(PyExc_ValueError, "not a Weddings deal and position the compiled core can read");
        return NULL;
    }
    space *sp = column_space_new(rows, cols, deal, (int)total, root, (size_t)root_len, dead);
    if (!sp) return PyErr_NoMemory();
    return core_run(sp, root, (size_t)root_len, &lim);
}

static PyObject *search_arnold(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    static char *names[] = {"state", "codes", "takes", "homes", "up", "down", "deal_move", "redeal_class",
                            "node_limit", "time_limit", "max_states", "first_pass", NULL};
    Py_buffer state, codes, takes, homes;
    int up, down;
    PyObject *deal_move, *redeal_class, *node_limit, *time_limit, *max_states, *first_pass;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*y*y*y*iiOOOOOO", names, &state, &codes, &takes, &homes, &up, &down, &deal_move,
                                     &redeal_class, &node_limit, &time_limit, &max_states, &first_pass))
        return NULL;
    enum { CARDS = 104 };
    uint8_t root[ARNOLD_MAX_STATE], deal[CARDS], order[CARDS], home[CARDS];
    Py_ssize_t root_len = core_copy(&state, root, sizeof root);
    int whole =
        core_copy(&codes, deal, CARDS) == CARDS && core_copy(&takes, order, CARDS) == CARDS && core_copy(&homes, home, CARDS) == CARDS;
    PyBuffer_Release(&state), PyBuffer_Release(&codes), PyBuffer_Release(&takes), PyBuffer_Release(&homes);
    limits lim;
    if (core_read_limits(node_limit, time_limit, max_states, first_pass, &lim) < 0) return NULL;
    if (root_len < 0 || !whole || !arnold_readable(deal, order, home, up, down, root, (size_t)root_len)) {
        PyErr_SetString(PyExc_ValueError, "not a Matrimony deal and position the compiled core can read");
        return NULL;
    }
    space *sp = arnold_space_new(deal, order, home, up, down, deal_move, redeal_class);
    if (!sp) return PyErr_NoMemory();
    return core_run(sp, root, (size_t)root_len, &lim);
}

static PyObject *shuffled(PyObject *self, PyObject *args) {
    /* For tests: the core's copy of random.Random(seed).shuffle(list(range(n))). */
    (void)self;
    unsigned long long seed;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "Kn", &seed, &n)) return NULL;
    if (n < 0 || (unsigned long long)n > UINT32_MAX) { /* the shuffle draws 32-bit numbers below i + 1 */
        PyErr_SetString(PyExc_ValueError, "n is from 0 to 2**32 - 1");
        return NULL;
    }
    twister t;
    twister_seed(&t, seed);
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    Py_ssize_t *order = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *order);
    if (!order) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) order[i] = i;
    for (Py_ssize_t i = n - 1; i >= 1; i--) {
        Py_ssize_t j = twister_below(&t, (uint32_t)(i + 1)), tmp = order[i];
        order[i] = order[j], order[j] = tmp;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyLong_FromSsize_t(order[i]);
        if (!item) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, item);
    }
    PyMem_Free(order);
    return out;
}

static PyObject *pysol_ids(PyObject *self, PyObject *args) {
    /* PySolFC's deal of game `seed` (above 32000, or any with its Mersenne Twister): the
       card ids 0..n-1 shuffled as pysol_cards' MTRandom shuffles them, randint(0, i) being
       int(random() * (i + 1)), then reversed (PySolFC deals from the end). */
    (void)self;
    unsigned long long seed;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "Kn", &seed, &n)) return NULL;
    if (n < 0 || n > 1024) {
        PyErr_SetString(PyExc_ValueError, "n is from 0 to 1024");
        return NULL;
    }
    twister t;
    twister_seed(&t, seed);
    Py_ssize_t order[1024];
    for (Py_ssize_t i = 0; i < n; i++) order[i] = i;
    for (Py_ssize_t i = n - 1; i >= 1; i--) {
        Py_ssize_t j = (Py_ssize_t)(twister_random(&t) * (double)(i + 1)), tmp = order[i];
        order[i] = order[j], order[j] = tmp;
    }
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyLong_FromSsize_t(order[n - 1 - i]);
        if (!item) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, item);
    }
    return out;
}

static PyMethodDef methods[] = {
    {"search_slide", (PyCFunction)(void (*)(void))search_slide, METH_VARARGS | METH_KEYWORDS,
     "Search a sliding Monte Carlo deal given as its rank sequence: (verdict, steps, states, nodes, limit)."},
    {"search_columns", (PyCFunction)(void (*)(void))search_columns, METH_VARARGS | METH_KEYWORDS,
     "Search Weddings from a phase-start state: (verdict, steps, states, nodes, limit)."},
    {"search_arnold", (PyCFunction)(void (*)(void))search_arnold, METH_VARARGS | METH_KEYWORDS,
     "Search Matrimony under Arnold's rules from a phase-start state: (verdict, steps, states, nodes, limit)."},
    {"search_pysol", (PyCFunction)(void (*)(void))search_pysol, METH_VARARGS | METH_KEYWORDS,
     "Search Matrimony under PySolFC's rules, one decision per edge: (verdict, steps, states, nodes, limit)."},
    {"pysol_phases", (PyCFunction)(void (*)(void))pysol_phases, METH_VARARGS | METH_KEYWORDS,
     "PySolFC's exact Matrimony space a phase at a time, for beams: a PysolPhases."},
    {"pysol_rollouts", (PyCFunction)(void (*)(void))pysol_rollouts, METH_VARARGS | METH_KEYWORDS,
     "PySolFC's Matrimony searched by playouts (NRPA, NMCS or UCT): (cards down, moves, playouts, stopped)."},
    {"pysol_dead", (PyCFunction)(void (*)(void))pysol_dead_py, METH_VARARGS | METH_KEYWORDS,
     "Whether a PySolFC Matrimony position is lost by the one- and two-suit puzzles (for tests)."},
    {"graph_montecarlo", (PyCFunction)(void (*)(void))graph_montecarlo, METH_VARARGS | METH_KEYWORDS,
     "The state graph of a Monte Carlo deal from a position, breadth first, in arrays: a MonteCarloGraph."},
    {"pysol_ids", pysol_ids, METH_VARARGS, "PySolFC's card ids in dealing order for a Mersenne Twister seed, as wedlock.numbering deals them."},
    {"slide_codes", slide_codes, METH_VARARGS, "A sliding Monte Carlo line's steps as coded moves, as SequenceSpace.codes makes them."},
    {"referee_montecarlo", referee_montecarlo, METH_VARARGS,
     "Replay a Monte Carlo line of coded moves on a deal's card codes, by the rules alone: (won, legal moves)."},
    {"shuffled", shuffled, METH_VARARGS, "random.Random(seed).shuffle(list(range(n))), as the core does it."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "_core", .m_doc = "The compiled search core of wedlock.", .m_size = -1, .m_methods = methods};

PyMODINIT_FUNC PyInit__core(void) {
    twister_prepare();
    if (PyType_Ready(&graph_type) < 0 || PyType_Ready(&phases_type) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m && (PyModule_AddObjectRef(m, "MonteCarloGraph", (PyObject *)&graph_type) < 0 ||
              PyModule_AddObjectRef(m, "PysolPhases", (PyObject *)&phases_type) < 0))
        Py_CLEAR(m);
    return m;
}
