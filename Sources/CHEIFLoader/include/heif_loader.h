#ifndef MP_HEIF_LOADER_H
#define MP_HEIF_LOADER_H

#include <stddef.h>

/// Opens libheif now if it is not open yet; whether it is open. The
/// forwarding functions open it on their first call anyway; this is for
/// saying why it is missing (mp_heif_library_error).
int mp_heif_library_open(void);

/// Copies why libheif could not be opened ("" when it has not failed) into
/// `buffer` of `size` bytes, terminated.
void mp_heif_library_error(char *buffer, size_t size);

/// Magpie's HEVC decoders for libheif, registered above libheif's own
/// (Debian's libheif 1.15 starts libde265 with one thread).
enum mp_heif_hevc_backend {
  /// The best one there is: libavcodec, else libde265 on threads, else
  /// libheif's own plugin.
  mp_heif_hevc_any = 0,
  /// FFmpeg's libavcodec, slice threads over the picture's wavefront rows.
  mp_heif_hevc_avcodec = 1,
  /// libde265 with worker threads.
  mp_heif_hevc_de265 = 2,
  /// libheif's own plugin (Magpie's stand aside).
  mp_heif_hevc_libheif = 3,
};

/// Registers the libavcodec plugin with libheif; call once, after
/// heif_init. Whether it was registered (not where libavcodec's header was
/// missing at build time). libavcodec itself is opened by the first decode
/// that asks for it; where it cannot be, the plugin stands aside.
int mp_heif_register_avcodec_plugin(void);

/// Registers the threaded libde265 plugin, below the libavcodec one, as
/// mp_heif_register_avcodec_plugin does.
int mp_heif_register_de265_plugin(void);

/// Whether `backend` can decode: its plugin was built and its library
/// opens (opened now if it was not).
int mp_heif_hevc_available(enum mp_heif_hevc_backend backend);

/// The threads the HEVC decoders libheif makes on the calling thread use
/// (0 or 1: the calling thread alone). Set before heif_decode_image.
void mp_heif_hevc_set_threads(int threads);

/// Which of the decoders the calling thread's next decodes may use
/// (mp_heif_hevc_any unless set; the tests compare them).
void mp_heif_hevc_set_backend(enum mp_heif_hevc_backend backend);

/// The backend whose decoder the calling thread made last (one of
/// Magpie's plugins; mp_heif_hevc_any when none was made since the last
/// call), forgetting it.
enum mp_heif_hevc_backend mp_heif_hevc_take_last_backend(void);

#endif
