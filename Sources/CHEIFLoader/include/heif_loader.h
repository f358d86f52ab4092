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

#endif
