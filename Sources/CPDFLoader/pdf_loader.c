#include "pdf_loader.h"

#include <pthread.h>
#include <stdio.h>

#include "magpie_cairo.h"
#include "magpie_lazy.h"

// poppler-glib (and the cairo and GLib it links) opened on first use (see
// magpie_lazy.h). Its headers need GLib's and cairo's include folders,
// which only pkg-config gives, with flags SwiftPM refuses; the few
// functions used are declared here and resolved by name, so nothing in a
// process that links GTK's cairo or GLib is interposed.

#ifndef MP_PDF_SONAME
#define MP_PDF_SONAME "libpoppler-glib.so"
#endif

MP_LAZY_LIBRARY_DEFINE(mp_pdf, MP_PDF_SONAME, "libpoppler-glib.so.8")

typedef struct { uint32_t domain; int code; char *message; } mp_gerror;

typedef void *(*bytes_new_fn)(const void *, size_t);
typedef void *(*document_new_fn)(void *, const char *, mp_gerror **);
typedef int (*page_count_fn)(void *);
typedef void *(*get_page_fn)(void *, int);
typedef void (*page_size_fn)(void *, double *, double *);
typedef void (*page_render_fn)(void *, void *);
typedef void (*unref_fn)(void *);
typedef void (*error_free_fn)(mp_gerror *);
typedef uint32_t (*quark_fn)(void);

#define MP_SYMBOL(type, name) ((type)mp_lazy_symbol(&mp_pdf_library, name))

// POPPLER_ERROR_ENCRYPTED in PopplerError.
enum { mp_poppler_error_encrypted = 1 };

// poppler sets up its global parameters on the first document, unguarded.
static pthread_mutex_t mp_pdf_open_lock = PTHREAD_MUTEX_INITIALIZER;

void *mp_pdf_open(const uint8_t *data, size_t size, int *encrypted, char *error, size_t error_size) {
  *encrypted = 0;
  bytes_new_fn bytes_new = MP_SYMBOL(bytes_new_fn, "g_bytes_new");
  unref_fn bytes_unref = MP_SYMBOL(unref_fn, "g_bytes_unref");
  document_new_fn document_new = MP_SYMBOL(document_new_fn, "poppler_document_new_from_bytes");
  error_free_fn error_free = MP_SYMBOL(error_free_fn, "g_error_free");
  quark_fn poppler_quark = MP_SYMBOL(quark_fn, "poppler_error_quark");
  if (!bytes_new || !bytes_unref || !document_new || !error_free || !poppler_quark) {
    mp_pdf_library_error(error, error_size);
    return NULL;
  }
  void *bytes = bytes_new(data, size);
  mp_gerror *gerror = NULL;
  pthread_mutex_lock(&mp_pdf_open_lock);
  void *document = document_new(bytes, NULL, &gerror);
  pthread_mutex_unlock(&mp_pdf_open_lock);
  bytes_unref(bytes);
  if (document == NULL) {
    *encrypted = gerror != NULL && gerror->domain == poppler_quark() && gerror->code == mp_poppler_error_encrypted;
    snprintf(error, error_size, "%s", gerror && gerror->message ? gerror->message : "poppler could not open it");
    if (gerror) error_free(gerror);
  }
  return document;
}

int mp_pdf_page_count(void *document) {
  page_count_fn count = MP_SYMBOL(page_count_fn, "poppler_document_get_n_pages");
  return count ? count(document) : 0;
}

/// Page `index` (a new reference), or NULL.
static void *page_at(void *document, int index) {
  get_page_fn get_page = MP_SYMBOL(get_page_fn, "poppler_document_get_page");
  if (get_page == NULL || index < 0 || index >= mp_pdf_page_count(document)) return NULL;
  return get_page(document, index);
}

int mp_pdf_page_size(void *document, int index, double *width, double *height) {
  page_size_fn size = MP_SYMBOL(page_size_fn, "poppler_page_get_size");
  unref_fn unref = MP_SYMBOL(unref_fn, "g_object_unref");
  void *page = page_at(document, index);
  if (page == NULL || size == NULL || unref == NULL) return 0;
  size(page, width, height);
  unref(page);
  return 1;
}

int mp_pdf_render(void *document, int index, int width, int height, double scale_x, double scale_y, uint8_t *rgba,
                  char *error, size_t error_size) {
  page_render_fn render = MP_SYMBOL(page_render_fn, "poppler_page_render");
  unref_fn unref = MP_SYMBOL(unref_fn, "g_object_unref");
  void *page = page_at(document, index);
  if (page == NULL || render == NULL || unref == NULL) {
    snprintf(error, error_size, "page %d cannot be drawn", index + 1);
    return -1;
  }
  mp_cairo_canvas canvas;
  if (mp_cairo_canvas_open(&canvas, &mp_pdf_library, rgba, width, height, scale_x, scale_y, 1, error, error_size) != 0) {
    unref(page);
    return -1;
  }
  render(page, canvas.context);
  unref(page);
  return mp_cairo_canvas_close(&canvas, rgba, (size_t)width * (size_t)height);
}

void mp_pdf_close(void *document) {
  unref_fn unref = MP_SYMBOL(unref_fn, "g_object_unref");
  if (document != NULL && unref != NULL) unref(document);
}
