#ifndef MP_VIDEO_LOADER_H
#define MP_VIDEO_LOADER_H

#include <stddef.h>
#include <stdint.h>

/// What a video's container and its video stream say.
typedef struct mp_video_info {
  /// The coded frame size.
  int width;
  int height;
  /// The container's duration in seconds (0 when it does not say).
  double duration;
  /// The video stream's frame rate (0 when it does not say).
  double frame_rate;
  /// The display matrix's rotation in degrees counter-clockwise
  /// (0, 90, 180, 270), as phones record upright video.
  int rotation;
  /// The codec's short name ("h264", "vp9"...), terminated.
  char codec[32];
  /// The container's format name ("mov,mp4,...", "matroska,webm").
  char container[64];
} mp_video_info;

/// Opens FFmpeg now if it is not open yet; whether it is open.
int mp_video_library_open(void);

/// Copies why FFmpeg could not be opened ("" when it has not failed) into
/// `buffer` of `size` bytes, terminated.
void mp_video_library_error(char *buffer, size_t size);

/// Opens the MP4, MOV, Matroska or WebM file in `data` (copied) from memory:
/// no other container is probed, and the demuxer cannot open any file or
/// URL (a file that references others fails). Reads stop at `deadline_ms`
/// of monotonic time from now (0: none). Returns an opaque handle with
/// `info` filled, or NULL with why in `error`.
void *mp_video_open(const uint8_t *data, size_t size, int64_t deadline_ms, mp_video_info *info, char *error,
                    size_t error_size);

/// Decodes the first frame at or after `time` seconds (0: the first frame),
/// refusing a coded size over `max_pixels`, scales it to `width` x
/// `height` and writes it as opaque RGBA8 rows at `rgba`. Returns 0, or -1
/// with why in `error`; -2 when the deadline passed.
int mp_video_frame(void *video, double time, int64_t max_pixels, int width, int height, uint8_t *rgba, char *error,
                   size_t error_size);

/// Releases a handle from mp_video_open.
void mp_video_close(void *video);

#endif
