#include "magpie_lazy.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int mp_lazy_open(mp_lazy_library *library) {
  pthread_mutex_lock(&library->lock);
  if (!library->tried) {
    library->tried = 1;
    for (const char *const *name = library->names; *name != NULL && library->handle == NULL; name++) {
      // RTLD_LOCAL: the library's symbols stay out of the global scope, so
      // they never stand in for the forwarding functions of the same name.
      library->handle = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
      if (library->handle == NULL) {
        const char *why = dlerror();
        snprintf(library->error, sizeof library->error, "%s", why != NULL ? why : *name);
      }
    }
    if (library->handle != NULL) library->error[0] = '\0';
  }
  int open = library->handle != NULL;
  pthread_mutex_unlock(&library->lock);
  return open;
}

void *mp_lazy_symbol(mp_lazy_library *library, const char *symbol) {
  if (!mp_lazy_open(library)) return NULL;
  void *address = dlsym(library->handle, symbol);
  if (address == NULL) {
    pthread_mutex_lock(&library->lock);
    snprintf(library->error, sizeof library->error, "%s has no %s", library->names[0], symbol);
    pthread_mutex_unlock(&library->lock);
  }
  return address;
}

void mp_lazy_copy_error(mp_lazy_library *library, char *buffer, size_t size) {
  if (size == 0) return;
  pthread_mutex_lock(&library->lock);
  snprintf(buffer, size, "%s", library->error);
  pthread_mutex_unlock(&library->lock);
}
