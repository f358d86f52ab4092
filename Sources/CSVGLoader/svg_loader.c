#include "svg_loader.h"

#include <stdio.h>
#include <string.h>

#include "magpie_cairo.h"
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
  render_document_fn render = MP_SYMBOL(render_document_fn, "rsvg_handle_render_document");
  if (render == NULL) {
    copy_error(error, error_size, NULL, NULL);
    return -1;
  }
  mp_cairo_canvas canvas;
  if (mp_cairo_canvas_open(&canvas, &mp_svg_library, rgba, width, height, scale_x, scale_y, 0, error, error_size) != 0) {
    return -1;
  }
  mp_rectangle viewport = {0, 0, viewport_width, viewport_height};
  mp_gerror *gerror = NULL;
  int ok = render(handle, canvas.context, &viewport, &gerror);
  int opaque = mp_cairo_canvas_close(&canvas, rgba, ok ? (size_t)width * (size_t)height : 0);
  if (!ok) {
    copy_error(error, error_size, "librsvg could not render the document", gerror);
    free_error(gerror);
    return -1;
  }
  return opaque;
}

void mp_svg_free(void *handle) {
  unref_fn unref = MP_SYMBOL(unref_fn, "g_object_unref");
  if (handle != NULL && unref != NULL) unref(handle);
}
