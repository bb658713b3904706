/*
 * morris_text.c -- the Morris family's options and text: the start
 * position for the options, FEN in and out, move text in and out, and
 * the board picture that the protocol's `d` shows (the protocol prints
 * the FEN line itself).
 */
#include <ctype.h>
#include <string.h>

#include "morris_internal.h"

static const char *const point_name[NPTS] = {"a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3",
                                             "e3", "a4", "b4", "c4", "e4", "f4", "g4", "c5",
                                             "d5", "e5", "b6", "d6", "f6", "a7", "d7", "g7"};

/* First point index and number of points of ranks 1..7. */
static const int rank_first[7] = {0, 3, 6, 9, 15, 18, 21};
static const int rank_len[7] = {3, 3, 3, 6, 3, 3, 3};

/* The empty position of the options opt (NULL: the defaults) into *p: no
 * piece on the board nor in hand (the caller fills those), White to move.
 * Returns 0, or -1 with a message in err when an option is bad. */
static int pos_for_options(Pos *p, const GameOptions *opt, char *err, size_t errlen)
{
    GameOptions def;
    const MorrisOptions *o = game_opts_or_default(&game_morris, opt, &def);
    if (o->pieces != 9 && o->pieces != 12) {
        snprintf(err, errlen, "morris: Pieces must be 9 or 12, not %d", (int)o->pieces);
        return -1;
    }
    memset(p, 0, sizeof *p);
    p->pieces = (uint8_t)o->pieces;
    p->diag = o->diagonals ? 1 : 0;
    p->flying = o->flying ? 1 : 0;
    p->move_rule = (uint32_t)o->move_rule;
    return 0;
}

int morris_init(void *vp, const GameOptions *opt, char *err, size_t errlen)
{
    Pos p;
    morris_ensure_tables();
    if (pos_for_options(&p, opt, err, errlen) < 0)
        return -1;
    p.hand[0] = p.hand[1] = p.pieces;
    p.key = morris_key_compute(&p);
    memcpy(vp, &p, sizeof p);
    return 0;
}

/* A non-negative decimal number that ends the token; -1 if malformed. */
static long parse_count(const char *s, size_t len)
{
    if (len == 0 || len > 6)
        return -1;
    long v = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)s[i]))
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

int morris_from_fen(void *vp, const char *fen, const GameOptions *opt, char *err, size_t errlen)
{
    Pos p;
    morris_ensure_tables();
    if (pos_for_options(&p, opt, err, errlen) < 0)
        return -1;
    if (!fen) {
        snprintf(err, errlen, "morris fen: empty");
        return -1;
    }
    /* Split into whitespace-separated fields. */
    const char *tok[6];
    size_t tlen[6];
    int nt = 0;
    for (const char *c = fen; *c;) {
        while (*c && isspace((unsigned char)*c))
            c++;
        if (!*c)
            break;
        if (nt == 6) {
            snprintf(err, errlen,
                     "morris fen: too many fields (want board side "
                     "white-in-hand black-in-hand [plies])");
            return -1;
        }
        tok[nt] = c;
        while (*c && !isspace((unsigned char)*c))
            c++;
        tlen[nt] = (size_t)(c - tok[nt]);
        nt++;
    }
    if (nt < 4 || nt > 5) {
        snprintf(err, errlen,
                 "morris fen: want 4 or 5 fields (board side "
                 "white-in-hand black-in-hand [plies]), got %d",
                 nt);
        return -1;
    }
    /* Board: ranks 7 down to 1. */
    const char *b = tok[0], *bend = tok[0] + tlen[0];
    for (int r = 6; r >= 0; r--) {
        int filled = 0, lastdigit = 0;
        while (b < bend && *b != '/') {
            char ch = *b++;
            if (ch >= '1' && ch <= '6') {
                if (lastdigit) {
                    snprintf(err, errlen, "morris fen: two digits in a row in rank %d", r + 1);
                    return -1;
                }
                filled += ch - '0';
                lastdigit = 1;
            } else if (ch == 'W' || ch == 'B' || ch == 'w' || ch == 'b') {
                if (filled < rank_len[r]) {
                    int side = (ch == 'W' || ch == 'w') ? 0 : 1;
                    p.bb[side] |= 1u << (rank_first[r] + filled);
                }
                filled++;
                lastdigit = 0;
            } else {
                snprintf(err, errlen, "morris fen: bad character '%c' in the board", ch);
                return -1;
            }
            if (filled > rank_len[r]) {
                snprintf(err, errlen, "morris fen: rank %d has more than %d points", r + 1,
                         rank_len[r]);
                return -1;
            }
        }
        if (filled != rank_len[r]) {
            snprintf(err, errlen, "morris fen: rank %d has %d points, not %d", r + 1, filled,
                     rank_len[r]);
            return -1;
        }
        if (r > 0) {
            if (b >= bend) {
                snprintf(err, errlen, "morris fen: want 7 ranks separated by '/'");
                return -1;
            }
            b++; /* the '/' */
        }
    }
    if (b != bend) {
        snprintf(err, errlen, "morris fen: more than 7 ranks");
        return -1;
    }
    if (tlen[1] != 1 ||
        (tok[1][0] != 'w' && tok[1][0] != 'b' && tok[1][0] != 'W' && tok[1][0] != 'B')) {
        snprintf(err, errlen, "morris fen: side to move must be 'w' or 'b'");
        return -1;
    }
    p.stm = (tok[1][0] == 'w' || tok[1][0] == 'W') ? SIDE_P1 : SIDE_P2;
    for (int c = 0; c < 2; c++) {
        long h = parse_count(tok[2 + c], tlen[2 + c]);
        if (h < 0) {
            snprintf(err, errlen, "morris fen: bad %s pieces-in-hand count", c ? "Black" : "White");
            return -1;
        }
        if (h + popcnt(p.bb[c]) > p.pieces) {
            snprintf(err, errlen,
                     "morris fen: %s has %ld in hand and %d on the board, "
                     "more than Pieces=%d",
                     c ? "Black" : "White", h, popcnt(p.bb[c]), p.pieces);
            return -1;
        }
        p.hand[c] = (uint8_t)h;
    }
    if (nt == 5) {
        long r = parse_count(tok[4], tlen[4]);
        if (r < 0 || r > 65535) {
            snprintf(err, errlen, "morris fen: bad ply count since the last removal");
            return -1;
        }
        p.rev = (uint16_t)r;
    }
    p.key = morris_key_compute(&p);
    memcpy(vp, &p, sizeof p);
    return 0;
}

void morris_to_fen(const void *vp, char *buf, size_t len)
{
    const Pos *p = vp;
    char out[FEN_MAX];
    size_t n = 0;
    for (int r = 6; r >= 0; r--) {
        int run = 0;
        for (int i = 0; i < rank_len[r]; i++) {
            uint32_t bit = 1u << (rank_first[r] + i);
            char ch = (p->bb[0] & bit) ? 'W' : (p->bb[1] & bit) ? 'B' : 0;
            if (!ch) {
                run++;
                continue;
            }
            if (run)
                out[n++] = (char)('0' + run);
            run = 0;
            out[n++] = ch;
        }
        if (run)
            out[n++] = (char)('0' + run);
        if (r)
            out[n++] = '/';
    }
    out[n] = '\0';
    snprintf(buf, len, "%s %c %d %d %d", out, p->stm ? 'b' : 'w', p->hand[0], p->hand[1], p->rev);
}

int morris_move_to_str(const void *vp, Move m, char *buf, size_t len)
{
    (void)vp;
    int to = mv_to(m), from = mv_from(m), rm = mv_rm(m);
    if (m == MOVE_NONE || to < 0 || to >= NPTS || from >= NPTS || rm >= NPTS)
        return snprintf(buf, len, "0000");
    char s[16];
    int n = 0;
    if (from >= 0)
        n += snprintf(s + n, sizeof s - (size_t)n, "%s-", point_name[from]);
    n += snprintf(s + n, sizeof s - (size_t)n, "%s", point_name[to]);
    if (rm >= 0)
        n += snprintf(s + n, sizeof s - (size_t)n, "x%s", point_name[rm]);
    return snprintf(buf, len, "%s", s);
}

/* Point named at s (two characters, any case), or -1. */
static int parse_point(const char *s)
{
    char f = (char)tolower((unsigned char)s[0]);
    char r = s[1];
    for (int i = 0; i < NPTS; i++)
        if (point_name[i][0] == f && point_name[i][1] == r)
            return i;
    return -1;
}

Move morris_move_from_str(const void *vp, const char *s)
{
    /* Lower case without '-': "d2", "d2d3", "d2xa1", "d2d3xa1". */
    char t[16];
    int n = game_move_text_normalise(s, t, sizeof t);
    int from = -1, to, rm = -1;
    int i = 0;
    if (n != 2 && n != 4 && n != 5 && n != 7)
        return MOVE_NONE;
    if (n == 4 || n == 7) {
        from = parse_point(t);
        i = 2;
    }
    to = parse_point(t + i);
    i += 2;
    if (i < n) {
        if (t[i] != 'x')
            return MOVE_NONE;
        rm = parse_point(t + i + 1);
        if (rm < 0)
            return MOVE_NONE;
    }
    if (to < 0 || ((n == 4 || n == 7) && from < 0))
        return MOVE_NONE;
    Move want = enc(from, to, rm);
    Move moves[MORRIS_MAX_MOVES];
    int cnt = morris_gen(vp, moves);
    for (int k = 0; k < cnt; k++)
        if (moves[k] == want)
            return want;
    return MOVE_NONE;
}

void morris_print(const void *vp, FILE *out, int ansi)
{
    const Pos *p = vp;
    static const char *const pic[13] = {
        "7 o-----------o-----------o", "  |           |           |", "6 |   o-------o-------o   |",
        "  |   |       |       |   |", "5 |   |   o---o---o   |   |", "  |   |   |       |   |   |",
        "4 o---o---o       o---o---o", "  |   |   |       |   |   |", "3 |   |   o---o---o   |   |",
        "  |   |       |       |   |", "2 |   o-------o-------o   |", "  |           |           |",
        "1 o-----------o-----------o",
    };
    for (int row = 0; row < 13; row++) {
        char line[40];
        snprintf(line, sizeof line, "%s", pic[row]);
        if (p->diag && row % 2 == 1 && row != 5 && row != 7) {
            /* Diagonal strokes between the corners of the squares. */
            int upper = row < 6;
            int col = (row == 1 || row == 11) ? 4 : 8;
            line[col] = upper ? '\\' : '/';
            line[28 - col] = upper ? '/' : '\\';
        }
        for (int c = 0; line[c]; c++) {
            if (line[c] != 'o') {
                fputc(line[c], out);
                continue;
            }
            int rank = 7 - row / 2, file = (c - 2) / 4;
            char name[3] = {(char)('a' + file), (char)('0' + rank), 0};
            int q = parse_point(name);
            uint32_t bit = q >= 0 ? 1u << q : 0;
            if (p->bb[0] & bit)
                fputs(ansi ? "\033[1;37mW\033[0m" : "W", out);
            else if (p->bb[1] & bit)
                fputs(ansi ? "\033[1;31mB\033[0m" : "B", out);
            else
                fputc('.', out);
        }
        fputc('\n', out);
    }
    fputs("  a   b   c   d   e   f   g\n", out);
    fprintf(out, "%s to move; in hand White %d, Black %d; plies since removal %d\n",
            p->stm ? "Black" : "White", p->hand[0], p->hand[1], p->rev);
}
