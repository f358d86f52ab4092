#ifndef MP_PDF_LOADER_H
#define MP_PDF_LOADER_H

#include <stddef.h>
#include <stdint.h>

/// Opens poppler now if it is not open yet; whether it is open.
int mp_pdf_library_open(void);

/// Copies why poppler could not be opened ("" when it has not failed) into
/// `buffer` of `size` bytes, terminated.
void mp_pdf_library_error(char *buffer, size_t size);

/// Opens the PDF in `data` (copied) with poppler-glib and no password.
/// Returns an opaque document, or NULL with why in `error` and
/// `*encrypted` set when the reason is that it needs a password.
void *mp_pdf_open(const uint8_t *data, size_t size, int *encrypted, char *error, size_t error_size);

/// The number of pages.
int mp_pdf_page_count(void *document);

/// Page `index`'s size in points (1/72 inch), its /Rotate applied; 0 when
/// there is no such page.
int mp_pdf_page_size(void *document, int index, double *width, double *height);

/// Draws page `index` on white, scaled by `scale_x` and `scale_y` from
/// points, onto a `width` x `height` canvas of straight RGBA8 rows at
/// `rgba`. Returns 1 (opaque), or -1 with why in `error`.
int mp_pdf_render(void *document, int index, int width, int height, double scale_x, double scale_y, uint8_t *rgba,
                  char *error, size_t error_size);

/// Releases a document from mp_pdf_open.
void mp_pdf_close(void *document);

#endif
