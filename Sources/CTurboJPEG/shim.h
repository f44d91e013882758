#ifndef ROWKIT_CTURBOJPEG_SHIM_H
#define ROWKIT_CTURBOJPEG_SHIM_H
#include <stddef.h>
#include <stdio.h>
#include <jconfig.h>
#include <turbojpeg.h>

/// LIBJPEG_TURBO_VERSION_NUMBER is a macro (MMMmmmppp) of the headers built against: the
/// library has no call that reports its own version.
static inline int cturbojpeg_version_number(void) {
  return LIBJPEG_TURBO_VERSION_NUMBER;
}

/// TJSCALED is a macro: the size of `dimension` scaled by `num/denom`, rounded up.
static inline int cturbojpeg_scaled(int dimension, int num, int denom) {
  return (dimension * num + denom - 1) / denom;
}
#endif
