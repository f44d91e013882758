#define _GNU_SOURCE
#include "CSystem.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

int csystem_name_current_thread(const char *name) {
  return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

struct thread_start {
  void (*body)(void *);
  void *context;
  int starter_processor;
  cpu_set_t everywhere;
};

static __thread int first_processor = -1;
static __thread int starter_processor = -1;

int csystem_thread_first_processor(void) { return first_processor; }
int csystem_thread_starter_processor(void) { return starter_processor; }

size_t csystem_thread_stack_size(void) {
  pthread_attr_t attributes;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
  pthread_attr_getstacksize(&attributes, &size);
  pthread_attr_destroy(&attributes);
  return size;
}

static void *begin_thread(void *argument) {
  struct thread_start start = *(struct thread_start *)argument;
  free(argument);
  first_processor = sched_getcpu();
  starter_processor = start.starter_processor;
  // From here on the thread may run on every processor it could have begun on: the one it
  // began on was only where to begin. Should that fail, it may not stay kept off one.
  if (start.starter_processor >= 0 && sched_setaffinity(0, sizeof start.everywhere, &start.everywhere) != 0) {
    cpu_set_t all;
    CPU_ZERO(&all);
    for (int processor = 0; processor < CPU_SETSIZE; processor++) CPU_SET(processor, &all);
    sched_setaffinity(0, sizeof all, &all);
  }
  start.body(start.context);
  return NULL;
}

static int make_attributes(pthread_attr_t *attributes, size_t stack_size) {
  int status = pthread_attr_init(attributes);
  if (status != 0) return status;
  status = pthread_attr_setdetachstate(attributes, PTHREAD_CREATE_DETACHED);
  if (status == 0 && stack_size > 0) status = pthread_attr_setstacksize(attributes, stack_size);
  if (status != 0) pthread_attr_destroy(attributes);
  return status;
}

int csystem_start_thread(void (*body)(void *), void *context, size_t stack_size, int beside) {
  struct thread_start *start = malloc(sizeof *start);
  if (start == NULL) return ENOMEM;
  start->body = body;
  start->context = context;
  start->starter_processor = -1;
  pthread_attr_t attributes;
  int status = make_attributes(&attributes, stack_size);
  if (status != 0) {
    free(start);
    return status;
  }
  // The processors of the calling thread, less the one it is on.
  int here = beside ? sched_getcpu() : -1;
  if (here >= 0 && here < CPU_SETSIZE && sched_getaffinity(0, sizeof start->everywhere, &start->everywhere) == 0) {
    cpu_set_t elsewhere = start->everywhere;
    CPU_CLR(here, &elsewhere);
    if (CPU_COUNT(&elsewhere) > 0 && pthread_attr_setaffinity_np(&attributes, sizeof elsewhere, &elsewhere) == 0) {
      start->starter_processor = here;
    }
  }
  pthread_t thread;
  status = pthread_create(&thread, &attributes, begin_thread, start);
  pthread_attr_destroy(&attributes);
  if (status != 0 && status != EAGAIN && start->starter_processor >= 0) {
    // The placement refused (the processors allowed changed in between, or a sandbox that
    // denies setting them): begin wherever Linux puts the thread.
    start->starter_processor = -1;
    status = make_attributes(&attributes, stack_size);
    if (status == 0) {
      status = pthread_create(&thread, &attributes, begin_thread, start);
      pthread_attr_destroy(&attributes);
    }
  }
  if (status != 0) free(start);
  return status;
}
