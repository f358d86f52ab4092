#include "jxl_loader.h"

#include <stddef.h>
#include <stdint.h>
#include <jxl/decode.h>
#include <jxl/encode.h>

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

// Encoding (JXLEncoder): libjxl 0.7 has its encoder in the same library.
MP_LAZY_FORWARD_VOID(mp_jxl_library, JxlColorEncodingSetToSRGB, (JxlColorEncoding *color_encoding, JXL_BOOL is_gray), (color_encoding, is_gray))
MP_LAZY_FORWARD(mp_jxl_library, JxlEncoderStatus, JxlEncoderAddImageFrame, (const JxlEncoderFrameSettings *frame_settings, const JxlPixelFormat *pixel_format, const void *buffer, size_t size), (frame_settings, pixel_format, buffer, size), JXL_ENC_ERROR)
MP_LAZY_FORWARD_VOID(mp_jxl_library, JxlEncoderCloseInput, (JxlEncoder *enc), (enc))
MP_LAZY_FORWARD(mp_jxl_library, JxlEncoder *, JxlEncoderCreate, (const JxlMemoryManager *memory_manager), (memory_manager), NULL)
MP_LAZY_FORWARD_VOID(mp_jxl_library, JxlEncoderDestroy, (JxlEncoder *enc), (enc))
MP_LAZY_FORWARD(mp_jxl_library, JxlEncoderFrameSettings *, JxlEncoderFrameSettingsCreate, (JxlEncoder *enc, const JxlEncoderFrameSettings *source), (enc, source), NULL)
MP_LAZY_FORWARD(mp_jxl_library, JxlEncoderStatus, JxlEncoderFrameSettingsSetOption, (JxlEncoderFrameSettings *frame_settings, JxlEncoderFrameSettingId option, int64_t value), (frame_settings, option, value), JXL_ENC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlEncoderError, JxlEncoderGetError, (JxlEncoder *enc), (enc), JXL_ENC_ERR_GENERIC)
MP_LAZY_FORWARD_VOID(mp_jxl_library, JxlEncoderInitBasicInfo, (JxlBasicInfo *info), (info))
MP_LAZY_FORWARD_VOID(mp_jxl_library, JxlEncoderInitExtraChannelInfo, (JxlExtraChannelType type, JxlExtraChannelInfo *info), (type, info))
MP_LAZY_FORWARD_VOID(mp_jxl_library, JxlEncoderInitFrameHeader, (JxlFrameHeader *frame_header), (frame_header))
MP_LAZY_FORWARD(mp_jxl_library, JxlEncoderStatus, JxlEncoderProcessOutput, (JxlEncoder *enc, uint8_t **next_out, size_t *avail_out), (enc, next_out, avail_out), JXL_ENC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlEncoderStatus, JxlEncoderSetBasicInfo, (JxlEncoder *enc, const JxlBasicInfo *info), (enc, info), JXL_ENC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlEncoderStatus, JxlEncoderSetColorEncoding, (JxlEncoder *enc, const JxlColorEncoding *color), (enc, color), JXL_ENC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlEncoderStatus, JxlEncoderSetExtraChannelInfo, (JxlEncoder *enc, size_t index, const JxlExtraChannelInfo *info), (enc, index, info), JXL_ENC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlEncoderStatus, JxlEncoderSetFrameDistance, (JxlEncoderFrameSettings *frame_settings, float distance), (frame_settings, distance), JXL_ENC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlEncoderStatus, JxlEncoderSetFrameHeader, (JxlEncoderFrameSettings *frame_settings, const JxlFrameHeader *frame_header), (frame_settings, frame_header), JXL_ENC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlEncoderStatus, JxlEncoderSetFrameLossless, (JxlEncoderFrameSettings *frame_settings, JXL_BOOL lossless), (frame_settings, lossless), JXL_ENC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlEncoderStatus, JxlEncoderSetICCProfile, (JxlEncoder *enc, const uint8_t *icc_profile, size_t size), (enc, icc_profile, size), JXL_ENC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlEncoderStatus, JxlEncoderAddBox, (JxlEncoder *enc, const JxlBoxType type, const uint8_t *contents, size_t size, JXL_BOOL compress_box), (enc, type, contents, size, compress_box), JXL_ENC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlEncoderStatus, JxlEncoderUseBoxes, (JxlEncoder *enc), (enc), JXL_ENC_ERROR)
MP_LAZY_FORWARD(mp_jxl_library, JxlEncoderStatus, JxlEncoderUseContainer, (JxlEncoder *enc, JXL_BOOL use_container), (enc, use_container), JXL_ENC_ERROR)
