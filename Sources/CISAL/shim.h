#ifndef ROWKIT_CISAL_SHIM_H
#define ROWKIT_CISAL_SHIM_H
#include <stdint.h>
#include <isa-l/igzip_lib.h>

/// The level buffer sizes are macros; these are the same numbers.
static inline uint32_t cisal_level_buffer_size(int level) {
  switch (level) {
  case 1: return ISAL_DEF_LVL1_DEFAULT;
  case 2: return ISAL_DEF_LVL2_DEFAULT;
  case 3: return ISAL_DEF_LVL3_DEFAULT;
  default: return 0;
  }
}
static inline uint16_t cisal_full_flush(void) { return FULL_FLUSH; }
static inline uint16_t cisal_raw_deflate(void) { return IGZIP_DEFLATE; }
#endif
