#include "heif_hevc_threads.h"

// Per-thread settings for Magpie's HEVC plugins. libheif asks its plugins
// for a decoder on the thread that called heif_decode_image (or on one of
// its own tile threads, which start with the defaults: one thread, any
// backend), and the plugin API carries no options of its own.

static _Thread_local int mp_threads;
static _Thread_local enum mp_heif_hevc_backend mp_backend;
static _Thread_local enum mp_heif_hevc_backend mp_last;

void mp_heif_hevc_set_threads(int threads) { mp_threads = threads < 0 ? 0 : threads; }

int mp_heif_hevc_threads(void) { return mp_threads; }

void mp_heif_hevc_set_backend(enum mp_heif_hevc_backend backend) { mp_backend = backend; }

int mp_heif_hevc_backend_allows(enum mp_heif_hevc_backend backend) {
  return mp_backend == mp_heif_hevc_any || mp_backend == backend;
}

void mp_heif_hevc_record(enum mp_heif_hevc_backend backend) { mp_last = backend; }

enum mp_heif_hevc_backend mp_heif_hevc_take_last_backend(void) {
  enum mp_heif_hevc_backend last = mp_last;
  mp_last = mp_heif_hevc_any;
  return last;
}

int mp_heif_hevc_available(enum mp_heif_hevc_backend backend) {
  switch (backend) {
    case mp_heif_hevc_avcodec: return mp_heif_avcodec_ready();
    case mp_heif_hevc_de265: return mp_heif_de265_ready();
    default: return 1;
  }
}
