#ifndef ROWKIT_CSYSTEM_SHIM_H
#define ROWKIT_CSYSTEM_SHIM_H
// Calls of the C library that Swift cannot make itself: prctl is variadic, and Swift imports
// no variadic C function.
#include <sys/prctl.h>

/// Names the calling thread as the kernel shows it (at most 15 bytes are kept); 0 on success.
static inline int csystem_name_current_thread(const char *name) {
  return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

#endif
