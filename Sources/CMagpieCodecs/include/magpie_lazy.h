#ifndef MAGPIE_LAZY_H
#define MAGPIE_LAZY_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

/// A shared library opened on first use instead of at start-up.
///
/// The optional coders' libraries (libavif with its AV1 codecs, libheif with
/// libde265 and x265, libjxl with highway) cost every process that links
/// them about 18 ms and 7 MB before main: their static initialisers run and
/// their pages are mapped whether or not an image of theirs is ever seen.
/// Their modules link a forwarding function per call instead, which opens
/// the library through this the first time any is called.
typedef struct mp_lazy_library {
  /// The file names to try in order, NULL-terminated: the soname the
  /// package was built against first.
  const char *const *names;
  pthread_mutex_t lock;
  int tried;
  void *handle;
  /// Why the library could not be opened; empty while it is open.
  char error[256];
} mp_lazy_library;

/// A static mp_lazy_library over `names`.
#define MP_LAZY_LIBRARY(names) {(names), PTHREAD_MUTEX_INITIALIZER, 0, NULL, {0}}

/// The address of `symbol` in `library`, opening the library the first time;
/// NULL when it cannot be opened or lacks the symbol (see mp_lazy_copy_error).
void *mp_lazy_symbol(mp_lazy_library *library, const char *symbol);

/// Opens `library` if it is not yet open; whether it is open.
int mp_lazy_open(mp_lazy_library *library);

/// Copies why `library` could not be opened or lacked a symbol ("" when it
/// has not failed) into `buffer` of `size` bytes, cut short if need be and
/// always terminated. The copy is taken under the library's lock: a pointer
/// to the message itself could change under its reader while another
/// thread records a failure.
void mp_lazy_copy_error(mp_lazy_library *library, char *buffer, size_t size);

/// Defines the library `prefix` names, tried as `soname` and then `fallback`,
/// and its two entry points: `int prefix_library_open(void)` (see
/// mp_lazy_open) and `void prefix_library_error(char *buffer, size_t size)`
/// (see mp_lazy_copy_error). Its forwarding functions then name
/// `prefix_library`.
#define MP_LAZY_LIBRARY_DEFINE(prefix, soname, fallback)                          \
  static const char *const prefix##_names[] = {(soname), (fallback), NULL};      \
  static mp_lazy_library prefix##_library = MP_LAZY_LIBRARY(prefix##_names);     \
  int prefix##_library_open(void) { return mp_lazy_open(&prefix##_library); }    \
  void prefix##_library_error(char *buffer, size_t size) {                       \
    mp_lazy_copy_error(&prefix##_library, buffer, size);                         \
  }

/// Defines `name` with return type `ret`, parameter list `params` and the
/// argument list `args` that forwards them, calling the library's own
/// function, or returning `failure` when the library is missing. The
/// resolved address is kept in a static slot after the first call.
#define MP_LAZY_FORWARD(library, ret, name, params, args, failure)                 \
  ret name params {                                                              \
    static void *_Atomic slot;                                                   \
    void *function = atomic_load_explicit(&slot, memory_order_acquire);          \
    if (function == NULL) {                                                      \
      function = mp_lazy_symbol(&(library), #name);                              \
      if (function == NULL) return failure;                                      \
      atomic_store_explicit(&slot, function, memory_order_release);              \
    }                                                                            \
    return ((ret(*) params)function) args;                                       \
  }

/// MP_LAZY_FORWARD for a function that returns nothing (a no-op when the
/// library is missing: these release what only the library could make).
#define MP_LAZY_FORWARD_VOID(library, name, params, args)                          \
  void name params {                                                             \
    static void *_Atomic slot;                                                   \
    void *function = atomic_load_explicit(&slot, memory_order_acquire);          \
    if (function == NULL) {                                                      \
      function = mp_lazy_symbol(&(library), #name);                              \
      if (function == NULL) return;                                              \
      atomic_store_explicit(&slot, function, memory_order_release);              \
    }                                                                            \
    ((void(*) params)function) args;                                             \
  }

#endif
