/*
 * picture.c -- the Morelli picture of `match --demo` (game.h's picture
 * hook), drawn from FENs so the last move can be marked: [x] the cell the
 * stone reached, *.* the cell it left, (x) a stone it captured (turned),
 * {K} the king it put on the Throne.  With colour, stones are solid black
 * or white squares in the middle of their band's colour, readable on every
 * band; without, each empty cell shows its band's letter.  Also the
 * legend, the stones and the Throne in one line, the move's captures and
 * enthronement in words and a side's tally of them for the summary.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define PIC_N 13

/* A board from its FEN: cell[rank][file], rank 0 = rank 1; '.' empty,
 * 'b' 'w' stones, 'B' 'W' a king on the Throne; stm the side to move. */
typedef struct Board {
    int n;
    char stm;
    char cell[PIC_N][PIC_N];
} Board;

/* Band colours, Throne (violet) outwards, as ANSI 256-colour backgrounds,
 * with a marker colour readable on each; band letters of the plain text. */
static const int band_bg[7] = {129, 54, 27, 34, 226, 208, 196};
static const int band_fg[7] = {231, 231, 231, 16, 16, 16, 16};
static const char band_letter[7] = {'v', 'i', 'u', 'g', 'y', 'o', 'r'};
static const char *const band_name[7] = {"violet Throne", "indigo", "blue", "green",
                                         "yellow",        "orange", "red"};

enum { MARK_NONE, MARK_TO, MARK_FROM, MARK_CAPTURED, MARK_THRONE };
static const char mark_left[] = " [*({", mark_right[] = " ]*)}";

/* The tally of a side (GAME_TALLY ints): moves that captured, stones
 * turned, enthronements. */
enum { TALLY_CAPTURES, TALLY_TURNED, TALLY_ENTHRONED };

static int parse_board(const char *fen, Board *b)
{
    memset(b, '.', sizeof *b);
    int rows = 1;
    for (const char *s = fen; *s && *s != ' '; s++)
        rows += *s == '/';
    if (rows != 9 && rows != 11 && rows != 13)
        return -1;
    b->n = rows;
    const char *sp = strchr(fen, ' ');
    b->stm = sp ? sp[1] : 0;
    int r = rows - 1, f = 0;
    for (const char *s = fen; *s && *s != ' '; s++) {
        if (*s == '/') {
            r--;
            f = 0;
        } else if (*s >= '0' && *s <= '9') {
            int k = (int)strtol(s, (char **)&s, 10);
            s--;
            f += k;
        } else if (f < rows && r >= 0) {
            b->cell[r][f++] = *s;
        }
    }
    return 0;
}

static int band_of(const Board *b, int r, int f)
{
    int c = b->n / 2, dr = abs(r - c), df = abs(f - c);
    return dr > df ? dr : df;
}

static int colour_of(char ch) /* 1 Black, 2 White, 0 empty */
{
    return ch == 'b' || ch == 'B' ? 1 : ch == 'w' || ch == 'W' ? 2 : 0;
}

/* "e3" at s: sets *r, *f; returns the characters read, 0 if none. */
static int parse_cell(const char *s, int n, int *r, int *f)
{
    if (s[0] < 'a' || s[0] >= 'a' + n)
        return 0;
    char *end;
    long rank = strtol(s + 1, &end, 10);
    if (end == s + 1 || rank < 1 || rank > n)
        return 0;
    *f = s[0] - 'a';
    *r = (int)rank - 1;
    return (int)(end - s);
}

static void print_cell(FILE *out, const Board *b, int r, int f, int mark, int tty)
{
    char ch = b->cell[r][f];
    int band = band_of(b, r, f), col = colour_of(ch);
    char l = mark_left[mark], rt = mark_right[mark];
    if (!tty) {
        fprintf(out, "%c%c%c", l, col ? ch : band_letter[band], rt);
        return;
    }
    fprintf(out, "\033[48;5;%d;38;5;%d;1m%c", band_bg[band], band_fg[band], l);
    if (col == 1)
        fprintf(out, "\033[48;5;16;38;5;231m%c", ch);
    else if (col == 2)
        fprintf(out, "\033[48;5;231;38;5;16m%c", ch);
    else
        fputc(' ', out);
    fprintf(out, "\033[48;5;%d;38;5;%dm%c\033[0m", band_bg[band], band_fg[band], rt);
}

static void print_board(FILE *out, const Board *b, unsigned char mark[PIC_N][PIC_N], int tty)
{
    for (int r = b->n - 1; r >= 0; r--) {
        fprintf(out, "%3d ", r + 1);
        for (int f = 0; f < b->n; f++)
            print_cell(out, b, r, f, mark ? mark[r][f] : MARK_NONE, tty);
        fputc('\n', out);
    }
    fprintf(out, "    ");
    for (int f = 0; f < b->n; f++)
        fprintf(out, " %c ", 'a' + f);
    fputc('\n', out);
}

static void print_legend(FILE *out, int n, int tty)
{
    int outer = n / 2;
    fprintf(out, "bands:");
    for (int band = outer; band >= 0; band--) {
        if (tty)
            fprintf(out, " \033[48;5;%dm  \033[0m %s", band_bg[band], band_name[band]);
        else
            fprintf(out, " %c %s%s", band_letter[band], band_name[band], band ? "," : "");
    }
    fputc('\n', out);
    if (tty)
        fprintf(out, "stones: \033[48;5;16;38;5;231;1mb\033[0m Black, "
                     "\033[48;5;231;38;5;16;1mw\033[0m White, B/W a king on the Throne");
    else
        fprintf(out, "stones: b Black, w White, B/W a king on the Throne");
    fprintf(out, "\nlast move: [x] arrived, *.* left, (x) captured (turned), {K} enthroned\n");
}

/* The stones of each side and the Throne; with_stm adds the side to move. */
static void print_material(FILE *out, const char *lead, const Board *b, int with_stm)
{
    int count[3] = {0, 0, 0};
    for (int r = 0; r < b->n; r++)
        for (int f = 0; f < b->n; f++)
            count[colour_of(b->cell[r][f])]++;
    char centre = b->cell[b->n / 2][b->n / 2];
    fprintf(out, "%sstones: Black %d, White %d; Throne: %s", lead, count[1] - (centre == 'B'),
            count[2] - (centre == 'W'),
            centre == 'B'   ? "Black king"
            : centre == 'W' ? "White king"
                            : "empty");
    if (with_stm && b->stm)
        fprintf(out, "; %s to move", b->stm == 'w' ? "White" : "Black");
    fputc('\n', out);
}

/* Marks the cells of the move played (text) between was and now; returns
 * the stones it turned and sets *enthroned. */
static int mark_move(const Board *was, const Board *now, const char *text,
                     unsigned char mark[PIC_N][PIC_N], int *enthroned)
{
    int n = now->n, fr = -1, ff = -1, tr = -1, tf = -1;
    memset(mark, MARK_NONE, PIC_N * PIC_N);
    *enthroned = 0;
    int k = parse_cell(text, n, &fr, &ff);
    if (k && text[k] == '-' && parse_cell(text + k + 1, n, &tr, &tf)) {
        mark[fr][ff] = MARK_FROM;
        mark[tr][tf] = MARK_TO;
    }
    int turned = 0;
    for (int r = 0; r < n; r++)
        for (int f = 0; f < n; f++) {
            int a = colour_of(was->cell[r][f]), b = colour_of(now->cell[r][f]);
            if (r == n / 2 && f == n / 2) {
                if (b && a != b) {
                    mark[r][f] = MARK_THRONE;
                    *enthroned = 1;
                }
            } else if (!a && b && tr < 0) {
                mark[r][f] = MARK_TO; /* a placement */
            } else if (a && b && a != b) {
                mark[r][f] = MARK_CAPTURED;
                turned++;
            }
        }
    return turned;
}

/* The move's captures and enthronement in words, added to tally. */
static void print_note(FILE *out, const Board *was, const Board *now,
                       unsigned char mark[PIC_N][PIC_N], int turned, int enthroned, int *tally)
{
    int first = 1;
    for (int r = 0; r < now->n; r++)
        for (int f = 0; f < now->n; f++)
            if (mark[r][f] == MARK_CAPTURED) {
                fprintf(out, "%s%c%d", first ? ", captures " : " ", 'a' + f, r + 1);
                first = 0;
            }
    if (enthroned)
        fprintf(out, ", enthrones the %s king", was->stm == 'w' ? "White" : "Black");
    if (tally) {
        tally[TALLY_CAPTURES] += turned > 0;
        tally[TALLY_TURNED] += turned;
        tally[TALLY_ENTHRONED] += enthroned;
    }
}

static void print_tally(FILE *out, const int *t)
{
    fprintf(out, ", %d capture%s turning %d stone%s, %d enthronement%s", t[TALLY_CAPTURES],
            t[TALLY_CAPTURES] == 1 ? "" : "s", t[TALLY_TURNED], t[TALLY_TURNED] == 1 ? "" : "s",
            t[TALLY_ENTHRONED], t[TALLY_ENTHRONED] == 1 ? "" : "s");
}

void morelli_picture(int part, const char *prev, const char *fen, const char *move, int *tally,
                     int ansi, FILE *out)
{
    Board now, was;
    unsigned char mark[PIC_N][PIC_N];
    if (parse_board(fen, &now) != 0)
        return;
    if (part == PICTURE_TALLY) {
        print_tally(out, tally);
        return;
    }
    if (part == PICTURE_TITLE) {
        fprintf(out, " %dx%d", now.n, now.n);
        return;
    }
    if (part == PICTURE_START) {
        print_board(out, &now, NULL, ansi);
        print_legend(out, now.n, ansi);
        print_material(out, "     ", &now, 1);
        return;
    }
    if (part == PICTURE_END) {
        print_material(out, "  at the end: ", &now, 0);
        return;
    }
    if (parse_board(prev, &was) != 0 || was.n != now.n)
        return;
    int enthroned, turned = mark_move(&was, &now, move, mark, &enthroned);
    if (part == PICTURE_NOTE) {
        print_note(out, &was, &now, mark, turned, enthroned, tally);
    } else {
        print_board(out, &now, mark, ansi);
        if (ansi)
            print_legend(out, now.n, 1);
        print_material(out, "     ", &now, 1);
    }
}
