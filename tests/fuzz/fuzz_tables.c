/*
 * libFuzzer harness for the header parser of the Morris table files
 * (engine/morris/morris_tb.c, docs/tables.md).  The first 8 input bytes
 * (little-endian) are the size the file claims on disk (its lowest bit
 * also says whether to set the header checksum right), the rest its
 * first bytes.  The parser must never read past them, and a header it
 * accepts must describe a file of exactly that size, with the entries
 * its class needs and a payload that holds them.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "morris/morris_tb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 8)
        return 0;
    uint64_t file_bytes = 0;
    for (int i = 0; i < 8; i++)
        file_bytes |= (uint64_t)data[i] << (8 * i);
    size_t len = size - 8;
    /* a copy of exactly len bytes, so that a read past them is caught */
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf)
        return 0;
    memcpy(buf, data + 8, len);
    /* Half the inputs get a right header checksum, so that the fields
     * behind it are tried too. */
    if ((data[0] & 1) && len >= TB_HEADER_BYTES) {
        uint64_t sum = tb_checksum(buf, 56);
        for (int i = 0; i < 8; i++)
            buf[56 + i] = (uint8_t)(sum >> (8 * i));
    }
    TbHeader h;
    char why[160];
    if (tb_header_parse(buf, len, file_bytes, &h, why, sizeof why) == 0) {
        uint64_t need = tb_payload_bytes(h.encoding, h.entries);
        uint64_t blocks = h.version >= 2 ? (need + (1ull << h.block_log) - 1) >> h.block_log : 0;
        if (h.entries != tb_entries(h.mover, h.opp) || h.payload_bytes != need ||
            h.blocks != blocks || h.payload_at != TB_HEADER_BYTES + 8 * blocks ||
            file_bytes != h.payload_at + need || len < TB_HEADER_BYTES) {
            fprintf(stderr, "fuzz_tables: a bad header accepted\n");
            abort();
        }
    } else if (!why[0]) {
        fprintf(stderr, "fuzz_tables: refused without a reason\n");
        abort();
    }
    free(buf);
    return 0;
}
