/* A map from byte strings to a byte, for the tables the spaces and the lost tests keep of
 * their own (the states met in a phase, the answers of a puzzle); a set where the byte
 * goes unused. One open-addressing array of slots, at most half full, over an arena of the
 * keys' bytes. A slot holds a key when its generation is the map's, so emptying the map is
 * one increment, whatever its size. A zeroed bytemap is an empty one. */
#ifndef WEDLOCK_BYTEMAP_H
#define WEDLOCK_BYTEMAP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core.h"

typedef struct {
    uint32_t gen;
    uint32_t hash;
    uint32_t at; /* where the key's bytes start in the arena */
    uint16_t len;
    uint8_t value;
} bytemap_slot;

typedef struct {
    bytemap_slot *slots;
    size_t mask; /* the number of slots (a power of two) less one; unused while slots is NULL */
    size_t count;
    uint32_t gen; /* 0 only while no slot was ever made */
    uint8_t *arena;
    size_t used, room;
} bytemap;

static inline uint32_t bytemap_hash(const uint8_t *key, size_t len) { return (uint32_t)core_hash(key, len); }

static inline void bytemap_free(bytemap *m) {
    PyMem_RawFree(m->slots);
    PyMem_RawFree(m->arena);
    memset(m, 0, sizeof *m);
}

static inline void bytemap_clear(bytemap *m) {
    m->count = 0;
    m->used = 0;
    if (++m->gen == 0) { /* wrapped: old generations would come back to life */
        if (m->slots) memset(m->slots, 0, (m->mask + 1) * sizeof(bytemap_slot));
        m->gen = 1;
    }
}

/* Room for one more key; -1 when memory ran out. */
static inline int bytemap_make_room(bytemap *m) {
    if (!m->gen) m->gen = 1; /* calloc'd slots are generation 0: empty */
    size_t cap = m->slots ? m->mask + 1 : 0;
    if (2 * (m->count + 1) <= cap) return 0;
    size_t bigger = cap ? 2 * cap : 64;
    bytemap_slot *slots = PyMem_RawCalloc(bigger, sizeof(bytemap_slot));
    if (!slots) return -1;
    for (size_t i = 0; i < cap; i++) {
        if (m->slots[i].gen != m->gen) continue;
        size_t j = m->slots[i].hash & (bigger - 1);
        while (slots[j].gen == m->gen) j = (j + 1) & (bigger - 1);
        slots[j] = m->slots[i];
    }
    PyMem_RawFree(m->slots);
    m->slots = slots, m->mask = bigger - 1;
    return 0;
}

/* The slot holding the key, or the empty slot where it would go (*found says which). The
 * map must have slots (bytemap_make_room), and room for the key if it is to be added. */
static inline bytemap_slot *bytemap_probe(bytemap *m, const uint8_t *key, size_t len, uint32_t hash, bool *found) {
    for (size_t i = hash & m->mask;; i = (i + 1) & m->mask) {
        bytemap_slot *s = &m->slots[i];
        if (s->gen != m->gen) {
            *found = false;
            return s;
        }
        if (s->hash == hash && s->len == len && memcmp(m->arena + s->at, key, len) == 0) {
            *found = true;
            return s;
        }
    }
}

/* Store the key in the empty slot `s` that bytemap_probe gave; -1 when memory ran out. */
static inline int bytemap_fill(bytemap *m, bytemap_slot *s, const uint8_t *key, size_t len, uint32_t hash, uint8_t value) {
    if (len > UINT16_MAX) return -1;
    if (m->used + len > m->room) {
        size_t room = m->room ? 2 * m->room : 1 << 14;
        while (room < m->used + len) room *= 2;
        if (room > UINT32_MAX) return -1; /* slots address the arena with 32 bits */
        uint8_t *arena = PyMem_RawRealloc(m->arena, room);
        if (!arena) return -1;
        m->arena = arena, m->room = room;
    }
    memcpy(m->arena + m->used, key, len);
    s->gen = m->gen, s->hash = hash, s->at = (uint32_t)m->used, s->len = (uint16_t)len, s->value = value;
    m->used += len;
    m->count++;
    return 0;
}

/* bytemap_probe with room made for the key first, its hash given back for bytemap_fill;
 * NULL when memory ran out. */
static inline bytemap_slot *bytemap_seek(bytemap *m, const uint8_t *key, size_t len, uint32_t *hash, bool *found) {
    if (bytemap_make_room(m) < 0) return NULL;
    *hash = bytemap_hash(key, len);
    return bytemap_probe(m, key, len, *hash, found);
}

/* Add the key with `value` if it is not in: 1 if it was new, 0 if it was there (its value
 * unchanged), -1 when memory ran out. */
static inline int bytemap_add(bytemap *m, const uint8_t *key, size_t len, uint8_t value) {
    bool found;
    uint32_t hash;
    bytemap_slot *s = bytemap_seek(m, key, len, &hash, &found);
    if (!s) return -1;
    if (found) return 0;
    return bytemap_fill(m, s, key, len, hash, value) < 0 ? -1 : 1;
}

#endif
