#ifndef ROWKIT_CWEBP_SHIM_H
#define ROWKIT_CWEBP_SHIM_H
#include <stddef.h>
#include <webp/decode.h>
#include <webp/encode.h>
#endif
