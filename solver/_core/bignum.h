/* Unsigned integers of any size, for the state graph's exact counts and odds (graph.c).
 *
 * Only what the graph needs: multiply by a word, add, multiply-add. A number is its 64-bit
 * limbs, lowest first, with no zero limb on top (zero has none).
 */
#ifndef WEDLOCK_BIGNUM_H
#define WEDLOCK_BIGNUM_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t *w;
    uint32_t n, cap;
} big;

typedef unsigned __int128 u128;

static inline int big_reserve(big *a, uint32_t cap) {
    if (a->cap >= cap) return 0;
    uint32_t c = a->cap ? a->cap : 4;
    while (c < cap) c *= 2;
    uint64_t *w = realloc(a->w, (size_t)c * sizeof *w);
    if (!w) return -1;
    a->w = w, a->cap = c;
    return 0;
}

static inline void big_free(big *a) {
    free(a->w);
    a->w = NULL, a->n = a->cap = 0;
}

static inline void big_trim(big *a) {
    while (a->n && !a->w[a->n - 1]) a->n--;
}

static inline int big_set(big *a, uint64_t v) {
    a->n = 0;
    if (!v) return 0;
    if (big_reserve(a, 1) < 0) return -1;
    a->w[0] = v, a->n = 1;
    return 0;
}

static inline int big_copy(big *a, const big *b) {
    if (big_reserve(a, b->n) < 0) return -1;
    if (b->n) memcpy(a->w, b->w, (size_t)b->n * sizeof *a->w);
    a->n = b->n;
    return 0;
}

/* a *= m */
static inline int big_mul_word(big *a, uint64_t m) {
    if (!a->n) return 0;
    if (!m) {
        a->n = 0;
        return 0;
    }
    u128 carry = 0;
    for (uint32_t i = 0; i < a->n; i++) {
        carry += (u128)a->w[i] * m;
        a->w[i] = (uint64_t)carry;
        carry >>= 64;
    }
    if (carry) {
        if (big_reserve(a, a->n + 1) < 0) return -1;
        a->w[a->n++] = (uint64_t)carry;
    }
    return 0;
}

/* a *= m ** k */
static inline int big_mul_power(big *a, uint64_t m, int k) {
    for (int i = 0; i < k && a->n; i++)
        if (big_mul_word(a, m) < 0) return -1;
    return 0;
}

/* a += b */
static inline int big_add(big *a, const big *b) {
    if (!b->n) return 0;
    uint32_t n = a->n > b->n ? a->n : b->n;
    if (big_reserve(a, n + 1) < 0) return -1;
    for (uint32_t i = a->n; i <= n; i++) a->w[i] = 0;
    uint64_t carry = 0;
    for (uint32_t i = 0; i < n; i++) {
        u128 s = (u128)a->w[i] + (i < b->n ? b->w[i] : 0) + carry;
        a->w[i] = (uint64_t)s;
        carry = (uint64_t)(s >> 64);
    }
    a->w[n] = carry;
    a->n = n + 1;
    big_trim(a);
    return 0;
}

/* a += x * y */
static inline int big_mul_add(big *a, const big *x, const big *y) {
    if (!x->n || !y->n) return 0;
    uint32_t n = x->n + y->n;
    if (a->n > n) n = a->n;
    if (big_reserve(a, n + 1) < 0) return -1;
    for (uint32_t i = a->n; i <= n; i++) a->w[i] = 0;
    for (uint32_t i = 0; i < x->n; i++) {
        uint64_t carry = 0, xi = x->w[i];
        uint32_t j = 0;
        for (; j < y->n; j++) {
            u128 t = (u128)xi * y->w[j] + a->w[i + j] + carry;
            a->w[i + j] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
        for (uint32_t k = i + j; carry; k++) {
            u128 t = (u128)a->w[k] + carry;
            a->w[k] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
    }
    a->n = n + 1;
    big_trim(a);
    return 0;
}

/* a += x * m */
static inline int big_mul_word_add(big *a, const big *x, uint64_t m) {
    big word = {&m, 1, 1}; /* one limb: big_mul_add's outer loop runs once, over x */
    return m ? big_mul_add(a, &word, x) : 0;
}

#endif
