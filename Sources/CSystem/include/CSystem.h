#ifndef ROWKIT_CSYSTEM_H
#define ROWKIT_CSYSTEM_H
// Calls of the C library that Swift cannot make itself: prctl is variadic, and Swift imports
// no variadic C function; the processor sets of sched.h are macros. The definitions are in
// system.c, which alone sees the GNU extensions they need: a header that defined _GNU_SOURCE
// would give the C library's structures other fields than the other modules see.
#include <stddef.h>

/// Names the calling thread as the kernel shows it (at most 15 bytes are kept); 0 on success.
int csystem_name_current_thread(const char *name);

/// Starts `body(context)` on a new detached thread with a stack of `stack_size` bytes (0: the
/// default); 0 on success, else the error number. With `beside`, the thread begins on another
/// processor than the calling thread's, when that thread may run on more than one, and is then
/// free to run on all of them.
///
/// Linux places a new thread on its starter's processor unless another one looks idle; one
/// that has just run other work does not, and the new thread then waits for its starter's time
/// slice or for the next balancing tick (4 ms at 250 Hz), however idle the other processor is.
/// That costs only a starter that goes on working: one that waits for the thread at once
/// frees its processor, and a thread kept off it would wait for the other one.
int csystem_start_thread(void (*body)(void *), void *context, size_t stack_size, int beside);

/// For a thread started by `csystem_start_thread` beside its starter: the processor it began
/// on, and the one its starter was on and kept it off; -1 and -1 for any other thread.
int csystem_thread_first_processor(void);
int csystem_thread_starter_processor(void);

/// The calling thread's stack size in bytes, as the C library set it up; 0 if unknown.
size_t csystem_thread_stack_size(void);

#endif
