#ifndef ROWKIT_CTURBOJPEG_SHIM_H
#define ROWKIT_CTURBOJPEG_SHIM_H
#include <stddef.h>
#include <turbojpeg.h>

/// TJSCALED is a macro: the size of `dimension` scaled by `num/denom`, rounded up.
static inline int cturbojpeg_scaled(int dimension, int num, int denom) {
  return (dimension * num + denom - 1) / denom;
}
#endif
