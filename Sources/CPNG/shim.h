#ifndef ROWKIT_CPNG_SHIM_H
#define ROWKIT_CPNG_SHIM_H
#include <png.h>
#include <zlib.h>

/// PNG_IMAGE_SIZE and PNG_IMAGE_ROW_STRIDE are macros; these are the same sums.
static inline size_t cpng_image_version(void) { return PNG_IMAGE_VERSION; }
#endif
