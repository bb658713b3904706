/*
 * past.h -- the rules that need the game's past: draws by repetition and
 * by MoveRule.  The position knows only itself; whoever plays a game (the
 * protocol, the match runner, a search) keeps the keys of the positions
 * before the current one and asks past_result().
 */
#ifndef MORELLI_PAST_H
#define MORELLI_PAST_H

#include "game.h"

/* A growable list of position keys, oldest first. */
typedef struct Past {
    Key *keys;
    int len, cap;
} Past;

void past_init(Past *h);
void past_free(Past *h);
void past_clear(Past *h);
/* Returns 0, or -1 when memory runs out (h unchanged). */
int past_push(Past *h, Key k);

/*
 * The full result of pos: the game's own result(), else a draw by
 * repetition (the key of pos seen g->repetition_count times counting pos
 * itself among prev[0..nprev) and pos) or by the game's move rule
 * (Game.move_rule: reversible_plies reaching what pos's options say, Morris's
 * MoveRule), else RESULT_NONE.
 */
int past_result(const Game *g, const void *pos, const Key *prev, int nprev);

/* Only the draws that need history (RESULT_DRAW or RESULT_NONE). */
int past_draw(const Game *g, const void *pos, const Key *prev, int nprev);

#endif
