#ifndef ROWKIT_CISAL_SHIM_H
#define ROWKIT_CISAL_SHIM_H
#include <stdint.h>
#include <string.h>
#include <isa-l/igzip_lib.h>

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
#endif
