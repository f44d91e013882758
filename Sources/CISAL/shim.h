#ifndef ROWKIT_CISAL_SHIM_H
#define ROWKIT_CISAL_SHIM_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <isa-l/igzip_lib.h>
#include <isa-l/crc.h>

/// Compresses `count` bytes at `input` as raw deflate with ISA-L's level 0 (igzip's own
/// Huffman tables), ending in a full flush so that separately compressed pieces join into one
/// stream; writes into `output` and returns the bytes written, or -1. The stream lives and
/// dies inside this one call, in zeroed memory.
static inline int64_t cisal_deflate_flushed(const uint8_t *input, uint32_t count, uint8_t *output, uint32_t capacity) {
  struct isal_zstream stream;
  memset(&stream, 0, sizeof stream);
  isal_deflate_init(&stream);
  stream.gzip_flag = IGZIP_DEFLATE;
  stream.level = 0;
  stream.flush = FULL_FLUSH;
  stream.end_of_stream = 0;
  stream.next_in = (uint8_t *)input;
  stream.avail_in = count;
  stream.next_out = output;
  stream.avail_out = capacity;
  if (isal_deflate(&stream) != COMP_OK || stream.avail_in != 0) return -1;
  return stream.total_out;
}

/// A zlib stream's inflater (ISA-L's igzip), fed piece by piece: the state lives on the heap
/// and stays opaque to Swift. The zlib header is parsed and the Adler-32 checksum verified.
static inline void *cisal_inflater_new(void) {
  struct inflate_state *state = malloc(sizeof *state);
  if (state == NULL) return NULL;
  isal_inflate_init(state);
  state->crc_flag = ISAL_ZLIB;
  return state;
}

static inline void cisal_inflater_free(void *state) { free(state); }

/// Inflates from `input` into `output`; returns ISA-L's status (negative for bad data), and
/// sets the bytes consumed and produced and whether the stream has ended, checksum verified.
static inline int cisal_inflate(void *opaque, const uint8_t *input, uint32_t count, uint32_t *consumed,
                                uint8_t *output, uint32_t capacity, uint32_t *produced, int *finished) {
  struct inflate_state *state = opaque;
  state->next_in = (uint8_t *)input;
  state->avail_in = count;
  state->next_out = output;
  state->avail_out = capacity;
  int status = isal_inflate(state);
  *consumed = count - state->avail_in;
  *produced = capacity - state->avail_out;
  *finished = state->block_state == ISAL_BLOCK_FINISH;
  return status;
}
#endif
