#include "heif_hevc_shared.h"

const struct heif_error mp_heif_hevc_ok = {heif_error_Ok, heif_suberror_Unspecified, "Success"};

struct heif_error mp_heif_hevc_error(enum heif_error_code code, const char *message) {
  struct heif_error error = {code, heif_suberror_Unspecified, message};
  return error;
}

int mp_heif_hevc_next_nal(const uint8_t *bytes, size_t size, size_t *at, const uint8_t **nal, uint32_t *length,
                          const char **why) {
  if (*at >= size) return 0;
  if (size - *at < 4) {
    *why = "NAL length cut short";
    return -1;
  }
  const uint8_t *p = bytes + *at;
  uint32_t n = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
  if (n > size - *at - 4 || n > INT32_MAX) {
    *why = "NAL unit runs past the data";
    return -1;
  }
  *nal = p + 4;
  *length = n;
  *at += 4 + (size_t)n;
  return 1;
}

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
