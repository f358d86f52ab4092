#include "magpie_cairo.h"

#include <stdio.h>
#include <string.h>

typedef void *(*surface_create_fn)(unsigned char *, int, int, int, int);
typedef void *(*create_fn)(void *);
typedef void (*release_fn)(void *);
typedef int (*status_fn)(void *);
typedef void (*scale_fn)(void *, double, double);
typedef void (*rgb_fn)(void *, double, double, double);

#define MP_CAIRO(type, name) ((type)mp_lazy_symbol(canvas->library, name))

int mp_cairo_canvas_open(mp_cairo_canvas *canvas, mp_lazy_library *library, uint8_t *rgba, int width, int height,
                         double scale_x, double scale_y, int white, char *error, size_t error_size) {
  canvas->library = library;
  canvas->surface = NULL;
  canvas->context = NULL;
  surface_create_fn create_surface = MP_CAIRO(surface_create_fn, "cairo_image_surface_create_for_data");
  create_fn create = MP_CAIRO(create_fn, "cairo_create");
  status_fn status = MP_CAIRO(status_fn, "cairo_status");
  scale_fn scale = MP_CAIRO(scale_fn, "cairo_scale");
  rgb_fn set_rgb = MP_CAIRO(rgb_fn, "cairo_set_source_rgb");
  release_fn paint = MP_CAIRO(release_fn, "cairo_paint");
  if (!create_surface || !create || !status || !scale || !set_rgb || !paint) {
    mp_lazy_copy_error(library, error, error_size);
    return -1;
  }
  memset(rgba, 0, (size_t)width * 4 * (size_t)height);
  // CAIRO_FORMAT_ARGB32 (0): premultiplied, native-endian 32-bit words.
  canvas->surface = create_surface(rgba, 0, width, height, width * 4);
  canvas->context = create(canvas->surface);
  if (status(canvas->context) != 0) {
    mp_cairo_canvas_close(canvas, rgba, 0);
    snprintf(error, error_size, "cairo could not make a %dx%d surface", width, height);
    return -1;
  }
  if (white) {
    set_rgb(canvas->context, 1, 1, 1);
    paint(canvas->context);
  }
  scale(canvas->context, scale_x, scale_y);
  return 0;
}

int mp_cairo_canvas_close(mp_cairo_canvas *canvas, uint8_t *rgba, size_t pixel_count) {
  release_fn destroy = MP_CAIRO(release_fn, "cairo_destroy");
  release_fn flush = MP_CAIRO(release_fn, "cairo_surface_flush");
  release_fn destroy_surface = MP_CAIRO(release_fn, "cairo_surface_destroy");
  if (canvas->context && destroy) destroy(canvas->context);
  if (canvas->surface && flush) flush(canvas->surface);
  if (canvas->surface && destroy_surface) destroy_surface(canvas->surface);
  canvas->context = NULL;
  canvas->surface = NULL;
  int opaque = 1;
  for (size_t i = 0; i < pixel_count; i++) {
    uint32_t word;
    memcpy(&word, rgba + 4 * i, 4);
    uint32_t a = word >> 24, r = (word >> 16) & 0xFF, g = (word >> 8) & 0xFF, b = word & 0xFF;
    if (a != 255) {
      opaque = 0;
      if (a == 0) {
        r = g = b = 0;
      } else {
        // Cairo keeps colour at or under alpha; the clamp guards the rest.
        r = (r * 255 + a / 2) / a;
        g = (g * 255 + a / 2) / a;
        b = (b * 255 + a / 2) / a;
        r = r > 255 ? 255 : r;
        g = g > 255 ? 255 : g;
        b = b > 255 ? 255 : b;
      }
    }
    uint8_t pixel[4] = {(uint8_t)r, (uint8_t)g, (uint8_t)b, (uint8_t)a};
    memcpy(rgba + 4 * i, pixel, 4);
  }
  return opaque;
}
