#include "svg_loader.h"

#include <stdio.h>
#include <string.h>

#include "magpie_lazy.h"

// librsvg (and the cairo and GLib it links) opened on first use (see
// magpie_lazy.h). librsvg's headers need GLib's and cairo's include
// folders, which only pkg-config knows and whose flags SwiftPM refuses
// (-pthread); the few functions used are declared here instead, through
// pointers resolved by name, under names of our own, so nothing in the
// process that links GTK's cairo or GLib is interposed.

#ifndef MP_SVG_SONAME
#define MP_SVG_SONAME "librsvg-2.so"
#endif

MP_LAZY_LIBRARY_DEFINE(mp_svg, MP_SVG_SONAME, "librsvg-2.so.2")

typedef struct { uint32_t domain; int code; char *message; } mp_gerror;
typedef struct { double x, y, width, height; } mp_rectangle;
typedef struct { double length; int unit; } mp_length;

typedef void *(*new_from_data_fn)(const uint8_t *, size_t, mp_gerror **);
typedef void (*set_dpi_fn)(void *, double);
typedef int (*intrinsic_pixels_fn)(void *, double *, double *);
typedef void (*intrinsic_dimensions_fn)(void *, int *, mp_length *, int *, mp_length *, int *, mp_rectangle *);
typedef int (*render_document_fn)(void *, void *, const mp_rectangle *, mp_gerror **);
typedef void (*unref_fn)(void *);
typedef void (*error_free_fn)(mp_gerror *);
typedef void *(*surface_create_fn)(unsigned char *, int, int, int, int);
typedef void *(*cairo_create_fn)(void *);
typedef void (*cairo_destroy_fn)(void *);
typedef int (*cairo_status_fn)(void *);
typedef void (*cairo_scale_fn)(void *, double, double);

#define MP_SYMBOL(type, name) ((type)mp_lazy_symbol(&mp_svg_library, name))

static void copy_error(char *error, size_t size, const char *what, mp_gerror *gerror) {
  if (error == NULL || size == 0) return;
  if (gerror != NULL && gerror->message != NULL) {
    snprintf(error, size, "%s", gerror->message);
  } else if (what != NULL) {
    snprintf(error, size, "%s", what);
  } else {
    mp_svg_library_error(error, size);
  }
}

static void free_error(mp_gerror *gerror) {
  error_free_fn error_free = MP_SYMBOL(error_free_fn, "g_error_free");
  if (gerror != NULL && error_free != NULL) error_free(gerror);
}

void *mp_svg_load(const uint8_t *data, size_t size, char *error, size_t error_size) {
  new_from_data_fn new_from_data = MP_SYMBOL(new_from_data_fn, "rsvg_handle_new_from_data");
  set_dpi_fn set_dpi = MP_SYMBOL(set_dpi_fn, "rsvg_handle_set_dpi");
  if (new_from_data == NULL || set_dpi == NULL) {
    copy_error(error, error_size, NULL, NULL);
    return NULL;
  }
  mp_gerror *gerror = NULL;
  void *handle = new_from_data(data, size, &gerror);
  if (handle == NULL) {
    copy_error(error, error_size, "librsvg could not read the document", gerror);
    free_error(gerror);
    return NULL;
  }
  // CSS pixels: 96 to the inch, as browsers draw SVG.
  set_dpi(handle, 96.0);
  return handle;
}

void mp_svg_get_intrinsic(void *handle, mp_svg_intrinsic *out) {
  memset(out, 0, sizeof *out);
  intrinsic_pixels_fn pixels = MP_SYMBOL(intrinsic_pixels_fn, "rsvg_handle_get_intrinsic_size_in_pixels");
  intrinsic_dimensions_fn dimensions = MP_SYMBOL(intrinsic_dimensions_fn, "rsvg_handle_get_intrinsic_dimensions");
  if (pixels != NULL) out->has_size = pixels(handle, &out->width, &out->height) != 0;
  if (dimensions != NULL) {
    int has_width = 0, has_height = 0, has_viewbox = 0;
    mp_length width, height;
    mp_rectangle viewbox = {0, 0, 0, 0};
    dimensions(handle, &has_width, &width, &has_height, &height, &has_viewbox, &viewbox);
    out->has_viewbox = has_viewbox != 0;
    out->viewbox_width = viewbox.width;
    out->viewbox_height = viewbox.height;
  }
}

int mp_svg_render(void *handle, int width, int height, double viewport_width, double viewport_height, double scale_x,
                  double scale_y, uint8_t *rgba, char *error, size_t error_size) {
  surface_create_fn create_surface = MP_SYMBOL(surface_create_fn, "cairo_image_surface_create_for_data");
  cairo_create_fn create = MP_SYMBOL(cairo_create_fn, "cairo_create");
  cairo_destroy_fn destroy = MP_SYMBOL(cairo_destroy_fn, "cairo_destroy");
  unref_fn destroy_surface = MP_SYMBOL(unref_fn, "cairo_surface_destroy");
  unref_fn flush = MP_SYMBOL(unref_fn, "cairo_surface_flush");
  cairo_status_fn status = MP_SYMBOL(cairo_status_fn, "cairo_status");
  cairo_scale_fn scale = MP_SYMBOL(cairo_scale_fn, "cairo_scale");
  render_document_fn render = MP_SYMBOL(render_document_fn, "rsvg_handle_render_document");
  if (!create_surface || !create || !destroy || !destroy_surface || !flush || !status || !scale || !render) {
    copy_error(error, error_size, NULL, NULL);
    return -1;
  }
  int stride = width * 4;
  memset(rgba, 0, (size_t)stride * (size_t)height);
  // CAIRO_FORMAT_ARGB32 (0): premultiplied, native-endian 32-bit words.
  void *surface = create_surface(rgba, 0, width, height, stride);
  void *cr = create(surface);
  if (status(cr) != 0) {
    destroy(cr);
    destroy_surface(surface);
    copy_error(error, error_size, "cairo could not make a surface", NULL);
    return -1;
  }
  scale(cr, scale_x, scale_y);
  mp_rectangle viewport = {0, 0, viewport_width, viewport_height};
  mp_gerror *gerror = NULL;
  int ok = render(handle, cr, &viewport, &gerror);
  destroy(cr);
  flush(surface);
  destroy_surface(surface);
  if (!ok) {
    copy_error(error, error_size, "librsvg could not render the document", gerror);
    free_error(gerror);
    return -1;
  }
  // Premultiplied BGRA words to straight RGBA bytes, in place.
  int opaque = 1;
  size_t count = (size_t)width * (size_t)height;
  for (size_t i = 0; i < count; i++) {
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

void mp_svg_free(void *handle) {
  unref_fn unref = MP_SYMBOL(unref_fn, "g_object_unref");
  if (handle != NULL && unref != NULL) unref(handle);
}
