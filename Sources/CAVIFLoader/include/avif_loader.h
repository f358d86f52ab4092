#ifndef MP_AVIF_LOADER_H
#define MP_AVIF_LOADER_H

/// Opens libavif now if it is not open yet; whether it is open. The
/// forwarding functions open it on their first call anyway; this is for
/// saying why it is missing (mp_avif_library_error).
int mp_avif_library_open(void);

/// Why libavif could not be opened, or "" when it has not failed.
const char *mp_avif_library_error(void);

#endif
