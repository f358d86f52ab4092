#include "video_loader.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>

#include "magpie_lazy.h"

// FFmpeg's libavformat (with libavcodec and libavutil, which it links) and
// libswscale, opened on first use (see magpie_lazy.h). Every function is
// called through a pointer resolved by name into `api`, typed from FFmpeg's
// own declarations, so a drifted prototype does not compile and nothing in
// a process that links FFmpeg itself (a GStreamer plugin) is interposed.

#ifndef MP_AVFORMAT_SONAME
#define MP_AVFORMAT_SONAME "libavformat.so"
#endif
#ifndef MP_SWSCALE_SONAME
#define MP_SWSCALE_SONAME "libswscale.so"
#endif

MP_LAZY_LIBRARY_DEFINE(mp_video, MP_AVFORMAT_SONAME, "libavformat.so.59")
MP_LAZY_LIBRARY_DEFINE(mp_swscale, MP_SWSCALE_SONAME, "libswscale.so.6")

#define MP_API(name) __typeof__(&name) name
static struct {
  MP_API(avformat_alloc_context);
  MP_API(avformat_open_input);
  MP_API(avformat_find_stream_info);
  MP_API(avformat_close_input);
  MP_API(av_find_best_stream);
  MP_API(av_find_input_format);
  MP_API(avio_alloc_context);
  MP_API(avio_context_free);
  MP_API(av_malloc);
  MP_API(av_free);
  MP_API(av_read_frame);
  MP_API(av_seek_frame);
  MP_API(av_packet_alloc);
  MP_API(av_packet_free);
  MP_API(av_packet_unref);
  MP_API(av_frame_alloc);
  MP_API(av_frame_free);
  MP_API(avcodec_alloc_context3);
  MP_API(avcodec_free_context);
  MP_API(avcodec_parameters_to_context);
  MP_API(avcodec_open2);
  MP_API(avcodec_send_packet);
  MP_API(avcodec_receive_frame);
  MP_API(av_strerror);
  MP_API(av_stream_get_side_data);
  MP_API(av_display_rotation_get);
  MP_API(av_log_set_level);
  MP_API(av_strdup);
  MP_API(av_frame_move_ref);
  MP_API(av_frame_unref);
  MP_API(sws_setColorspaceDetails);
  MP_API(sws_getCoefficients);
  MP_API(sws_getContext);
  MP_API(sws_scale);
  MP_API(sws_freeContext);
} api;
static int api_state;  // 0 untried, 1 ready, -1 failed
static pthread_once_t api_once = PTHREAD_ONCE_INIT;

#define MP_RESOLVE(library, name)                                     \
  if ((api.name = (__typeof__(api.name))mp_lazy_symbol(&(library), #name)) == NULL) return;

static void resolve_api(void) {
  api_state = -1;
  MP_RESOLVE(mp_video_library, avformat_alloc_context)
  MP_RESOLVE(mp_video_library, avformat_open_input)
  MP_RESOLVE(mp_video_library, avformat_find_stream_info)
  MP_RESOLVE(mp_video_library, avformat_close_input)
  MP_RESOLVE(mp_video_library, av_find_best_stream)
  MP_RESOLVE(mp_video_library, av_find_input_format)
  MP_RESOLVE(mp_video_library, avio_alloc_context)
  MP_RESOLVE(mp_video_library, avio_context_free)
  MP_RESOLVE(mp_video_library, av_malloc)
  MP_RESOLVE(mp_video_library, av_free)
  MP_RESOLVE(mp_video_library, av_read_frame)
  MP_RESOLVE(mp_video_library, av_seek_frame)
  MP_RESOLVE(mp_video_library, av_packet_alloc)
  MP_RESOLVE(mp_video_library, av_packet_free)
  MP_RESOLVE(mp_video_library, av_packet_unref)
  MP_RESOLVE(mp_video_library, av_frame_alloc)
  MP_RESOLVE(mp_video_library, av_frame_free)
  MP_RESOLVE(mp_video_library, avcodec_alloc_context3)
  MP_RESOLVE(mp_video_library, avcodec_free_context)
  MP_RESOLVE(mp_video_library, avcodec_parameters_to_context)
  MP_RESOLVE(mp_video_library, avcodec_open2)
  MP_RESOLVE(mp_video_library, avcodec_send_packet)
  MP_RESOLVE(mp_video_library, avcodec_receive_frame)
  MP_RESOLVE(mp_video_library, av_strerror)
  MP_RESOLVE(mp_video_library, av_stream_get_side_data)
  MP_RESOLVE(mp_video_library, av_display_rotation_get)
  MP_RESOLVE(mp_video_library, av_log_set_level)
  MP_RESOLVE(mp_video_library, av_strdup)
  MP_RESOLVE(mp_video_library, av_frame_move_ref)
  MP_RESOLVE(mp_video_library, av_frame_unref)
  MP_RESOLVE(mp_swscale_library, sws_setColorspaceDetails)
  MP_RESOLVE(mp_swscale_library, sws_getCoefficients)
  MP_RESOLVE(mp_swscale_library, sws_getContext)
  MP_RESOLVE(mp_swscale_library, sws_scale)
  MP_RESOLVE(mp_swscale_library, sws_freeContext)
  // FFmpeg's own messages would go to stderr around Magpie's typed errors.
  api.av_log_set_level(AV_LOG_QUIET);
  api_state = 1;
}

static int ready(char *error, size_t error_size) {
  pthread_once(&api_once, resolve_api);
  if (api_state == 1) return 1;
  mp_video_library_error(error, error_size);
  if (error[0] == 0) mp_swscale_library_error(error, error_size);
  return 0;
}

/// An open video: the copied bytes, the demuxer reading them, the decoder.
typedef struct mp_video {
  uint8_t *data;
  size_t size;
  size_t position;
  int64_t deadline_ms;
  AVIOContext *io;
  AVFormatContext *format;
  AVCodecContext *codec;
  const AVCodec *decoder;
  int stream;
} mp_video;

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int read_packet(void *opaque, uint8_t *buffer, int size) {
  mp_video *video = opaque;
  size_t left = video->size - video->position;
  if (left == 0) return AVERROR_EOF;
  size_t count = (size_t)size < left ? (size_t)size : left;
  memcpy(buffer, video->data + video->position, count);
  video->position += count;
  return (int)count;
}

static int64_t seek(void *opaque, int64_t offset, int whence) {
  mp_video *video = opaque;
  if (whence == AVSEEK_SIZE) return (int64_t)video->size;
  int64_t base = (whence & 3) == SEEK_CUR ? (int64_t)video->position : (whence & 3) == SEEK_END ? (int64_t)video->size : 0;
  int64_t target = base + offset;
  if (target < 0 || target > (int64_t)video->size) return AVERROR(EINVAL);
  video->position = (size_t)target;
  return target;
}

/// FFmpeg asks this during reads and waits: past the deadline, it stops.
static int interrupted(void *opaque) {
  mp_video *video = opaque;
  return video->deadline_ms > 0 && now_ms() > video->deadline_ms;
}

/// The demuxer asks this to open another file or URL (a reference, a
/// playlist entry): refused, so a video reads nothing but its own bytes.
static int refuse_open(struct AVFormatContext *s, AVIOContext **pb, const char *url, int flags, AVDictionary **options) {
  (void)s, (void)pb, (void)url, (void)flags, (void)options;
  return AVERROR(EPERM);
}

static void describe(int code, const char *what, char *error, size_t error_size) {
  char reason[128] = "";
  api.av_strerror(code, reason, sizeof reason);
  snprintf(error, error_size, "%s: %s", what, reason);
}

void mp_video_close(void *handle) {
  mp_video *video = handle;
  if (video == NULL) return;
  if (api_state == 1) {
    if (video->codec) api.avcodec_free_context(&video->codec);
    if (video->format) api.avformat_close_input(&video->format);
    if (video->io) {
      // FFmpeg may have swapped the buffer it was given for another.
      api.av_free(video->io->buffer);
      api.avio_context_free(&video->io);
    }
  }
  free(video->data);
  free(video);
}

/// Fills `info` from the open container and its best video stream.
static void describe_stream(mp_video *video, mp_video_info *info) {
  AVStream *stream = video->format->streams[video->stream];
  info->width = stream->codecpar->width;
  info->height = stream->codecpar->height;
  if (video->format->duration != AV_NOPTS_VALUE && video->format->duration > 0) {
    info->duration = (double)video->format->duration / AV_TIME_BASE;
  }
  AVRational rate = stream->avg_frame_rate.num > 0 ? stream->avg_frame_rate : stream->r_frame_rate;
  if (rate.num > 0 && rate.den > 0) info->frame_rate = (double)rate.num / rate.den;
  const uint8_t *matrix = api.av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, NULL);
  if (matrix != NULL) {
    double degrees = api.av_display_rotation_get((const int32_t *)matrix);
    int quarter = (int)((degrees < 0 ? degrees - 45 : degrees + 45) / 90);
    info->rotation = ((quarter % 4) + 4) % 4 * 90;
  }
  snprintf(info->codec, sizeof info->codec, "%s", video->decoder ? video->decoder->name : "unknown");
  snprintf(info->container, sizeof info->container, "%s", video->format->iformat->name);
}

void *mp_video_open(const uint8_t *data, size_t size, int64_t deadline_ms, mp_video_info *info, char *error,
                    size_t error_size) {
  memset(info, 0, sizeof *info);
  if (error_size > 0) error[0] = 0;
  if (!ready(error, error_size)) return NULL;
  mp_video *video = calloc(1, sizeof *video);
  if (video == NULL || (video->data = malloc(size > 0 ? size : 1)) == NULL) {
    free(video);
    snprintf(error, error_size, "no memory for %zu bytes of video", size);
    return NULL;
  }
  memcpy(video->data, data, size);
  video->size = size;
  video->stream = -1;
  video->deadline_ms = deadline_ms > 0 ? now_ms() + deadline_ms : 0;
  enum { buffer_size = 1 << 16 };
  unsigned char *buffer = api.av_malloc(buffer_size);
  video->io = buffer ? api.avio_alloc_context(buffer, buffer_size, 0, video, read_packet, NULL, seek) : NULL;
  video->format = api.avformat_alloc_context();
  if (video->io == NULL || video->format == NULL) {
    if (video->io == NULL) api.av_free(buffer);
    mp_video_close(video);
    snprintf(error, error_size, "FFmpeg could not allocate a demuxer");
    return NULL;
  }
  video->format->pb = video->io;
  video->format->flags |= AVFMT_FLAG_CUSTOM_IO;
  video->format->io_open = refuse_open;
  video->format->interrupt_callback.callback = interrupted;
  video->format->interrupt_callback.opaque = video;
  // Only the containers Magpie takes videos in; no playlist, concat or
  // image-sequence demuxer that would follow references.
  video->format->format_whitelist = api.av_strdup("mov,mp4,m4a,3gp,3g2,mj2,matroska,webm");
  int rc = api.avformat_open_input(&video->format, NULL, NULL, NULL);
  if (rc < 0) {
    // avformat_open_input frees the context on failure.
    video->format = NULL;
    describe(rc, "FFmpeg could not open the video", error, error_size);
    mp_video_close(video);
    return NULL;
  }
  rc = api.avformat_find_stream_info(video->format, NULL);
  if (rc >= 0) rc = api.av_find_best_stream(video->format, AVMEDIA_TYPE_VIDEO, -1, -1, &video->decoder, 0);
  if (rc < 0) {
    describe(rc, "no video stream FFmpeg decodes", error, error_size);
    mp_video_close(video);
    return NULL;
  }
  video->stream = rc;
  describe_stream(video, info);
  return video;
}

/// Opens the decoder, refusing frames over `max_pixels`; one thread, as
/// decodes already run side by side and frame threads delay the first frame.
static int open_decoder(mp_video *video, int64_t max_pixels, char *error, size_t error_size) {
  if (video->codec) return 0;
  video->codec = api.avcodec_alloc_context3(video->decoder);
  if (video->codec == NULL) {
    snprintf(error, error_size, "FFmpeg could not allocate a decoder");
    return -1;
  }
  int rc = api.avcodec_parameters_to_context(video->codec, video->format->streams[video->stream]->codecpar);
  video->codec->thread_count = 1;
  video->codec->max_pixels = max_pixels > 0 ? max_pixels : INT64_MAX;
  if (rc >= 0) rc = api.avcodec_open2(video->codec, video->decoder, NULL);
  if (rc < 0) {
    describe(rc, "FFmpeg could not open the decoder", error, error_size);
    return -1;
  }
  return 0;
}

/// Decodes frames until one at or after `time` (in stream units; INT64_MIN
/// takes the first), keeping it in `keep`; the last one decoded when the
/// stream ends first. Returns 1 with a frame, 0 without, -2 past the deadline.
static int decode_until(mp_video *video, int64_t time, AVFrame *keep, char *error, size_t error_size) {
  AVPacket *packet = api.av_packet_alloc();
  AVFrame *frame = api.av_frame_alloc();
  int have = 0, done = 0, ended = 0, result = 0;
  while (!done && packet && frame) {
    if (interrupted(video)) {
      result = -2;
      break;
    }
    int rc = ended ? AVERROR_EOF : api.av_read_frame(video->format, packet);
    if (rc < 0 && !ended) {
      ended = 1;
      api.avcodec_send_packet(video->codec, NULL);  // drain what the decoder holds
    } else if (rc >= 0) {
      if (packet->stream_index == video->stream) api.avcodec_send_packet(video->codec, packet);
      api.av_packet_unref(packet);
    }
    while (!done) {
      rc = api.avcodec_receive_frame(video->codec, frame);
      if (rc < 0) {
        if (rc == AVERROR_EOF) done = 1;
        break;
      }
      int64_t pts = frame->best_effort_timestamp;
      api.av_frame_unref(keep);
      api.av_frame_move_ref(keep, frame);
      have = 1;
      if (time == INT64_MIN || pts == AV_NOPTS_VALUE || pts >= time) done = 1;
    }
    if (ended && !done && rc != AVERROR(EAGAIN)) done = 1;
  }
  if (result == 0) result = have;
  if (result == 0) snprintf(error, error_size, "the video has no frame FFmpeg could decode");
  api.av_packet_free(&packet);
  api.av_frame_free(&frame);
  return result;
}

int mp_video_frame(void *handle, double time, int64_t max_pixels, int width, int height, uint8_t *rgba, char *error,
                   size_t error_size) {
  mp_video *video = handle;
  if (error_size > 0) error[0] = 0;
  if (open_decoder(video, max_pixels, error, error_size) != 0) return -1;
  AVStream *stream = video->format->streams[video->stream];
  int64_t target = INT64_MIN;
  if (time > 0 && stream->time_base.num > 0) {
    target = (int64_t)(time * stream->time_base.den / stream->time_base.num);
    // Back to the keyframe before the time, then forward to it.
    api.av_seek_frame(video->format, video->stream, target, AVSEEK_FLAG_BACKWARD);
  }
  AVFrame *frame = api.av_frame_alloc();
  int got = frame ? decode_until(video, target, frame, error, error_size) : 0;
  if (got <= 0) {
    api.av_frame_free(&frame);
    if (got == -2) snprintf(error, error_size, "the video decode ran past its time limit");
    return got == -2 ? -2 : -1;
  }
  if (frame->width <= 0 || frame->height <= 0 || (int64_t)frame->width * frame->height > max_pixels) {
    snprintf(error, error_size, "the decoded frame is %dx%d", frame->width, frame->height);
    api.av_frame_free(&frame);
    return -1;
  }
  int shrinks = width < frame->width || height < frame->height;
  struct SwsContext *scale = api.sws_getContext(frame->width, frame->height, frame->format, width, height,
                                                AV_PIX_FMT_RGBA, shrinks ? SWS_AREA : SWS_BICUBIC, NULL, NULL, NULL);
  if (scale == NULL) {
    snprintf(error, error_size, "swscale cannot convert the frame's pixel format %d", frame->format);
    api.av_frame_free(&frame);
    return -1;
  }
  // The frame's own matrix and range (BT.709 for HD video), into full-range RGB.
  int colorspace = frame->colorspace == AVCOL_SPC_UNSPECIFIED ? SWS_CS_DEFAULT : (int)frame->colorspace;
  api.sws_setColorspaceDetails(scale, api.sws_getCoefficients(colorspace), frame->color_range == AVCOL_RANGE_JPEG,
                               api.sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16);
  uint8_t *planes[4] = {rgba, NULL, NULL, NULL};
  int strides[4] = {width * 4, 0, 0, 0};
  api.sws_scale(scale, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides);
  api.sws_freeContext(scale);
  api.av_frame_free(&frame);
  return 0;
}
