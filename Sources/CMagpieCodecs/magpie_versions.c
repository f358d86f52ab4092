#include "magpie_versions.h"

#include <stdio.h>
#include <jpeglib.h>
#include <png.h>

#define MP_STRINGIFY_(x) #x
#define MP_STRINGIFY(x) MP_STRINGIFY_(x)

const char *mp_libjpeg_turbo_version(void) {
#ifdef LIBJPEG_TURBO_VERSION
  return MP_STRINGIFY(LIBJPEG_TURBO_VERSION);
#else
  return "unknown";
#endif
}

const char *mp_libpng_version(void) { return png_get_libpng_ver(NULL); }
