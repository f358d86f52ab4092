#ifndef MP_HEIF_LOADER_H
#define MP_HEIF_LOADER_H

#include <stddef.h>

/// Opens libheif now if it is not open yet; whether it is open. The
/// forwarding functions open it on their first call anyway; this is for
/// saying why it is missing (mp_heif_library_error).
int mp_heif_library_open(void);

/// Copies why libheif could not be opened ("" when it has not failed) into
/// `buffer` of `size` bytes, terminated.
void mp_heif_library_error(char *buffer, size_t size);

/// Registers with libheif an HEVC decoder over libde265 that decodes a
/// picture on worker threads (libheif's own plugin in Debian's 1.15 starts
/// one). Call once, after heif_init; whether it was registered (not when
/// libde265 or its header was missing at build time: libheif's plugin then
/// decodes as before).
int mp_heif_register_de265_plugin(void);

/// The worker threads the next HEVC decoder made on the calling thread
/// starts: 0 decodes on the calling thread alone. Set just before
/// heif_decode_image, which makes its decoders on the calling thread.
void mp_heif_de265_set_threads(int threads);

#endif
