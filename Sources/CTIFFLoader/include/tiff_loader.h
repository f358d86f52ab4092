#ifndef MP_TIFF_LOADER_H
#define MP_TIFF_LOADER_H

#include <stddef.h>
#include <stdint.h>
#include <tiffio.h>

/// Opens libtiff now if it is not open yet; whether it is open. The
/// forwarding functions open it on their first call anyway; this is for
/// saying why it is missing (mp_tiff_library_error).
int mp_tiff_library_open(void);

/// Copies why libtiff could not be opened ("" when it has not failed) into
/// `buffer` of `size` bytes, terminated.
void mp_tiff_library_error(char *buffer, size_t size);

/// A TIFF read from bytes in memory (never a file), with the first error
/// libtiff reported on it. The bytes must stay valid until
/// mp_tiff_memory_close.
typedef struct mp_tiff_memory {
  /// The libtiff handle; NULL when opening failed.
  TIFF *tiff;
  const unsigned char *bytes;
  uint64_t size;
  uint64_t position;
  /// How many errors libtiff reported through this handle.
  int error_count;
  /// The first of them, formatted ("" when none).
  char error[512];
} mp_tiff_memory;

/// Opens `size` bytes at `bytes` for reading. libtiff's warnings are
/// dropped and its errors recorded in the result (per handle: the global
/// handlers are left alone); no single allocation libtiff makes may exceed
/// `max_single_allocation` bytes. StripOffsets and StripByteCounts are
/// read on demand, so a directory declaring millions of strips costs
/// nothing until they are used. NULL only when out of memory; otherwise
/// check `tiff`, and close it either way.
mp_tiff_memory *mp_tiff_memory_open(const void *bytes, size_t size, int64_t max_single_allocation);

/// Closes the handle (if open) and frees `memory`.
void mp_tiff_memory_close(mp_tiff_memory *memory);

/// TIFFGetField for a tag with one 16-bit value; whether it is set.
int mp_tiff_get_u16(TIFF *tiff, uint32_t tag, uint16_t *value);
/// TIFFGetField for a tag with one 32-bit value; whether it is set.
int mp_tiff_get_u32(TIFF *tiff, uint32_t tag, uint32_t *value);
/// TIFFGetFieldDefaulted for a tag with one 16-bit value.
int mp_tiff_get_u16_defaulted(TIFF *tiff, uint32_t tag, uint16_t *value);
/// TIFFGetFieldDefaulted for a tag with one 32-bit value.
int mp_tiff_get_u32_defaulted(TIFF *tiff, uint32_t tag, uint32_t *value);
/// The ICC profile's bytes (owned by libtiff, valid until the directory
/// changes); whether there is one.
int mp_tiff_get_icc(TIFF *tiff, uint32_t *count, const void **bytes);
/// The SubIFD offsets (owned by libtiff); whether there are any.
int mp_tiff_get_subifds(TIFF *tiff, uint16_t *count, const uint64_t **offsets);
/// The ExtraSamples types (owned by libtiff); whether the tag is set.
int mp_tiff_get_extra_samples(TIFF *tiff, uint16_t *count, const uint16_t **types);
/// Sets ExtraSamples in the directory read into memory (nothing is
/// written: the handle is read-only); whether libtiff took it.
int mp_tiff_set_extra_samples(TIFF *tiff, uint16_t count, const uint16_t *types);

#endif
