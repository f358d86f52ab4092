#include "tiff_loader.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <tiffio.h>

#include "magpie_lazy.h"

// libtiff's functions that MagpieTIFF and tiff_memory.c call, each
// forwarding to the library opened on first use (see magpie_lazy.h). The
// header above declares them, so a prototype that drifted from the
// library's would not compile.

#ifndef MP_TIFF_SONAME
#define MP_TIFF_SONAME "libtiff.so"
#endif

MP_LAZY_LIBRARY_DEFINE(mp_tiff, MP_TIFF_SONAME, "libtiff.so")

MP_LAZY_FORWARD(mp_tiff_library, TIFFOpenOptions *, TIFFOpenOptionsAlloc, (void), (), NULL)
MP_LAZY_FORWARD_VOID(mp_tiff_library, TIFFOpenOptionsFree, (TIFFOpenOptions *options), (options))
MP_LAZY_FORWARD_VOID(mp_tiff_library, TIFFOpenOptionsSetMaxSingleMemAlloc, (TIFFOpenOptions *opts, tmsize_t max_single_mem_alloc), (opts, max_single_mem_alloc))
MP_LAZY_FORWARD_VOID(mp_tiff_library, TIFFOpenOptionsSetErrorHandlerExtR, (TIFFOpenOptions *opts, TIFFErrorHandlerExtR handler, void *errorhandler_user_data), (opts, handler, errorhandler_user_data))
MP_LAZY_FORWARD_VOID(mp_tiff_library, TIFFOpenOptionsSetWarningHandlerExtR, (TIFFOpenOptions *opts, TIFFErrorHandlerExtR handler, void *warnhandler_user_data), (opts, handler, warnhandler_user_data))
MP_LAZY_FORWARD(mp_tiff_library, TIFF *, TIFFClientOpenExt, (const char *name, const char *mode, thandle_t clientdata, TIFFReadWriteProc readproc, TIFFReadWriteProc writeproc, TIFFSeekProc seekproc, TIFFCloseProc closeproc, TIFFSizeProc sizeproc, TIFFMapFileProc mapproc, TIFFUnmapFileProc unmapproc, TIFFOpenOptions *opts), (name, mode, clientdata, readproc, writeproc, seekproc, closeproc, sizeproc, mapproc, unmapproc, opts), NULL)
MP_LAZY_FORWARD_VOID(mp_tiff_library, TIFFClose, (TIFF *tif), (tif))
MP_LAZY_FORWARD(mp_tiff_library, int, TIFFVGetField, (TIFF *tif, uint32_t tag, va_list ap), (tif, tag, ap), 0)
MP_LAZY_FORWARD(mp_tiff_library, int, TIFFVGetFieldDefaulted, (TIFF *tif, uint32_t tag, va_list ap), (tif, tag, ap), 0)
MP_LAZY_FORWARD(mp_tiff_library, int, TIFFVSetField, (TIFF *tif, uint32_t tag, va_list ap), (tif, tag, ap), 0)
MP_LAZY_FORWARD(mp_tiff_library, int, TIFFReadDirectory, (TIFF *tif), (tif), 0)
MP_LAZY_FORWARD(mp_tiff_library, int, TIFFSetDirectory, (TIFF *tif, tdir_t dirn), (tif, dirn), 0)
MP_LAZY_FORWARD(mp_tiff_library, int, TIFFSetSubDirectory, (TIFF *tif, uint64_t diroff), (tif, diroff), 0)
MP_LAZY_FORWARD(mp_tiff_library, int, TIFFIsTiled, (TIFF *tif), (tif), 0)
MP_LAZY_FORWARD(mp_tiff_library, int, TIFFIsBigTIFF, (TIFF *tif), (tif), 0)
MP_LAZY_FORWARD(mp_tiff_library, uint32_t, TIFFNumberOfStrips, (TIFF *tif), (tif), 0)
MP_LAZY_FORWARD(mp_tiff_library, uint32_t, TIFFNumberOfTiles, (TIFF *tif), (tif), 0)
MP_LAZY_FORWARD(mp_tiff_library, int, TIFFRGBAImageOK, (TIFF *tif, char emsg[1024]), (tif, emsg), 0)
MP_LAZY_FORWARD(mp_tiff_library, int, TIFFRGBAImageBegin, (TIFFRGBAImage *img, TIFF *tif, int stop, char emsg[1024]), (img, tif, stop, emsg), 0)
MP_LAZY_FORWARD(mp_tiff_library, int, TIFFRGBAImageGet, (TIFFRGBAImage *img, uint32_t *raster, uint32_t w, uint32_t h), (img, raster, w, h), 0)
MP_LAZY_FORWARD_VOID(mp_tiff_library, TIFFRGBAImageEnd, (TIFFRGBAImage *img), (img))
