/* wedlock._core: the compiled search, called by wedlock/core.py. */
#include "core.h"
#include "pysol_dead.h"

static const char *VERDICTS[] = {"won", "lost", "unknown"};

int core_read_limits(PyObject *node_limit, PyObject *time_limit, PyObject *max_states, PyObject *first_pass, limits *lim) {
    lim->node_limit = node_limit == Py_None ? -1 : PyLong_AsLongLong(node_limit);
    lim->time_limit = time_limit == Py_None ? -1.0 : PyFloat_AsDouble(time_limit);
    lim->max_states = max_states == Py_None ? -1 : PyLong_AsLongLong(max_states);
    lim->first_pass = first_pass == Py_None ? -1 : PyLong_AsLongLong(first_pass);
    if (PyErr_Occurred()) return -1;
    if (lim->time_limit < 0) lim->time_limit = -1.0;
    return 0;
}

/* Search `sp` from `root` and give search.py's Outcome fields as a tuple:
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
    limits lim;
    uint8_t root[1 + 104 / 2];
    size_t root_len;
    if (core_read_limits(node_limit, time_limit, max_states, first_pass, &lim) < 0) goto fail;
    if (slide_state(ranks.buf, (size_t)ranks.len, root, &root_len) < 0) {
        PyErr_SetString(PyExc_ValueError, "ranks: at most 104 cards, each of rank 1 to 13, eight of a rank at most");
        goto fail;
    }
    space *sp = slide_space_new(rows, cols, thirteens, strict);
    if (!sp) {
        PyErr_SetString(PyExc_ValueError, "a grid the compiled core cannot hold");
        goto fail;
    }
    PyBuffer_Release(&ranks);
    return core_run(sp, root, root_len, &lim);
fail:
    PyBuffer_Release(&ranks);
    return NULL;
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
    PyObject *out = NULL;
    limits lim;
    if (core_read_limits(node_limit, time_limit, max_states, first_pass, &lim) < 0) goto done;
    space *sp = column_space_new(rows, cols, rank_list.buf, (int)rank_list.len, state.buf, (size_t)state.len, dead);
    if (!sp) {
        PyErr_SetString(PyExc_ValueError, "not a Weddings deal and position the compiled core can read");
        goto done;
    }
    out = core_run(sp, state.buf, (size_t)state.len, &lim);
done:
    PyBuffer_Release(&state), PyBuffer_Release(&rank_list);
    return out;
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
    PyObject *out = NULL;
    limits lim;
    if (core_read_limits(node_limit, time_limit, max_states, first_pass, &lim) < 0) goto done;
    if (codes.len != 104 || takes.len != 8 * 13 || homes.len != 2 * 52 ||
        !arnold_readable(codes.buf, takes.buf, homes.buf, up, down, state.buf, (size_t)state.len)) {
        PyErr_SetString(PyExc_ValueError, "not a Matrimony deal and position the compiled core can read");
        goto done;
    }
    space *sp = arnold_space_new(codes.buf, takes.buf, homes.buf, up, down, deal_move, redeal_class);
    if (!sp) {
        PyErr_NoMemory();
        goto done;
    }
    out = core_run(sp, state.buf, (size_t)state.len, &lim);
done:
    PyBuffer_Release(&state), PyBuffer_Release(&codes), PyBuffer_Release(&takes), PyBuffer_Release(&homes);
    return out;
}

static PyObject *shuffled(PyObject *self, PyObject *args) {
    /* For tests: the core's copy of random.Random(seed).shuffle(list(range(n))). */
    (void)self;
    unsigned long long seed;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "Kn", &seed, &n)) return NULL;
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
    for (Py_ssize_t i = 0; i < n; i++) PyList_SET_ITEM(out, i, PyLong_FromSsize_t(order[i]));
    PyMem_Free(order);
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
    {"pysol_dead", (PyCFunction)(void (*)(void))pysol_dead_py, METH_VARARGS | METH_KEYWORDS,
     "Whether a PySolFC Matrimony position is lost by the one- and two-suit puzzles (for tests)."},
    {"graph_montecarlo", (PyCFunction)(void (*)(void))graph_montecarlo, METH_VARARGS | METH_KEYWORDS,
     "The state graph of a Monte Carlo deal from a position, breadth first, in arrays: a MonteCarloGraph."},
    {"shuffled", shuffled, METH_VARARGS, "random.Random(seed).shuffle(list(range(n))), as the core does it."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "_core", .m_doc = "The compiled search core of wedlock.", .m_size = -1, .m_methods = methods};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&graph_type) < 0 || PyType_Ready(&phases_type) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m && (PyModule_AddObjectRef(m, "MonteCarloGraph", (PyObject *)&graph_type) < 0 ||
              PyModule_AddObjectRef(m, "PysolPhases", (PyObject *)&phases_type) < 0))
        Py_CLEAR(m);
    return m;
}
