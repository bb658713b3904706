/*
 * morris_tb.h -- Morris endgame tables as files (docs/tables.md): the
 * board's 16 symmetries, the index of a position up to them, the file
 * format (header, checksum), the files found on TablePath, and the builder
 * of `morelli tables build`.  Included by engine/morris/ and the tests.
 */
#ifndef MORELLI_MORRIS_TB_H
#define MORELLI_MORRIS_TB_H

#include <stddef.h>
#include <stdint.h>

#define TB_MAGIC "MORRISTB"
#define TB_VERSION 2 /* written; version 1 files are still read */
#define TB_HEADER_BYTES 64
#define TB_BLOCK_LOG 16   /* 64 KiB payload blocks, each with its checksum */
#define TB_SCHEME_SYM16 1 /* index scheme: mover set up to symmetry, colex */
#define TB_ENC_DTM8 1     /* one byte an entry: value and distance */
#define TB_ENC_WDL2 2     /* two bits an entry: value only */
#define TB_ENC_DTM16 3    /* two bytes an entry: value and a longer distance */
#define TB_MIN 3          /* fewest pieces a side in a table */
#define TB_MAX 9          /* most pieces a side the index covers */
#define TB_NSYM 16

/* Entry values (tb_probe, tb_write's get): 0 draw, 1 + d decided in d
 * plies (d odd: the mover wins, even: the mover loses; d <= TB_MAXD in a
 * TB_ENC_DTM8 file, d <= TB_MAXD16 in a TB_ENC_DTM16 one), TB_WIN_FAR /
 * TB_LOSS_FAR: won or lost, distance not stored (a TB_ENC_WDL2 entry reads
 * as 0 or one of these).  In a TB_ENC_DTM8 file they are the bytes 254 and
 * 255, in a TB_ENC_DTM16 file the values 65534 and 65535. */
#define TB_MAXD 252
#define TB_MAXD16 65532
#define TB_WIN_FAR 65534
#define TB_LOSS_FAR 65535

/* The entry value of entry i of a payload p in encoding enc (the file
 * reader's probes, `tables verify`), -1 for encoding 2's unused value 3. */
static inline int tb_decode(int enc, const uint8_t *p, uint64_t i)
{
    if (enc == TB_ENC_DTM16)
        return p[2 * i] | p[2 * i + 1] << 8;
    if (enc == TB_ENC_DTM8)
        return p[i] < 254 ? p[i] : p[i] == 254 ? TB_WIN_FAR : TB_LOSS_FAR;
    static const int wdl[4] = {0, TB_WIN_FAR, TB_LOSS_FAR, -1};
    return wdl[(p[i >> 2] >> (2 * (i & 3))) & 3];
}

typedef struct TbHeader {
    uint32_t version;
    int diagonals, flying, mover, opp, scheme, encoding;
    uint64_t entries, payload_bytes, payload_sum;
    uint32_t longest;    /* the longest distance stored, plies */
    int block_log;       /* version 2: log2 of a block's bytes */
    uint32_t blocks;     /* version 2: blocks of the payload (their checksums follow the header) */
    uint64_t payload_at; /* where the payload starts (tb_header_parse fills it) */
} TbHeader;

/* --- symmetry and index ---------------------------------------------- */

/* Point set x under symmetry s (0..15; 0 is the identity). */
uint32_t tb_sym(int s, uint32_t x);
/* Entries of the table of mover m against opponent o pieces (3..9). */
uint64_t tb_entries(int m, int o);
/* The index of the position (mover x, opponent y) in its table: the same
 * for all 16 images of the position. */
uint64_t tb_index(uint32_t x, uint32_t y);
/* The canonical position of entry i of table (m, o): *x, *y. */
void tb_unindex(int m, int o, uint64_t i, uint32_t *x, uint32_t *y);

/* --- format ----------------------------------------------------------- */

/* The checksum of docs/tables.md over n bytes. */
uint64_t tb_checksum(const void *data, size_t n);
/* The same in pieces: h from tb_checksum (or _more) of the bytes before,
 * whose count must be a multiple of 8. */
uint64_t tb_checksum_more(uint64_t h, const void *data, size_t n);
/* The payload bytes of entries in encoding enc; the bytes of a file of
 * format version 2 holding them. */
uint64_t tb_payload_bytes(int encoding, uint64_t entries);
uint64_t tb_file_bytes(int encoding, uint64_t entries);
/* The 64 header bytes of h into out (the block table is not part of them). */
void tb_header_write(const TbHeader *h, uint8_t out[TB_HEADER_BYTES]);
/* Parses the header of a file of file_bytes bytes whose first len bytes are
 * buf; 0, or -1 with the reason in why.  Never reads past buf[len). */
int tb_header_parse(const uint8_t *buf, size_t len, uint64_t file_bytes, TbHeader *h, char *why,
                    size_t whylen);
/* "morris-plain-fly-4v3.mtb" */
void tb_file_name(int diagonals, int flying, int m, int o, char *buf, size_t len);

/* --- files on TablePath ------------------------------------------------ */

/* TablePath: NULL or "auto" for the default ($MORELLI_TABLES, else
 * $XDG_CACHE_HOME/morelli, else ~/.cache/morelli), "" for no files, else
 * directories separated by ':'.  Takes effect at the next tb_open. */
void tb_set_path(const char *path);
/* The directories in effect, ':'-separated, into buf. */
void tb_get_path(char *buf, size_t len);
/* Maps the files of an option set found on TablePath (once per TablePath
 * setting); each bad file is refused with one notice. */
void tb_open(int diagonals, int flying);
/* Maps one file as the table of its class (the builder, the tests); 0 or
 * -1 with the reason noticed. */
int tb_open_file(const char *file, int diagonals, int flying, int m, int o);
/* on: no file is opened, probed or written until tb_suspend(0) (`bench`,
 * whose node counts must not depend on the files on disk). */
void tb_suspend(int on);
/* Forgets every mapped table. */
void tb_close_all(void);
/* The entry value of (mover x, opponent y) from a mapped file, or -1 (no
 * file, or the file refused: a block whose checksum fails refuses it). */
int tb_probe(int diagonals, int flying, uint32_t x, uint32_t y);
/* Whether table (m, o) is mapped and not refused (its blocks are checked
 * as probes first reach them; a file opened by tb_open_file is whole). */
int tb_have(int diagonals, int flying, int m, int o);

/* Writes table (m, o) atomically into dir (temporary file, fsync, rename)
 * from get(ctx, i), the entry value of index i, in format version 2; 0 or
 * -1 with the reason in why (a distance the encoding cannot hold, I/O). */
int tb_write(const char *dir, int diagonals, int flying, int m, int o, int encoding,
             int (*get)(void *ctx, uint64_t i), void *ctx, char *why, size_t whylen);
/* mkdir -p dir; 0 or -1. */
int tb_make_dirs(const char *dir);
/* The first directory of TablePath that exists and can be written, into
 * buf; 0, or -1 (said once per TablePath setting). */
int tb_writable_dir(char *buf, size_t len);

/* For the tests: whether the 16 symmetries keep both boards' lines and
 * neighbours (1 or 0); the byte of the tables built in memory
 * (morris_egtb.c) for (mover x, opponent y), or -1. */
int tb_sym_check(void);
int morris_egtb_memory_byte(int diagonals, int flying, uint32_t x, uint32_t y);
/* Writes the tables built in memory of (diagonals, flying) that no mapped
 * file holds into TablePath's first writable directory (the engine does
 * it when its background build is done). */
void morris_egtb_save(int diagonals, int flying);

/* --- builder (morris_tb_build.c) --------------------------------------- */

typedef struct TbBuildOpts {
    const char *dir;
    int upto;       /* most pieces a side, 3..TB_MAX */
    int threads;    /* 1.. */
    int encoding;   /* TB_ENC_DTM8: distances (encoding 1 or 3), TB_ENC_WDL2: none */
    int diag_mask;  /* bit 0: plain board, bit 1: diagonals */
    int fly_mask;   /* bit 0: no flying, bit 1: flying */
    int quiet;      /* no progress lines */
    uint64_t limit; /* bytes the build may take (0: the memory available) */
    int max_total;  /* most pieces on the board in all (0: no bound) */
    uint64_t only;  /* the groups to build, TB_GROUP_BIT of each (0: all) */
    int wdl_from;   /* groups of more pieces in all: win/draw/loss only (0: none) */
    int wide;       /* 4-byte build words from the start (else only on need) */
} TbBuildOpts;

/* The bit of group {m v o, o v m} (3 <= m, o <= TB_MAX) in TbBuildOpts.only. */
#define TB_GROUP_BIT(m, o)                                                 \
    (1ULL << ((((m) < (o) ? (m) : (o)) - TB_MIN) * (TB_MAX - TB_MIN + 1) + \
              ((m) < (o) ? (o) : (m)) - TB_MIN))

/* Bytes of memory available (MemAvailable of /proc/meminfo), 0 when
 * unknown. */
uint64_t tb_mem_available(void);
/* Builds every class missing from dir; 0, or -1 with the reason said. */
int tb_build(const TbBuildOpts *o);
/* `morelli tables ...`: argv after the word "tables"; the exit status. */
int tb_command(int argc, char **argv);
/* `morelli tables verify ...` (morris_tb_verify.c): argv after the word
 * "verify"; the exit status (0 every file passed, 1 not), or -1 for
 * arguments it does not take (the caller prints the usage). */
int tb_verify_command(int argc, char **argv);
/* `morelli tables solve ...` (morris_tb_solve.c): the exact value of a
 * position of the placement; the exit status (0 solved, 1 unknown, 2 bad
 * arguments). */
int tb_solve_command(int argc, char **argv);

#endif
