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
 * Statistics for a graph (as KataGo keeps them): a node's value is the mean
 * of every playout through the position, whatever path led there; the
 * visits that UCT's exploration counts are the edge's (this parent's
 * choices of this move), and so is the move choice at the end.  A draw by
 * repetition depends on the path: it is counted on the edge that walked
 * into it (`draws`), never in the repeated position's node, and the edge's
 * mean blends the child's mean with those draws (edge_q()).
 *
 * Threads (tree parallelism): every thread walks the one tree.  Visits and
 * value sums are atomic counters; a thread adds a virtual loss on its way
 * down (a visit, and for a child the result that is worst for the parent's
 * side) and replaces it by the real result on the way up, so that the
 * others look elsewhere meanwhile.  Value sums are fixed-point integers
 * (VALUE_ONE a result of 1): exact whatever the order of the additions, one
 * atomic add, and no precision lost after billions of visits.  Nodes are
 * taken from the arena by an atomic counter and published in the table by
 * a compare-and-swap of their slot; a node is expanded by the thread that
 * moves its edge field from NODE_NONE to EDGE_BUSY (the others play out
 * meanwhile) and its edges are visible once the field holds the first; an
 * untried edge is claimed by a compare-and-swap of `tried` and its child is
 * published by an atomic store.  With one thread the search is the same
 * sequence of operations every time: deterministic.
 *
 * Node (32 bytes):
 *   key     64  Zobrist key of the position
 *   value   64  sum of the results for the side to move here, in
 *               VALUE_ONE units (1 win, 1/2 draw, 0 loss, or a playout's
 *               evaluation)
 *   visits  32  playouts through this node
 *   edge    32  first of its edges in the edge arena once expanded;
 *               NODE_NONE before, EDGE_BUSY while a thread expands it
 *   nedges  16  number of edges (legal moves)
 *   tried   16  edges claimed: the first `tried` ones have (or are about to
 *               have) a child (they are tried in their shuffled order)
 *   proof   32  bits 0-7 PROVEN_NONE / WIN / LOSS / DRAW for the side to
 *               move here, 8-23 plies to the end of the game when proven,
 *               24-31 the side to move (SIDE_P1/P2; values convert between
 *               sides through it, since a side may move twice running:
 *               Morelli's placement phase)
 * Edge (16 bytes): the move, the child node (NODE_NONE until visited), the
 * visits through the edge and the repetition draws among them.
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
 * mcts_playout.c (playouts) and mcts.c (the iteration, the threads, the
 * reports and the entry point).  Private to engine/search/.
 */
#ifndef MORELLI_SEARCH_MCTS_INTERNAL_H
#define MORELLI_SEARCH_MCTS_INTERNAL_H

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "search_internal.h"

#define NODE_NONE UINT32_MAX
#define MCTS_MAX_PATH 512
#define MCTS_PV_MAX 32
/* Roots with more legal moves than this have their untried moves ordered
 * by the evaluation (mcts_root_order()); smaller ones keep the random order. */
#define MCTS_ORDER_MIN 64
/* A result of 1 in a value sum: 2^30, so 2^32 visits fit in 64 bits. */
#define VALUE_ONE ((double)(1u << 30))

enum { PROVEN_NONE = 0, PROVEN_WIN = 1, PROVEN_LOSS = 2, PROVEN_DRAW = 3 };

typedef struct MctsNode {
    Key key;
    _Atomic uint64_t value;
    _Atomic uint32_t visits;
    _Atomic uint32_t edge; /* NODE_NONE: a leaf, EDGE_BUSY: being expanded */
    uint16_t nedges;       /* written before edge is */
    _Atomic uint16_t tried;
    _Atomic uint32_t proof; /* PROVEN_* | pdist << 8 | stm << 24 */
} MctsNode;
#define EDGE_BUSY (NODE_NONE - 1)
/* Moves a node can have: nedges is 16 bits (the games' max_moves are less). */
#define MCTS_MAX_EDGES 65535

typedef struct MctsEdge {
    Move move;
    _Atomic uint32_t child;
    _Atomic uint32_t visits;
    _Atomic uint32_t draws;
} MctsEdge;

_Static_assert(sizeof(MctsNode) == 32, "MCTS node is 32 bytes");
_Static_assert(sizeof(MctsEdge) == 16, "MCTS edge is 16 bytes");

/* What the threads of one search share besides the tree (kept in it: the
 * helpers may end after the search returned). */
typedef struct MctsShared {
    _Atomic uint64_t playouts;  /* the helpers', added every few */
    _Atomic uint64_t depth_sum; /* their iterations' depths, with them */
    atomic_int seldepth;        /* the helpers' deepest */
    atomic_int done;            /* the first thread tells the helpers to end */
} MctsShared;

struct Mcts {
    MctsNode *nodes;
    _Atomic uint32_t nnodes; /* taken (may pass cap_nodes: then full) */
    uint32_t cap_nodes;
    MctsEdge *edges;
    _Atomic uint64_t nedges; /* taken (may pass cap_edges: then full) */
    uint32_t cap_edges;
    _Atomic uint32_t *slots; /* node index + 1, 0 = empty */
    size_t nslots;           /* power of two */
    _Atomic int full;
    const Game *game; /* what the tree belongs to */
    GameOptions opt;
    uint64_t rng; /* the first thread's stream, kept from search to search */
    MctsShared sh;
    /* The last search's threads: runs[1..nruns) are helpers not joined
     * yet (mcts_join). */
    struct MctsRun *runs;
    int nruns;
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
 * a node may be the child of several root edges) and that of the root's
 * edge taken are made again.  Each
 * thread has its own arrays; with several threads each makes every entry
 * again every ROOT_REFRESH iterations, for what the others changed.
 */
#define ROOT_NEVER (-1e30f)
#define ROOT_REFRESH 16

typedef struct RootCache {
    uint32_t n;     /* root edges; 0: not made yet */
    uint32_t won;   /* children proven won for the root's side to move */
    float *q, *s;   /* n rounded up to 8 */
    uint8_t *win;   /* 1: the child is proven won */
    uint32_t *slot; /* node index + 1 per slot, 0 = empty */
    uint32_t *slot_edge;
    uint32_t mask; /* slots - 1 */
} RootCache;

/* One thread's working state. */
typedef struct MctsRun {
    SearchCtx *c;
    Mcts *t;
    const Game *g;
    MctsShared *sh;
    int id; /* 0: the thread that decides and reports */
    int threads;
    pthread_t th;
    double explore;
    int plain;
    int cap;
    uint64_t rng;
    uint32_t spare; /* a node taken but not published (lost a slot's race) */
    Key *keys;      /* prev keys then the path's */
    int nbase;
    Move *moves;
    unsigned char pos[POS_MAX_BYTES];
    unsigned char undo[UNDO_MAX_BYTES];
    uint32_t path[MCTS_MAX_PATH];
    uint64_t vl[MCTS_MAX_PATH]; /* the virtual loss added to each path node */
    uint64_t playouts;
    uint64_t published;       /* playouts already added to sh->playouts */
    uint64_t published_depth; /* depth_sum already added to sh->depth_sum */
    uint64_t depth_sum;
    int seldepth;
    uint32_t root;
    uint32_t root_edge; /* the root's edge the iteration took, NODE_NONE if none */
    RootCache rc;
} MctsRun;

/* --- values (inline: the selection's inner loops) ---------------------- */

static inline int node_proven(const MctsNode *n)
{
    return (int)(atomic_load_explicit(&n->proof, memory_order_relaxed) & 0xff);
}

static inline int node_pdist(const MctsNode *n)
{
    return (int)(atomic_load_explicit(&n->proof, memory_order_relaxed) >> 8 & 0xffff);
}

/* The side to move at n (it never changes). */
static inline int node_stm(const MctsNode *n)
{
    return (int)(atomic_load_explicit(&n->proof, memory_order_relaxed) >> 24);
}

/* n's edges once expanded (acquire: the edges and nedges are written
 * before n->edge). */
static inline int node_expanded(const MctsNode *n)
{
    return atomic_load_explicit(&n->edge, memory_order_acquire) < EDGE_BUSY;
}

/* The first of n's edges, once node_expanded(n). */
static inline uint32_t node_edge(const MctsNode *n)
{
    return atomic_load_explicit(&n->edge, memory_order_relaxed);
}

static inline uint32_t edge_child(const MctsEdge *e)
{
    return atomic_load_explicit(&e->child, memory_order_acquire);
}

/* Proven state of child c as seen by the side to move at parent p. */
static inline int proven_for(const MctsNode *p, const MctsNode *c)
{
    int pr = node_proven(c);
    if (pr == PROVEN_NONE || pr == PROVEN_DRAW || node_stm(c) == node_stm(p))
        return pr;
    return pr == PROVEN_WIN ? PROVEN_LOSS : PROVEN_WIN;
}

/* Mean result of node c for the side to move at p (1/2 before a visit). */
static inline double node_q(const MctsNode *p, const MctsNode *c)
{
    uint32_t v = atomic_load_explicit(&c->visits, memory_order_relaxed);
    uint64_t sum = atomic_load_explicit(&c->value, memory_order_relaxed);
    double q = v ? (double)sum / VALUE_ONE / v : 0.5;
    if (q > 1.0) /* a sum read between two threads' updates */
        q = 1.0;
    return node_stm(c) == node_stm(p) ? q : 1.0 - q;
}

/* Mean result of the move e (to child c) for the side to move at p: the
 * child's mean, with the repetition draws met through this edge counted
 * as draws. */
static inline double edge_q(const MctsNode *p, const MctsEdge *e, const MctsNode *c)
{
    double q = node_q(p, c);
    uint32_t dr = atomic_load_explicit(&e->draws, memory_order_relaxed);
    if (!dr)
        return q;
    uint32_t ev = atomic_load_explicit(&e->visits, memory_order_relaxed);
    if (dr > ev)
        ev = dr;
    return (q * (double)(ev - dr) + 0.5 * (double)dr) / (double)ev;
}

/* UCT's two terms for the move e (to child c) of n: returns q, the move's
 * mean result for n's side to move, and sets *s = sqrt(1 / edge visits).
 * The root's arrays and mcts_select_edge's walk both take them from here,
 * so they choose alike. */
static inline float uct_terms(const MctsNode *n, const MctsEdge *e, const MctsNode *c, float *s)
{
    uint32_t ev = atomic_load_explicit(&e->visits, memory_order_relaxed);
    *s = sqrtf(1.0f / (float)(ev ? ev : 1));
    return (float)edge_q(n, e, c);
}

/* --- mcts_tree.c --- */

/* A tree of Hash size mb, NULL when out of memory. */
Mcts *mcts_new(int64_t mb);
/* The node of pos (key key), created when new; NODE_NONE when full. */
uint32_t mcts_node_get(MctsRun *r, const void *pos, Key key);
/* Gives n (the position r->pos) its edges, when no other thread is at it:
 * 1 when n is expanded, 0 when it has no move, the edge arena is full or
 * another thread is expanding it. */
int mcts_node_expand(MctsRun *r, MctsNode *n);
/* The root n's untried edges in the order of the evaluation, best first. */
void mcts_root_order(MctsRun *r, MctsNode *n);
/* Result for P1 of a proven node. */
double mcts_proven_result_p1(const MctsNode *n);
/* MCTS-Solver: settle n from its proven children. */
void mcts_solver_update(Mcts *t, MctsNode *n);
/* Nodes and edges in use, each at most its arena's size. */
uint32_t mcts_nodes_used(const Mcts *t);
uint32_t mcts_edges_used(const Mcts *t);

/* --- mcts_select.c --- */

/* The edge UCT takes from the expanded node n; NODE_NONE when every child
 * is still being added by other threads. */
uint32_t mcts_select_edge(MctsRun *r, const MctsNode *n);
/* After an iteration's backup along r->path[1..d]: the root's arrays. */
void mcts_root_cache_update(MctsRun *r, int d);
void mcts_root_cache_free(RootCache *rc);

/* --- mcts_playout.c --- */

/* Result for P1 of a playout from r->pos, which is changed. */
double mcts_playout(MctsRun *r);

#endif
