#ifndef ROWKIT_CCAIRO_SHIM_H
#define ROWKIT_CCAIRO_SHIM_H
#include <cairo.h>
#include <pixman.h>
#endif
