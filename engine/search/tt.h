/*
 * tt.h -- the transposition table of the alpha-beta searcher, and the
 * hashing helpers the MCTS node table shares with it.
 *
 * Both searchers find a position's slot from its Zobrist key the same way:
 * tt_index() maps the key onto [0, n) by a multiply-high, so any table size
 * works (no power of two needed) and the low bits stay free for the check.
 *
 * Alpha-beta table: an array of buckets of TT_BUCKET entries; one bucket is
 * one 64-byte cache line.  An entry is two 64-bit words:
 *
 *   word 0  check  = key XOR data   (lockless: a torn write by another
 *                                    thread fails the check and reads as a
 *                                    miss, so Lazy SMP needs no lock)
 *   word 1  data, bit by bit:
 *     bits  0..31  move    the best or refuting move (MOVE_NONE = none)
 *     bits 32..47  score   int16, mate scores relative to this node
 *                          (SCORE_MATE - plies from here, see tt_score_*)
 *     bits 48..55  depth   uint8, remaining depth of the search that
 *                          stored it (quiescence stores depth 0)
 *     bits 56..57  bound   TT_UPPER 1, TT_LOWER 2, TT_EXACT 3 (0 = empty)
 *     bit  58      proven  1 when no horizon leaf lay below: the score is
 *                          the exact game value (a solved subtree)
 *     bits 59..63  age     the search generation (mod 32) that wrote it
 *
 * The fields sit in one word so a single store publishes them together.
 * Replacement within a bucket: the same key is overwritten (keeping its move
 * if the new store has none); otherwise the entry with the lowest
 * depth - 8 * (age distance) goes, so stale deep entries age out.
 */
#ifndef MORELLI_TT_H
#define MORELLI_TT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"

enum { TT_NONE = 0, TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3 };

#define TT_BUCKET 4
#define TT_AGE_MOD 32

typedef struct TTEntry {
    _Atomic uint64_t check; /* key ^ data */
    _Atomic uint64_t data;  /* packed fields, see above */
} TTEntry;

typedef struct TTBucket {
    TTEntry e[TT_BUCKET];
} TTBucket;

_Static_assert(sizeof(TTEntry) == 16, "TT entry is two words");
_Static_assert(sizeof(TTBucket) == 64, "TT bucket is one cache line");

/* What a probe returns, unpacked. */
typedef struct TTHit {
    Move move;
    int score; /* already adjusted to the probing ply */
    int depth;
    int bound;
    int proven;
} TTHit;

typedef struct TT {
    TTBucket *buckets; /* 64-byte aligned inside mem */
    void *mem;         /* what was allocated (zeroed lazily by the system) */
    size_t nbuckets;
    unsigned age; /* current generation, 0..TT_AGE_MOD-1 */
} TT;

/* Key onto [0, n): the high half of key * n. */
static inline size_t tt_index(Key key, size_t n)
{
    return (size_t)(((unsigned __int128)key * n) >> 64);
}

/* Bytes in mb megabytes, never below one bucket. */
size_t tt_bytes_for_mb(int64_t mb);

/* Allocate for mb megabytes (all empty). Returns 0, or -1 (t unchanged). */
int tt_resize(TT *t, int64_t mb);
void tt_free(TT *t);
void tt_clear(TT *t);
/* A new search: entries written from now on carry the next age. */
void tt_new_search(TT *t);

/* Mate scores are stored relative to the node and read back relative to
 * the root: a win in k plies from the node is SCORE_MATE - k in the table. */
int tt_score_to(int score, int ply);
int tt_score_from(int score, int ply);

/* Returns 1 and fills *hit when key is found. */
int tt_probe(const TT *t, Key key, int ply, TTHit *hit);
void tt_store(TT *t, Key key, int ply, Move move, int score, int depth, int bound, int proven);
/* Entries of the current age per thousand, sampled on the first 250 buckets. */
int tt_hashfull(const TT *t);

#endif
