/* PLACEHOLDER: replaced by the real morris implementation. */
#include <string.h>
#include "game.h"
typedef struct { Key key; int stm; } Pos;
static int init(void *p, const GameOptions *o, char *err, size_t n) { (void)o; (void)err; (void)n; memset(p, 0, sizeof(Pos)); return 0; }
static int from_fen(void *p, const char *f, const GameOptions *o, char *err, size_t n) { (void)p; (void)f; (void)o; snprintf(err, n, "not implemented"); return -1; }
static void to_fen(const void *p, char *b, size_t n) { (void)p; snprintf(b, n, "-"); }
static int gen(const void *p, Move *m) { (void)p; (void)m; return 0; }
static void make(void *p, Move m, void *u) { (void)p; (void)m; (void)u; }
static void unmake(void *p, Move m, const void *u) { (void)p; (void)m; (void)u; }
static int stm(const void *p) { return ((const Pos *)p)->stm; }
static int result(const void *p) { (void)p; return RESULT_DRAW; }
static Key key(const void *p) { return ((const Pos *)p)->key; }
static int eval(const void *p) { (void)p; return 0; }
static int noisy(const void *p, Move m) { (void)p; (void)m; return 0; }
static int mstr(const void *p, Move m, char *b, size_t n) { (void)p; return snprintf(b, n, "%u", (unsigned)m); }
static void print(const void *p, FILE *o, int a) { (void)p; (void)a; fprintf(o, "(placeholder)\n"); }
const Game game_morris = { .name = "morris", .pos_size = sizeof(Pos), .undo_size = 1, .max_moves = 1,
  .init = init, .from_fen = from_fen, .to_fen = to_fen, .gen_moves = gen, .make = make, .unmake = unmake,
  .side_to_move = stm, .result = result, .key = key, .key_from_scratch = key, .evaluate = eval,
  .move_is_noisy = noisy, .move_to_str = mstr, .print = print };
