/*
 * mcts_internal.h -- what the files of the MCTS searcher share: the tree's
 * layout, one search's state and the functions each file gives the others.
 *
 * Monte Carlo tree search: UCT with MCTS-Solver.
 *
 * The tree is a graph of positions: every node is one position, found by
 * its Zobrist key in an open-addressing table (the slot from tt_index(), as
 * the alpha-beta table does), so transposed positions share statistics and
 * the tree of the previous move is found again from the new root's key.
 * Nodes and edges live in two arenas allocated once (Hash megabytes between
 * them) and are addressed by 32-bit indices; when either arena is full the
 * tree stops growing and the search goes on with playouts from its leaves.
 *
 * Node (32 bytes):
 *   key     64  Zobrist key of the position
 *   value   32  float, sum of the results for the side to move here
 *               (1 win, 1/2 draw, 0 loss, or a playout's evaluation)
 *   visits  32  playouts through this node
 *   edge    32  first of its edges in the edge arena, NODE_NONE if the node
 *               is not expanded yet
 *   nedges  32  number of edges (legal moves)
 *   tried   32  edges with a child: the first `tried` ones (they are tried
 *               in their shuffled order)
 *   pdist   16  plies to the end of the game when proven
 *   proven   8  PROVEN_NONE / WIN / LOSS / DRAW for the side to move here
 *   stm      8  side to move (SIDE_P1/P2); values convert between sides
 *               through it, since a side may move twice running (Morelli's
 *               placement phase)
 * Edge (8 bytes): the move and the child node (NODE_NONE until visited).
 *
 * One iteration: select by UCT from the root while nodes are expanded
 * (unvisited moves first), expand a node on its second visit (later once
 * the arenas are 3/4 full, see expand_after() in mcts.c), add the child
 * reached, play out from there (the game's light playout policy (GamePlayout) in the
 * full setting, uniform random moves in the plain one), and back the result
 * up.  MCTS-Solver: a node whose child is lost for the opponent is a proven
 * win, a node whose children are all proven takes the best of them; proven
 * children are never explored again, and a proven root ends the search.
 * Playouts of games that may not end by themselves (Morris) stop after
 * MCTSPlayoutCap plies and score by the evaluation (full) or as a draw
 * (plain).
 *
 * The files: mcts_tree.c (the arenas, the node table, expansion and the
 * solver's values), mcts_select.c (UCT: the walk and the root's arrays),
 * mcts_playout.c (playouts) and mcts.c (the iteration, the reports and
 * the entry point).  Private to engine/search/.
 */
#ifndef MORELLI_SEARCH_MCTS_INTERNAL_H
#define MORELLI_SEARCH_MCTS_INTERNAL_H

#include <math.h>
#include <stdint.h>

#include "search_internal.h"

#define NODE_NONE UINT32_MAX
#define MCTS_MAX_PATH 512
#define MCTS_PV_MAX 32
/* Roots with more legal moves than this have their untried moves ordered
 * by the evaluation (mcts_root_order()); smaller ones keep the random order. */
#define MCTS_ORDER_MIN 64

enum { PROVEN_NONE = 0, PROVEN_WIN = 1, PROVEN_LOSS = 2, PROVEN_DRAW = 3 };

typedef struct MctsNode {
    Key key;
    float value;
    uint32_t visits;
    uint32_t edge;
    uint32_t nedges;
    uint32_t tried;
    uint16_t pdist;
    uint8_t proven;
    uint8_t stm;
} MctsNode;

typedef struct MctsEdge {
    Move move;
    uint32_t child;
} MctsEdge;

_Static_assert(sizeof(MctsNode) == 32, "MCTS node is 32 bytes");
_Static_assert(sizeof(MctsEdge) == 8, "MCTS edge is 8 bytes");

struct Mcts {
    MctsNode *nodes;
    uint32_t nnodes, cap_nodes;
    MctsEdge *edges;
    uint32_t nedges, cap_edges;
    uint32_t *slots; /* node index + 1, 0 = empty */
    size_t nslots;   /* power of two */
    int full;
    const Game *game; /* what the tree belongs to */
    GameOptions opt;
    uint64_t rng;
};

/*
 * The root's children in arrays (its edge order), so that UCT at the root,
 * where Morelli has about 480 children, is a vector loop over two floats a
 * child instead of a walk over the nodes: q[i] = the mean result for the
 * root's side to move and s[i] = sqrt(1 / visits), both from uct_terms()
 * as in mcts_select_edge, so the choices are the same; made once every edge has a
 * child.  A child proven won or lost has q = ROOT_NEVER (a win is taken
 * first, by a scan, when `won` counts one).  Entries change only when a child's node does, which is on
 * an iteration's path: after each backup the entries of the path's nodes
 * that are root children (found by node index in an open-addressing set;
 * a node may be the child of several root edges) are made again.
 */
#define ROOT_NEVER (-1e30f)

typedef struct RootCache {
    uint32_t n;     /* root edges; 0: not made yet */
    uint32_t won;   /* children proven won for the root's side to move */
    float *q, *s;   /* n rounded up to 8 */
    uint8_t *win;   /* 1: the child is proven won */
    uint32_t *slot; /* node index + 1 per slot, 0 = empty */
    uint32_t *slot_edge;
    uint32_t mask; /* slots - 1 */
} RootCache;

/* One search's working state. */
typedef struct MctsRun {
    SearchCtx *c;
    Mcts *t;
    const Game *g;
    double explore;
    int plain;
    int cap;
    Key *keys; /* prev keys then the path's */
    int nbase;
    Move *moves;
    unsigned char pos[POS_MAX_BYTES];
    unsigned char undo[UNDO_MAX_BYTES];
    uint32_t path[MCTS_MAX_PATH];
    uint64_t playouts;
    uint64_t depth_sum;
    int seldepth;
    uint32_t root;
    RootCache rc;
} MctsRun;

/* --- values (inline: the selection's inner loops) ---------------------- */

/* Proven state of child c as seen by the side to move at parent p. */
static inline int proven_for(const MctsNode *p, const MctsNode *c)
{
    if (c->proven == PROVEN_NONE || c->proven == PROVEN_DRAW || c->stm == p->stm)
        return c->proven;
    return c->proven == PROVEN_WIN ? PROVEN_LOSS : PROVEN_WIN;
}

/* Mean result of child c for the side to move at parent p. */
static inline double q_for(const MctsNode *p, const MctsNode *c)
{
    double q = c->visits ? c->value / c->visits : 0.5;
    return c->stm == p->stm ? q : 1.0 - q;
}

/* UCT's two terms for the child c of n: returns q, the child's mean result
 * for n's side to move, and sets *s = sqrt(1 / visits).  The root's arrays
 * and mcts_select_edge's walk both take them from here, so they choose alike. */
static inline float uct_terms(const MctsNode *n, const MctsNode *c, float *s)
{
    float inv = 1.0f / (float)c->visits;
    float q = c->value * inv;
    if (c->stm != n->stm)
        q = 1.0f - q;
    *s = sqrtf(inv);
    return q;
}

/* --- mcts_tree.c --- */

/* A tree of Hash size mb, NULL when out of memory. */
Mcts *mcts_new(int64_t mb);
/* The node of pos (key key), created when new; NODE_NONE when full. */
uint32_t mcts_node_get(Mcts *t, const Game *g, const void *pos, Key key);
/* Gives n (the position r->pos) its edges: 1, or 0 when it has no move or
 * the edge arena is full. */
int mcts_node_expand(MctsRun *r, MctsNode *n);
/* The root n's untried edges in the order of the evaluation, best first. */
void mcts_root_order(MctsRun *r, MctsNode *n);
/* Result for P1 of a proven node. */
double mcts_proven_result_p1(const MctsNode *n);
/* MCTS-Solver: settle n from its proven children. */
void mcts_solver_update(Mcts *t, MctsNode *n);

/* --- mcts_select.c --- */

/* The edge UCT takes from the expanded node n. */
uint32_t mcts_select_edge(MctsRun *r, const MctsNode *n);
/* After an iteration's backup along r->path[1..d]: the root's arrays. */
void mcts_root_cache_update(MctsRun *r, int d);
void mcts_root_cache_free(RootCache *rc);

/* --- mcts_playout.c --- */

/* Result for P1 of a playout from r->pos, which is changed. */
double mcts_playout(MctsRun *r);

#endif
