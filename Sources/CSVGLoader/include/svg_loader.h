#ifndef MP_SVG_LOADER_H
#define MP_SVG_LOADER_H

#include <stddef.h>
#include <stdint.h>

/// What an SVG document says about its own size.
typedef struct mp_svg_intrinsic {
  /// Its width and height in CSS pixels (96 dpi), when it gives both in
  /// absolute units (not percentages).
  int has_size;
  double width;
  double height;
  /// Its viewBox, when it has one.
  int has_viewbox;
  double viewbox_width;
  double viewbox_height;
} mp_svg_intrinsic;

/// Opens librsvg now if it is not open yet; whether it is open.
int mp_svg_library_open(void);

/// Copies why librsvg could not be opened ("" when it has not failed) into
/// `buffer` of `size` bytes, terminated.
void mp_svg_library_error(char *buffer, size_t size);

/// Parses the SVG document in `data` with librsvg, from memory and with no
/// base file, so the document can load nothing but `data:` URLs, and with
/// librsvg's limits on (XML depth and size, 1,000,000 loaded elements,
/// 500,000 referenced ones). Returns an opaque handle, or NULL with why in
/// `error` (`error_size` bytes, terminated).
void *mp_svg_load(const uint8_t *data, size_t size, char *error, size_t error_size);

/// Fills `out` with what the document says about its size.
void mp_svg_get_intrinsic(void *handle, mp_svg_intrinsic *out);

/// Renders the whole document into a `viewport_width` x `viewport_height`
/// viewport (its intrinsic size; the SVG's own preserveAspectRatio applies)
/// scaled by `scale_x` and `scale_y` onto a `width` x `height` canvas, as
/// rsvg-convert draws at a given size, as straight RGBA8 rows of `width * 4`
/// bytes at `rgba`. Returns 1 when every pixel is opaque, 0 when not, -1 on
/// failure with why in `error`.
int mp_svg_render(void *handle, int width, int height, double viewport_width, double viewport_height, double scale_x,
                  double scale_y, uint8_t *rgba, char *error, size_t error_size);

/// Releases a handle from mp_svg_load.
void mp_svg_free(void *handle);

#endif
