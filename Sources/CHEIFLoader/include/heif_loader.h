#ifndef MP_HEIF_LOADER_H
#define MP_HEIF_LOADER_H

/// Opens libheif now if it is not open yet; whether it is open. The
/// forwarding functions open it on their first call anyway; this is for
/// saying why it is missing (mp_heif_library_error).
int mp_heif_library_open(void);

/// Why libheif could not be opened, or "" when it has not failed.
const char *mp_heif_library_error(void);

#endif
