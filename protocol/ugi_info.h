/*
 * ugi_info.h -- the text of the searchers' reports (search.h's SearchInfo):
 * the protocol's `info ...` lines.
 */
#ifndef MORELLI_UGI_INFO_H
#define MORELLI_UGI_INFO_H

#include <stddef.h>

#include "game.h"
#include "search/search.h"

/* Room for one info line (a pv of MAX_PLY moves fits). */
#define UGI_INFO_MAX 8192

/*
 * The line of the report in of a search of the position root of game g,
 * into buf (len bytes, UGI_INFO_MAX is enough):
 *   info depth D seldepth S [multipv K] score cp N|mate N [lowerbound] nodes N nps N
 *        time MS hashfull N [pv m1 m2 ...]
 *   info string solved: cp N|mate N
 *   info depth 0 score cp 0 nodes 0 nps 0 time 0 hashfull 0   (game over)
 * The pv's moves are written each in its own position.
 */
void ugi_info_text(const Game *g, const void *root, const SearchInfo *in, char *buf, size_t len);
/*
 * UCI_ShowWDL: " wdl W D L" (per mille, summing to 1000; search/wdl.h) put
 * into the line ugi_info_text() wrote for in: after the score of an
 * iteration's line, at the end of the solved line (exact: 1000 0 0, 0 1000
 * 0 or 0 0 1000).  Nothing for the game-over line or when it does not fit.
 */
void ugi_info_add_wdl(const Game *g, const SearchInfo *in, char *line, size_t len);

#endif
