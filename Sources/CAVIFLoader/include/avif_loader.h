#ifndef MP_AVIF_LOADER_H
#define MP_AVIF_LOADER_H

#include <stddef.h>

/// Opens libavif now if it is not open yet; whether it is open. The
/// forwarding functions open it on their first call anyway; this is for
/// saying why it is missing (mp_avif_library_error).
int mp_avif_library_open(void);

/// Copies why libavif could not be opened ("" when it has not failed) into
/// `buffer` of `size` bytes, terminated.
void mp_avif_library_error(char *buffer, size_t size);

#endif
