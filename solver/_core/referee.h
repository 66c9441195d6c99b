/* The Monte Carlo family's referee on small ints (referee.c): no part of the search. */
#ifndef WEDLOCK_REFEREE_H
#define WEDLOCK_REFEREE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* referee_montecarlo(deal, rows, cols, decks, thirteens, columns, strict, moves) -> (won, legal moves) */
PyObject *referee_montecarlo(PyObject *self, PyObject *args);

#endif
