#include "heif_loader.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libheif/heif.h>
#include <libheif/heif_plugin.h>

#include "heif_hevc_shared.h"
#include "magpie_lazy.h"

// An HEVC decoder plugin for libheif over FFmpeg's libavcodec. Its HEVC
// decoder has hand-written SIMD for the transforms, prediction and loop
// filters that Debian's libde265 1.0 does in C, and splits a picture's
// wavefront rows over slice threads. libavcodec is opened on first use and
// reached only through the pointers below (typed from its own header), as
// the video product reaches it: nothing of FFmpeg's is interposed.

#if __has_include(<libavcodec/avcodec.h>)
#include <libavcodec/avcodec.h>
#include <libavutil/pixdesc.h>
#define MP_HAVE_AVCODEC 1
#endif

#ifndef MP_AVCODEC_SONAME
#define MP_AVCODEC_SONAME "libavcodec.so"
#endif

#ifdef MP_HAVE_AVCODEC

static const char *const mp_avcodec_names[] = {MP_AVCODEC_SONAME, "libavcodec.so.59", NULL};
static mp_lazy_library mp_avcodec_library = MP_LAZY_LIBRARY(mp_avcodec_names);

#define MP_API(name) __typeof__(&name) name
static struct {
  MP_API(avcodec_find_decoder);
  MP_API(avcodec_alloc_context3);
  MP_API(avcodec_free_context);
  MP_API(avcodec_open2);
  MP_API(avcodec_send_packet);
  MP_API(avcodec_receive_frame);
  MP_API(av_packet_alloc);
  MP_API(av_packet_free);
  MP_API(av_frame_alloc);
  MP_API(av_frame_free);
  MP_API(av_pix_fmt_desc_get);
  MP_API(av_log_set_level);
} api;
#undef MP_API

static int api_state;  // 1 ready, -1 missing
static pthread_once_t api_once = PTHREAD_ONCE_INIT;

static void resolve_api(void) {
  api_state = -1;
#define MP_RESOLVE(name) \
  if ((api.name = (__typeof__(api.name))mp_lazy_symbol(&mp_avcodec_library, #name)) == NULL) return;
  MP_RESOLVE(avcodec_find_decoder)
  MP_RESOLVE(avcodec_alloc_context3)
  MP_RESOLVE(avcodec_free_context)
  MP_RESOLVE(avcodec_open2)
  MP_RESOLVE(avcodec_send_packet)
  MP_RESOLVE(avcodec_receive_frame)
  MP_RESOLVE(av_packet_alloc)
  MP_RESOLVE(av_packet_free)
  MP_RESOLVE(av_frame_alloc)
  MP_RESOLVE(av_frame_free)
  MP_RESOLVE(av_pix_fmt_desc_get)
  MP_RESOLVE(av_log_set_level)
#undef MP_RESOLVE
  if (api.avcodec_find_decoder(AV_CODEC_ID_HEVC) == NULL) return;
  // FFmpeg's own messages would go to stderr around Magpie's typed errors.
  api.av_log_set_level(AV_LOG_QUIET);
  api_state = 1;
}

/// The NAL units pushed so far, rewritten to Annex B start codes, with the
/// zeroed padding libavcodec reads past the end.
typedef struct {
  uint8_t *bytes;
  size_t count, capacity;
  int threads;
} mp_avcodec_decoder;

static const char *mp_avcodec_name(void) { return "Magpie libavcodec HEVC"; }

static void mp_avcodec_nothing(void) {}

// libavcodec conceals damage as libde265 does; libheif's strict flag is
// for its own plugin's warnings.
static void mp_avcodec_set_strict(void *opaque, int flag) {
  (void)opaque;
  (void)flag;
}

// Opens libavcodec the first time a decode asks (not at registration: a
// process that only reads HEIC sizes never maps FFmpeg).
int mp_heif_avcodec_ready(void) {
  pthread_once(&api_once, resolve_api);
  return api_state == 1;
}

static int mp_avcodec_supports(enum heif_compression_format format) {
  // Above Magpie's libde265 plugin (120) and libheif's own (100).
  return format == heif_compression_HEVC && mp_heif_hevc_backend_allows(mp_heif_hevc_avcodec) &&
                 mp_heif_avcodec_ready()
             ? 130
             : 0;
}

static struct heif_error mp_avcodec_new(void **out) {
  mp_avcodec_decoder *decoder = calloc(1, sizeof *decoder);
  if (decoder == NULL) return mp_heif_hevc_error(heif_error_Memory_allocation_error, "no memory for a decoder");
  decoder->threads = mp_heif_hevc_threads();
  mp_heif_hevc_record(mp_heif_hevc_avcodec);
  *out = decoder;
  return mp_heif_hevc_ok;
}

static void mp_avcodec_free(void *opaque) {
  mp_avcodec_decoder *decoder = opaque;
  if (decoder == NULL) return;
  free(decoder->bytes);
  free(decoder);
}

// libheif hands over NAL units each behind a 4-byte big-endian length: the
// same bytes as Annex B once each length is a start code.
static struct heif_error mp_avcodec_push(void *opaque, const void *data, size_t size) {
  mp_avcodec_decoder *decoder = opaque;
  if (size > SIZE_MAX / 2 - decoder->count - AV_INPUT_BUFFER_PADDING_SIZE) {
    return mp_heif_hevc_error(heif_error_Memory_allocation_error, "HEVC data too large");
  }
  size_t needed = decoder->count + size + AV_INPUT_BUFFER_PADDING_SIZE;
  if (needed > decoder->capacity) {
    size_t capacity = needed > decoder->capacity * 2 ? needed : decoder->capacity * 2;
    uint8_t *grown = realloc(decoder->bytes, capacity);
    if (grown == NULL) return mp_heif_hevc_error(heif_error_Memory_allocation_error, "no memory for HEVC data");
    decoder->bytes = grown;
    decoder->capacity = capacity;
  }
  uint8_t *to = decoder->bytes + decoder->count;
  const uint8_t *nal = NULL;
  uint32_t length = 0;
  const char *why = NULL;
  size_t at = 0;
  int found;
  while ((found = mp_heif_hevc_next_nal(data, size, &at, &nal, &length, &why)) > 0) {
    static const uint8_t start[4] = {0, 0, 0, 1};
    memcpy(to, start, 4);
    memcpy(to + 4, nal, length);
    to += 4 + (size_t)length;
  }
  if (found < 0) return mp_heif_hevc_error(heif_error_Decoder_plugin_error, why);
  decoder->count += size;
  memset(decoder->bytes + decoder->count, 0, AV_INPUT_BUFFER_PADDING_SIZE);
  return mp_heif_hevc_ok;
}

// Copies a decoded frame into a heif_image of the same chroma layout.
static struct heif_error mp_avcodec_copy(const AVFrame *frame, struct heif_image **out) {
  const AVPixFmtDescriptor *format = api.av_pix_fmt_desc_get(frame->format);
  // Grey (an alpha or depth picture) has one plane and no planar flag. An
  // identity-matrix picture comes as GBR planes: the coded planes in coded
  // order, as libde265 gives them as Y, Cb and Cr.
  if (format == NULL || (format->nb_components > 1 && !(format->flags & AV_PIX_FMT_FLAG_PLANAR)) ||
      (format->flags & AV_PIX_FMT_FLAG_BE) ||
      (format->flags & AV_PIX_FMT_FLAG_ALPHA) || (format->nb_components != 1 && format->nb_components != 3) ||
      format->comp[0].depth > 16) {
    return mp_heif_hevc_error(heif_error_Unsupported_feature, "libavcodec gave a pixel format libheif cannot take");
  }
  int planes = format->nb_components;
  int cw = format->log2_chroma_w, ch = format->log2_chroma_h;
  enum heif_chroma chroma = planes == 1            ? heif_chroma_monochrome
                            : cw == 1 && ch == 1   ? heif_chroma_420
                            : cw == 1 && ch == 0   ? heif_chroma_422
                            : cw == 0 && ch == 0   ? heif_chroma_444
                                                   : heif_chroma_undefined;
  if (chroma == heif_chroma_undefined) {
    return mp_heif_hevc_error(heif_error_Unsupported_feature, "libavcodec gave a chroma layout libheif cannot take");
  }
  enum heif_colorspace space = planes == 1 ? heif_colorspace_monochrome : heif_colorspace_YCbCr;
  struct heif_image *image = NULL;
  struct heif_error error = heif_image_create(frame->width, frame->height, space, chroma, &image);
  if (error.code != heif_error_Ok) return error;
  static const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
  int bits = format->comp[0].depth;
  for (int c = 0; c < planes; c++) {
    int w = c == 0 ? frame->width : -((-frame->width) >> cw);
    int h = c == 0 ? frame->height : -((-frame->height) >> ch);
    error = heif_image_add_plane(image, channels[c], w, h, bits);
    if (error.code != heif_error_Ok) {
      heif_image_release(image);
      return error;
    }
    int stride = 0;
    uint8_t *to = heif_image_get_plane(image, channels[c], &stride);
    size_t row = (size_t)w * (bits > 8 ? 2 : 1);
    for (int y = 0; y < h; y++) {
      memcpy(to + (size_t)y * stride, frame->data[c] + (ptrdiff_t)y * frame->linesize[c], row);
    }
  }
  *out = image;
  return mp_heif_hevc_ok;
}

static struct heif_error mp_avcodec_decode_image(void *opaque, struct heif_image **out) {
  mp_avcodec_decoder *decoder = opaque;
  if (decoder->count == 0) return mp_heif_hevc_error(heif_error_Decoder_plugin_error, "no HEVC data");
  if (decoder->count > INT32_MAX) return mp_heif_hevc_error(heif_error_Memory_allocation_error, "HEVC data too large");
  const AVCodec *codec = api.avcodec_find_decoder(AV_CODEC_ID_HEVC);
  AVCodecContext *context = codec ? api.avcodec_alloc_context3(codec) : NULL;
  AVPacket *packet = api.av_packet_alloc();
  AVFrame *frame = api.av_frame_alloc();
  struct heif_error result = mp_heif_hevc_error(heif_error_Memory_allocation_error, "libavcodec could not allocate");
  if (context == NULL || packet == NULL || frame == NULL) goto done;
  context->thread_count = decoder->threads > 1 ? decoder->threads : 1;
  context->thread_type = FF_THREAD_SLICE;
  result = mp_heif_hevc_error(heif_error_Decoder_plugin_error, "libavcodec could not open its HEVC decoder");
  if (api.avcodec_open2(context, codec, NULL) < 0) goto done;
  packet->data = decoder->bytes;
  packet->size = (int)decoder->count;
  result = mp_heif_hevc_error(heif_error_Decoder_plugin_error, "libavcodec could not decode the HEVC picture");
  if (api.avcodec_send_packet(context, packet) < 0) goto done;
  api.avcodec_send_packet(context, NULL);
  if (api.avcodec_receive_frame(context, frame) < 0) goto done;
  result = mp_avcodec_copy(frame, out);
done:
  api.av_frame_free(&frame);
  api.av_packet_free(&packet);
  api.avcodec_free_context(&context);
  return result;
}

static const struct heif_decoder_plugin mp_avcodec_plugin = {
    .plugin_api_version = 3,
    .get_plugin_name = mp_avcodec_name,
    .init_plugin = mp_avcodec_nothing,
    .deinit_plugin = mp_avcodec_nothing,
    .does_support_format = mp_avcodec_supports,
    .new_decoder = mp_avcodec_new,
    .free_decoder = mp_avcodec_free,
    .push_data = mp_avcodec_push,
    .decode_image = mp_avcodec_decode_image,
    .set_strict_decoding = mp_avcodec_set_strict,
    .id_name = "magpie-libavcodec",
};

int mp_heif_register_avcodec_plugin(void) {
  return heif_register_decoder_plugin(&mp_avcodec_plugin).code == heif_error_Ok;
}

#else

int mp_heif_register_avcodec_plugin(void) { return 0; }

int mp_heif_avcodec_ready(void) { return 0; }

#endif
