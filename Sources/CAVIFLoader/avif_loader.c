#include "avif_loader.h"

#include <stddef.h>
#include <stdint.h>
#include <avif/avif.h>

#include "magpie_lazy.h"

// libavif's functions that MagpieAVIF calls, each forwarding to the library
// opened on first use (see magpie_lazy.h). The header above declares
// them, so a prototype that drifted from the library's would not compile.

#ifndef MP_AVIF_SONAME
#define MP_AVIF_SONAME "libavif.so"
#endif

MP_LAZY_LIBRARY_DEFINE(mp_avif, MP_AVIF_SONAME, "libavif.so")


MP_LAZY_FORWARD(mp_avif_library, avifBool, avifCropRectConvertCleanApertureBox, (avifCropRect *cropRect, const avifCleanApertureBox *clap, uint32_t imageW, uint32_t imageH, avifPixelFormat yuvFormat, avifDiagnostics *diag), (cropRect, clap, imageW, imageH, yuvFormat, diag), AVIF_FALSE)
MP_LAZY_FORWARD(mp_avif_library, avifDecoder *, avifDecoderCreate, (void), (), NULL)
MP_LAZY_FORWARD_VOID(mp_avif_library, avifDecoderDestroy, (avifDecoder *decoder), (decoder))
MP_LAZY_FORWARD(mp_avif_library, avifResult, avifDecoderNthImage, (avifDecoder *decoder, uint32_t frameIndex), (decoder, frameIndex), AVIF_RESULT_NO_CODEC_AVAILABLE)
MP_LAZY_FORWARD(mp_avif_library, avifResult, avifDecoderNthImageMaxExtent, (const avifDecoder *decoder, uint32_t frameIndex, avifExtent *outExtent), (decoder, frameIndex, outExtent), AVIF_RESULT_NO_CODEC_AVAILABLE)
MP_LAZY_FORWARD(mp_avif_library, avifResult, avifDecoderNthImageTiming, (const avifDecoder *decoder, uint32_t frameIndex, avifImageTiming *outTiming), (decoder, frameIndex, outTiming), AVIF_RESULT_NO_CODEC_AVAILABLE)
MP_LAZY_FORWARD(mp_avif_library, avifResult, avifDecoderParse, (avifDecoder *decoder), (decoder), AVIF_RESULT_NO_CODEC_AVAILABLE)
MP_LAZY_FORWARD(mp_avif_library, avifResult, avifDecoderSetIOMemory, (avifDecoder *decoder, const uint8_t *data, size_t size), (decoder, data, size), AVIF_RESULT_NO_CODEC_AVAILABLE)
MP_LAZY_FORWARD(mp_avif_library, avifResult, avifEncoderAddImage, (avifEncoder *encoder, const avifImage *image, uint64_t durationInTimescales, avifAddImageFlags addImageFlags), (encoder, image, durationInTimescales, addImageFlags), AVIF_RESULT_NO_CODEC_AVAILABLE)
MP_LAZY_FORWARD(mp_avif_library, avifEncoder *, avifEncoderCreate, (void), (), NULL)
MP_LAZY_FORWARD_VOID(mp_avif_library, avifEncoderDestroy, (avifEncoder *encoder), (encoder))
MP_LAZY_FORWARD(mp_avif_library, avifResult, avifEncoderFinish, (avifEncoder *encoder, avifRWData *output), (encoder, output), AVIF_RESULT_NO_CODEC_AVAILABLE)
MP_LAZY_FORWARD(mp_avif_library, avifImage *, avifImageCreate, (uint32_t width, uint32_t height, uint32_t depth, avifPixelFormat yuvFormat), (width, height, depth, yuvFormat), NULL)
MP_LAZY_FORWARD_VOID(mp_avif_library, avifImageDestroy, (avifImage *image), (image))
MP_LAZY_FORWARD(mp_avif_library, avifResult, avifImageRGBToYUV, (avifImage *image, const avifRGBImage *rgb), (image, rgb), AVIF_RESULT_NO_CODEC_AVAILABLE)
MP_LAZY_FORWARD_VOID(mp_avif_library, avifImageSetProfileICC, (avifImage *image, const uint8_t *icc, size_t iccSize), (image, icc, iccSize))
MP_LAZY_FORWARD(mp_avif_library, avifResult, avifImageSetViewRect, (avifImage *dstImage, const avifImage *srcImage, const avifCropRect *rect), (dstImage, srcImage, rect), AVIF_RESULT_NO_CODEC_AVAILABLE)
MP_LAZY_FORWARD(mp_avif_library, avifResult, avifImageYUVToRGB, (const avifImage *image, avifRGBImage *rgb), (image, rgb), AVIF_RESULT_NO_CODEC_AVAILABLE)
MP_LAZY_FORWARD_VOID(mp_avif_library, avifRGBImageSetDefaults, (avifRGBImage *rgb, const avifImage *image), (rgb, image))
MP_LAZY_FORWARD_VOID(mp_avif_library, avifRWDataFree, (avifRWData *raw), (raw))
MP_LAZY_FORWARD(mp_avif_library, const char *, avifResultToString, (avifResult result), (result), "libavif could not be loaded")
