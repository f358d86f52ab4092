#ifndef MP_HEIF_HEVC_SHARED_H
#define MP_HEIF_HEVC_SHARED_H

#include <stddef.h>
#include <stdint.h>
#include <libheif/heif.h>

#include "heif_loader.h"

// What Magpie's two HEVC plugins share (heif_hevc_shared.c): the settings
// they read on the thread libheif makes their decoders on, their errors,
// and the walk over the NAL units libheif hands them.

/// Success.
extern const struct heif_error mp_heif_hevc_ok;

/// An error of `code` saying `message` (a string that outlives the call).
struct heif_error mp_heif_hevc_error(enum heif_error_code code, const char *message);

/// The next NAL unit of `bytes` from `*at`, each behind a 4-byte big-endian
/// length as libheif hands them over: 1 with `*nal` and `*length` set and
/// `*at` moved past it, 0 at the end, -1 with `*why` set when a length is
/// cut short or runs past the data (or past INT32_MAX, which both decoders'
/// sizes are).
int mp_heif_hevc_next_nal(const uint8_t *bytes, size_t size, size_t *at, const uint8_t **nal, uint32_t *length,
                          const char **why);

/// The threads the caller asked the next HEVC decoder to use (0 or 1: the
/// calling thread alone).
int mp_heif_hevc_threads(void);

/// Whether the caller's choice of HEVC decoder lets `backend` decode.
int mp_heif_hevc_backend_allows(enum mp_heif_hevc_backend backend);

/// Whether libavcodec (libde265) and every call its plugin makes are
/// there, opening the library the first time.
int mp_heif_avcodec_ready(void);
int mp_heif_de265_ready(void);

/// Records that `backend` made a decoder on this thread.
void mp_heif_hevc_record(enum mp_heif_hevc_backend backend);

#endif
