#ifndef MAGPIE_CAIRO_H
#define MAGPIE_CAIRO_H

#include <stddef.h>
#include <stdint.h>

#include "magpie_lazy.h"

/// A cairo image surface over caller memory and its drawing context, for
/// the coders that draw through cairo (librsvg, poppler), with cairo's
/// functions resolved by name from the coder's lazily opened library (which
/// links cairo), so no cairo symbol is defined in the process: one that
/// links GTK's cairo itself is not interposed.
typedef struct mp_cairo_canvas {
  void *surface;
  void *context;
  mp_lazy_library *library;
} mp_cairo_canvas;

/// Makes a `width` x `height` canvas over `rgba` (`width * 4` bytes a row),
/// cleared to transparent, or to opaque white when `white`, its context
/// scaled by `scale_x` and `scale_y`. Returns 0 on success, -1 with why in
/// `error` (`error_size` bytes).
int mp_cairo_canvas_open(mp_cairo_canvas *canvas, mp_lazy_library *library, uint8_t *rgba, int width, int height,
                         double scale_x, double scale_y, int white, char *error, size_t error_size);

/// Finishes drawing and releases the surface and context; then turns
/// cairo's premultiplied native-endian ARGB words at `rgba` into straight
/// RGBA bytes in place. Returns 1 when every pixel is opaque, else 0.
int mp_cairo_canvas_close(mp_cairo_canvas *canvas, uint8_t *rgba, size_t pixel_count);

#endif
