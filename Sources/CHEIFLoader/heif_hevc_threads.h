#ifndef MP_HEIF_HEVC_THREADS_H
#define MP_HEIF_HEVC_THREADS_H

#include "heif_loader.h"

// What Magpie's HEVC plugins read on the thread libheif makes their
// decoders on (heif_hevc_threads.c).

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
