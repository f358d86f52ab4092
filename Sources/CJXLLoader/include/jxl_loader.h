#ifndef MP_JXL_LOADER_H
#define MP_JXL_LOADER_H

/// Opens libjxl now if it is not open yet; whether it is open. The
/// forwarding functions open it on their first call anyway; this is for
/// saying why it is missing (mp_jxl_library_error).
int mp_jxl_library_open(void);

/// Why libjxl could not be opened, or "" when it has not failed.
const char *mp_jxl_library_error(void);

#endif
