/*
 * skill.h -- strength levels (Skill Level, UCI_LimitStrength, UCI_Elo):
 * below full strength a search is capped in depth and nodes, always reports
 * at least SKILL_LINES lines, and plays a line chosen at random with a
 * weight that favours the better ones less and less as the level drops, so
 * its mistakes are moves a player would consider, not random blunders.
 * docs/levels.md has the calibration.
 */
#ifndef MORELLI_SKILL_H
#define MORELLI_SKILL_H

#include <stdint.h>

#include "game.h"
#include "search.h"

#define SKILL_MAX 20  /* full strength */
#define SKILL_LINES 4 /* lines searched below full strength */
/* UCI_Elo's range: full strength is SKILL_ELO_MAX (the scale's anchor). */
#define SKILL_ELO_MIN 920
#define SKILL_ELO_MAX 2000

/* The level played: Skill Level, or with limit_strength the level whose
 * measured Elo is nearest elo. */
int skill_level(int level, int limit_strength, int elo);
/* The Elo of a level on UCI_Elo's scale (docs/levels.md). */
int skill_elo(int level);
/* The caps of a level below SKILL_MAX on l's depth and node limits. */
void skill_limits(int level, SearchLimits *l);
/*
 * The line a level plays among n lines (moves[i], scores[i] best first,
 * n >= 1): each line's score plus a random amount below the level's
 * spread, the highest sum.  The random stream is seed (the SkillSeed option
 * mixed with the position's key): the same position, seed and level always
 * give the same move.  Returns the index.
 */
int skill_pick(int level, uint64_t seed, const int *scores, int n);

#endif
