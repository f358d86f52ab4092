// Memory for Magpie's progressive JPEG decoder, kept between decodes.
//
// Why: a decode's coefficients are fresh memory each time (1.5 MB for a
// 1200x800 photo at 1/4), and the kernel's page faults on first touching
// them cost about an eighth of the whole decode. A few freed buffers are
// kept for the next decode instead; the decoder clears what it uses.

#include "magpie_jpeg_scan.h"

#if MP_PROG_AVAILABLE

#include <pthread.h>
#include <stdlib.h>

// Buffers kept at most (about one per core decoding), and the largest kept:
// at most 16 MiB idle.
enum { SPARE_SLOTS = 2 };
#define SPARE_MAX ((size_t)8 << 20)

static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  void *memory;
  size_t size;
} spare[SPARE_SLOTS];

void *mp_prog_workspace_take(size_t size, size_t *capacity) {
  void *found = NULL;
  pthread_mutex_lock(&spare_lock);
  int best = -1;
  for (int i = 0; i < SPARE_SLOTS; i++) {
    if (spare[i].memory != NULL && spare[i].size >= size && (best < 0 || spare[i].size < spare[best].size)) best = i;
  }
  if (best >= 0) {
    found = spare[best].memory;
    *capacity = spare[best].size;
    spare[best].memory = NULL;
  }
  pthread_mutex_unlock(&spare_lock);
  if (found != NULL) return found;
  *capacity = size;
  return malloc(size);
}

void mp_prog_workspace_give(void *memory, size_t capacity) {
  if (memory == NULL) return;
  if (capacity > SPARE_MAX) {
    free(memory);
    return;
  }
  pthread_mutex_lock(&spare_lock);
  // An empty slot, else the smallest kept buffer if this one is larger.
  int slot = 0;
  for (int i = 0; i < SPARE_SLOTS; i++) {
    if (spare[i].memory == NULL || spare[i].size < spare[slot].size) slot = i;
    if (spare[i].memory == NULL) break;
  }
  void *dropped = memory;
  if (spare[slot].memory == NULL || spare[slot].size < capacity) {
    dropped = spare[slot].memory;
    spare[slot].memory = memory;
    spare[slot].size = capacity;
  }
  pthread_mutex_unlock(&spare_lock);
  free(dropped);
}

#endif
