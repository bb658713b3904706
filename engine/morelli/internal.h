/*
 * internal.h -- what the files of engine/morelli/ share with each other
 * beyond morelli.h: the bound on the move list, the undo record, the
 * placement schedule, and the functions one file defines for another
 * (make/unmake, the key from scratch, "has a move", start positions and
 * FEN for the descriptor in morelli.c).  Private to this folder.
 */
#ifndef MORELLI_MORELLI_INTERNAL_H
#define MORELLI_MORELLI_INTERNAL_H

#include "morelli.h"

/*
 * MORELLI_MAX_MOVES (the descriptor's max_moves): a true bound for every
 * option, the classic ruleset being the worst case.  Let T be the empty cells (targets), S the stones (at most
 * the ring, 48), A <= S - 1 the adverse stones.  For a target t:
 *  - the captures k_t at t do not depend on the stone that lands there
 *    (a stone coming from direction d passes the cell t+d, which is then
 *    empty, so it is neither a captured stone nor a partner), and a stone
 *    can come only along a ray whose neighbour of t is empty: at most
 *    8 - k_t movers reach t;
 *  - each landing gives at most 2^k subsets times 2 (enthrone or not).
 * So t gives at most g(k) = (8 - k) 2^(k+1) <= 16 + 40 k moves.  Each
 * capture is a line (t, s, p) with s adverse: at most one per line through
 * s, so sum k_t <= 4 A.  Total <= 16 T + 160 A <= 16 (168 - S) + 160 (S - 1)
 * = 2528 + 144 S <= 9440 on 13x13 (smaller boards give less).  Standard
 * play gives at most 8 per target (1344), placement at most 48.
 */
#define MORELLI_MAX_MOVES 9440

/* The undo record: the position before the move, the parts of it the
 * board size uses (unmake copies them back: fewer instructions than
 * undoing the line masks, orbit bytes and colours cell by cell); perft's
 * make leaves out the colour bytes MoPos.white (make.c, pos_parts_copy). */
typedef struct MoUndo {
    MoPos pos;
} MoUndo;

/* The side that places next after `count` stones (pairs: count / 2
 * placements). */
static inline int placement_side(int count, int pairs)
{
    int i = pairs ? count / 2 : count;
    return ((i + 1) / 2) & 1;
}

/* make.c */
void mo_make(MoPos *p, Move m, MoUndo *u);
void mo_unmake(MoPos *p, Move m, const MoUndo *u);
/* The key of p after the legal move m (GameSearch.key_after), p unchanged. */
Key mo_key_after(const MoPos *p, Move m);
/* Perft's make and unmake: the same make keeping only what the move
 * generator reads (stones, side to move, Throne, stone count, line masks,
 * orbit bytes, f3 and f2); the landing counts c.mob, the band sums c.bsum,
 * the colour bytes white and the key keep the values they had.  Only for
 * perft: a position made so must not be evaluated, asked for its result or
 * key, or made by mo_make. */
void mo_make_perft(MoPos *p, Move m, MoUndo *u);
void mo_unmake_perft(MoPos *p, const MoUndo *u);
/* Perft's last ply: the n moves of p each made and unmade with perft's
 * make; n. */
uint64_t mo_perft_leaves(MoPos *p, const Move *moves, int n);
/* tables.c: the Zobrist key of p computed from its stones; the key, mob
 * and bsum of p set from its stones (after setting them up) */
Key mo_key_scratch(const MoPos *p);
void mo_derive(MoPos *p);
/* gen.c: does the side to move have a legal move? */
int mo_has_move(const MoPos *p);
/* setup.c: the descriptor's init, from_fen and to_fen */
int mo_init(void *pos, const GameOptions *opt, char *err, size_t errlen);
int mo_from_fen(void *pos, const char *fen, const GameOptions *opt, char *err, size_t errlen);
void mo_to_fen(const void *pos, char *buf, size_t len);

#endif
