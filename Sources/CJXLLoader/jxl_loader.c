#include "jxl_loader.h"

#include <stddef.h>
#include <stdint.h>
#include <jxl/decode.h>

#include "magpie_lazy.h"

// libjxl's functions that MagpieJXL calls, each forwarding to the library
// opened on first use (see magpie_lazy.h). The header above declares
// them, so a prototype that drifted from the library's would not compile.

#ifndef MP_JXL_SONAME
#define MP_JXL_SONAME "libjxl.so"
#endif

MP_LAZY_LIBRARY_DEFINE(mp_jxl, MP_JXL_SONAME, "libjxl.so")


MP_LAZY_FORWARD(mp_jxl_library, JxlDecoder *, JxlDecoderCreate, (const JxlMemoryManager *memory_manager), (memory_manager), NULL)
MP_LAZY_FORWARD_VOID(mp_jxl_library, JxlDecoderDestroy, (JxlDecoder *dec), (dec))
MP_LAZY_FORWARD(mp_jxl_library, JxlDecoderStatus, JxlDecoderFlushImage, (JxlDecoder *dec), (dec), JXL_DEC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlDecoderStatus, JxlDecoderGetBasicInfo, (const JxlDecoder *dec, JxlBasicInfo *info), (dec, info), JXL_DEC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlDecoderStatus, JxlDecoderGetColorAsEncodedProfile, (const JxlDecoder *dec, const JxlPixelFormat *unused_format, JxlColorProfileTarget target, JxlColorEncoding *color_encoding), (dec, unused_format, target, color_encoding), JXL_DEC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlDecoderStatus, JxlDecoderGetColorAsICCProfile, (const JxlDecoder *dec, const JxlPixelFormat *unused_format, JxlColorProfileTarget target, uint8_t *icc_profile, size_t size), (dec, unused_format, target, icc_profile, size), JXL_DEC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlDecoderStatus, JxlDecoderGetFrameHeader, (const JxlDecoder *dec, JxlFrameHeader *header), (dec, header), JXL_DEC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlDecoderStatus, JxlDecoderGetICCProfileSize, (const JxlDecoder *dec, const JxlPixelFormat *unused_format, JxlColorProfileTarget target, size_t *size), (dec, unused_format, target, size), JXL_DEC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlDecoderStatus, JxlDecoderImageOutBufferSize, (const JxlDecoder *dec, const JxlPixelFormat *format, size_t *size), (dec, format, size), JXL_DEC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlDecoderStatus, JxlDecoderProcessInput, (JxlDecoder *dec), (dec), JXL_DEC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, size_t, JxlDecoderReleaseInput, (JxlDecoder *dec), (dec), 0)
MP_LAZY_FORWARD_VOID(mp_jxl_library, JxlDecoderRewind, (JxlDecoder *dec), (dec))
MP_LAZY_FORWARD(mp_jxl_library, JxlDecoderStatus, JxlDecoderSetImageOutBuffer, (JxlDecoder *dec, const JxlPixelFormat *format, void *buffer, size_t size), (dec, format, buffer, size), JXL_DEC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlDecoderStatus, JxlDecoderSetInput, (JxlDecoder *dec, const uint8_t *data, size_t size), (dec, data, size), JXL_DEC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlDecoderStatus, JxlDecoderSetKeepOrientation, (JxlDecoder *dec, JXL_BOOL skip_reorientation), (dec, skip_reorientation), JXL_DEC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlDecoderStatus, JxlDecoderSetUnpremultiplyAlpha, (JxlDecoder *dec, JXL_BOOL unpremul_alpha), (dec, unpremul_alpha), JXL_DEC_ERROR)
MP_LAZY_FORWARD_VOID(mp_jxl_library, JxlDecoderSkipFrames, (JxlDecoder *dec, size_t amount), (dec, amount))
MP_LAZY_FORWARD(mp_jxl_library, JxlDecoderStatus, JxlDecoderSubscribeEvents, (JxlDecoder *dec, int events_wanted), (dec, events_wanted), JXL_DEC_ERROR)
