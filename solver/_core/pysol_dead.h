/* The "lost" tests of PySolFC's Matrimony (wedlock/games/matrimony/pysol_dead.py and
 * pysol_tangle.py) in C: the one-suit puzzle over the settled piles, with the redeals ahead
 * when asked, and the two-suit puzzle. Same answers as the Python tests, budgets included.
 * No Python object is touched: the space calls these without the GIL. */
#ifndef WEDLOCK_PYSOL_DEAD_H
#define WEDLOCK_PYSOL_DEAD_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

typedef struct pysol_dead pysol_dead;

/* down[s], up[s]: suit s's foundations building down from the Jack and up from the Queen
 * (indices 0..7 into a position's counts); place[code]: where the card stands in the up
 * foundation's order Q K A 2 .. J (0..12). The budgets: SuitPuzzle's ahead_states and
 * Tangles' budget. NULL when memory ran out. */
pysol_dead *pysol_dead_new(const uint8_t down[4], const uint8_t up[4], const uint8_t place[52], int ahead_states, int tangle_states);
void pysol_dead_free(pysol_dead *d);

/* PysolSuits.dead: 1 when the position is lost for the lines that keep the holds, 0 when
 * not (or undecided), -1 when memory ran out. piles[p] holds lens[p] card codes, bottom
 * first; counts: the eight foundation counts; stock: the deal index of the next stock card
 * (104: empty); rounds: redeals made (0..16). frozen: nfrozen triples (pile, height, copies
 * down); passed: npassed pairs (pile, height). `ahead`: with the redeals to come (and, with
 * `tangles`, the two-suit puzzle too). */
int pysol_dead_check(pysol_dead *d, const uint8_t *const piles[16], const uint8_t lens[16], const uint8_t counts[8], int stock, int rounds,
                     const uint8_t *frozen, int nfrozen, const uint8_t *passed, int npassed, int ahead, int tangles);

/* For tests: _core.pysol_dead(down, up, place, ahead_states, tangle_states, piles, counts,
 * stock, rounds, frozen, passed, ahead, tangles) -> bool, one check with a fresh cache. */
PyObject *pysol_dead_py(PyObject *self, PyObject *args, PyObject *kwargs);

#endif
