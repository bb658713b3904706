/*
 * morelli_grid.c -- the plain end-game solver of morelli_grid.h.
 */
#include "morelli_grid.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h>

#include "testdata.h"

static const int dx[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int dy[8] = {0, 1, 1, 1, 0, -1, -1, -1};

static int iabs(int x)
{
    return x < 0 ? -x : x;
}

static int band(int n, int f, int k)
{
    int h = (n - 1) / 2, a = iabs(f - h), b = iabs(k - h);
    return a > b ? a : b;
}

int mg_from_fen(MgPos *p, const char *fen)
{
    int rows = 1;
    for (const char *s = fen; *s && *s != ' '; s++)
        rows += *s == '/';
    if (rows != 9 && rows != 11 && rows != 13)
        return -1;
    char cells[MG_MAXN * MG_MAXN];
    memset(p, 0, sizeof *p);
    p->n = rows;
    p->throne = '.';
    p->stm = *td_fen_board(fen, rows, cells);
    int count = 0;
    for (int k = 0; k < rows; k++)
        for (int f = 0; f < rows; f++) {
            char c = cells[k * rows + f];
            if (c == 'B' || c == 'W') {
                p->throne = c;
                c = '.';
            }
            p->cell[k][f] = c;
            count += c != '.';
        }
    return count == 4 * (rows - 1) ? 0 : -1;
}

/* Is every cell of the orbit of (f,k) a stone of colour c? */
static int orbit_full(const MgPos *p, int f, int k, char c)
{
    int h = (p->n - 1) / 2, x = f - h, y = k - h;
    for (int q = 0; q < 4; q++) {
        if (p->cell[y + h][x + h] != c)
            return 0;
        int nx = -y, ny = x;
        x = nx;
        y = ny;
    }
    return 1;
}

int mg_moves(const MgPos *p, MgMove *moves, int max)
{
    const int n = p->n, h = (n - 1) / 2;
    const char me = p->stm, op = me == 'b' ? 'w' : 'b', king = me == 'b' ? 'B' : 'W';
    int count = 0;
    for (int k = 0; k < n; k++)
        for (int f = 0; f < n; f++) {
            if (p->cell[k][f] != me)
                continue;
            for (int d = 0; d < 8; d++)
                for (int step = 1;; step++) {
                    int tf = f + step * dx[d], tk = k + step * dy[d];
                    if (tf < 0 || tf >= n || tk < 0 || tk >= n)
                        break;
                    if (tf == h && tk == h) {
                        if (p->throne != '.')
                            break;
                        continue; /* over the empty Throne */
                    }
                    if (p->cell[tk][tf] != '.')
                        break;
                    if (band(n, tf, tk) >= band(n, f, k))
                        continue;
                    if (count >= max)
                        return count;
                    MgMove *m = &moves[count++];
                    MgPos *a = &m->after;
                    *a = *p;
                    a->cell[k][f] = '.';
                    a->cell[tk][tf] = me;
                    a->stm = op;
                    int frame = 0, cf[8], ck[8], nc = 0;
                    for (int e = 0; e < 8; e++) {
                        int sf = tf + dx[e], sk = tk + dy[e];
                        int pf = tf + 2 * dx[e], pk = tk + 2 * dy[e];
                        if (pf < 0 || pf >= n || pk < 0 || pk >= n)
                            continue;
                        if (a->cell[sk][sf] == op && a->cell[pk][pf] == me) {
                            cf[nc] = sf;
                            ck[nc++] = sk;
                        }
                    }
                    for (int i = 0; i < nc; i++)
                        a->cell[ck[i]][cf[i]] = me;
                    frame = orbit_full(a, tf, tk, me);
                    for (int i = 0; i < nc; i++)
                        frame |= orbit_full(a, cf[i], ck[i], me);
                    if (frame && p->throne != king)
                        a->throne = king;
                    snprintf(m->text, sizeof m->text, "%c%d-%c%d", 'a' + f, k + 1, 'a' + tf,
                             tk + 1);
                }
        }
    return count;
}

/* ---- the search ------------------------------------------------------------ */

enum { EXACT = 1, LOWER = 2, UPPER = 3 };

typedef struct Slot {
    uint64_t key;
    int value; /* relative to the node: MG_WIN - k = win in k plies from it */
    int flag;
} Slot;

#define SLOTS (1 << 18)

typedef struct Solver {
    Slot *table;
    long nodes, budget;
    int over;
    MgMove *stack; /* room for the moves of every ply */
} Solver;

static uint64_t hash(const MgPos *p)
{
    uint64_t x = 1469598103934665603ull;
    for (int k = 0; k < p->n; k++)
        for (int f = 0; f < p->n; f++)
            x = (x ^ (unsigned char)p->cell[k][f]) * 1099511628211ull;
    x = (x ^ (unsigned char)p->throne) * 1099511628211ull;
    x = (x ^ (unsigned char)p->stm) * 1099511628211ull;
    return x | 1;
}

static int to_node(int v, int ply)
{
    return v > MG_WIN / 2 ? v + ply : v < -MG_WIN / 2 ? v - ply : v;
}

static int from_node(int v, int ply)
{
    return v > MG_WIN / 2 ? v - ply : v < -MG_WIN / 2 ? v + ply : v;
}

#define MAXDEPTH 200

static int search(Solver *s, const MgPos *p, int alpha, int beta, int ply, MgMove *mv, int room)
{
    if (++s->nodes > s->budget || ply >= MAXDEPTH || room < 1) {
        s->over = 1;
        return 0;
    }
    int n = mg_moves(p, mv, room);
    if (n == room) { /* maybe cut short: give up rather than guess */
        s->over = 1;
        return 0;
    }
    if (n == 0) {
        char king = p->stm == 'b' ? 'B' : 'W';
        return p->throne == '.' ? 0 : p->throne == king ? MG_WIN - ply : -(MG_WIN - ply);
    }
    uint64_t key = hash(p);
    Slot *e = &s->table[key & (SLOTS - 1)];
    if (e->key == key) {
        int v = from_node(e->value, ply);
        if (e->flag == EXACT || (e->flag == LOWER && v >= beta) || (e->flag == UPPER && v <= alpha))
            return v;
    }
    int a0 = alpha, best = -3 * MG_WIN;
    /* moves that enthrone first, then the others as found */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            int en = mv[i].after.throne != p->throne;
            if (en != (pass == 0))
                continue;
            int v = -search(s, &mv[i].after, -beta, -alpha, ply + 1, mv + n, room - n);
            if (s->over)
                return 0;
            if (v > best)
                best = v;
            if (best > alpha)
                alpha = best;
            if (alpha >= beta)
                goto done;
        }
done:
    e->key = key;
    e->value = to_node(best, ply);
    e->flag = best <= a0 ? UPPER : best >= beta ? LOWER : EXACT;
    return best;
}

int mg_solve(const MgPos *p, long budget, int wdl)
{
    Solver s = {0};
    s.table = calloc(SLOTS, sizeof(Slot));
    MgMove *stack = malloc(sizeof(MgMove) * (size_t)MG_MAXMOVES * 64);
    if (!s.table || !stack) {
        free(s.table);
        free(stack);
        return MG_UNKNOWN;
    }
    s.budget = budget;
    /* the plies share one stack of moves */
    int room = MG_MAXMOVES * 64;
    int v = wdl ? search(&s, p, -1, 1, 0, stack, room)
                : search(&s, p, -3 * MG_WIN, 3 * MG_WIN, 0, stack, room);
    free(s.table);
    free(stack);
    if (s.over)
        return MG_UNKNOWN;
    if (wdl)
        return v > 0 ? 1 : v < 0 ? -1 : 0;
    return v;
}
