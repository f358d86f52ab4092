#include "tiff_loader.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

// libtiff reads through these procs from the caller's bytes: no file, no
// copy of the whole input. Writing is refused (the handle is read-only).

static tmsize_t mp_tiff_read(thandle_t handle, void *buffer, tmsize_t size) {
  mp_tiff_memory *memory = handle;
  if (size <= 0 || memory->position >= memory->size) return 0;
  uint64_t left = memory->size - memory->position;
  uint64_t count = (uint64_t)size < left ? (uint64_t)size : left;
  memcpy(buffer, memory->bytes + memory->position, (size_t)count);
  memory->position += count;
  return (tmsize_t)count;
}

static tmsize_t mp_tiff_write(thandle_t handle, void *buffer, tmsize_t size) {
  (void)handle, (void)buffer, (void)size;
  return -1;
}

static toff_t mp_tiff_seek(thandle_t handle, toff_t offset, int whence) {
  mp_tiff_memory *memory = handle;
  uint64_t base = whence == SEEK_CUR ? memory->position : whence == SEEK_END ? memory->size : 0;
  // An offset past the end is allowed (reads there return nothing), as
  // lseek allows it; one that wraps around is not.
  if (offset > UINT64_MAX - base) return (toff_t)-1;
  memory->position = base + offset;
  return memory->position;
}

static int mp_tiff_close_proc(thandle_t handle) {
  (void)handle;
  return 0;
}

static toff_t mp_tiff_size(thandle_t handle) { return ((mp_tiff_memory *)handle)->size; }

// No mapping: libtiff then copies each strip it reads into its own buffer
// and never writes through a pointer into the caller's (immutable) bytes.
static int mp_tiff_map(thandle_t handle, void **base, toff_t *size) {
  (void)handle, (void)base, (void)size;
  return 0;
}

static void mp_tiff_unmap(thandle_t handle, void *base, toff_t size) { (void)handle, (void)base, (void)size; }

// The per-handle error handler: keeps the first message (usually the
// cause; later ones tend to be its consequences) and stops libtiff from
// calling the global handler, which prints to stderr.
static int mp_tiff_on_error(TIFF *tiff, void *user, const char *module, const char *format, va_list args) {
  (void)tiff, (void)module;
  mp_tiff_memory *memory = user;
  if (memory->error_count++ == 0) vsnprintf(memory->error, sizeof memory->error, format, args);
  return 1;
}

// Warnings (unknown tags, odd but readable values) are not failures.
static int mp_tiff_on_warning(TIFF *tiff, void *user, const char *module, const char *format, va_list args) {
  (void)tiff, (void)user, (void)module, (void)format, (void)args;
  return 1;
}

mp_tiff_memory *mp_tiff_memory_open(const void *bytes, size_t size, int64_t max_single_allocation) {
  mp_tiff_memory *memory = calloc(1, sizeof *memory);
  if (memory == NULL) return NULL;
  memory->bytes = bytes;
  memory->size = size;
  TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
  if (options == NULL) {
    snprintf(memory->error, sizeof memory->error, "libtiff could not allocate its open options");
    memory->error_count = 1;
    return memory;
  }
  TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)max_single_allocation);
  TIFFOpenOptionsSetErrorHandlerExtR(options, mp_tiff_on_error, memory);
  TIFFOpenOptionsSetWarningHandlerExtR(options, mp_tiff_on_warning, memory);
  // "r": read; "O": StripOffsets/StripByteCounts loaded one entry at a
  // time when used, not whole arrays when the directory is read.
  memory->tiff = TIFFClientOpenExt("magpie", "rO", memory, mp_tiff_read, mp_tiff_write, mp_tiff_seek,
                                   mp_tiff_close_proc, mp_tiff_size, mp_tiff_map, mp_tiff_unmap, options);
  TIFFOpenOptionsFree(options);
  return memory;
}

void mp_tiff_memory_close(mp_tiff_memory *memory) {
  if (memory == NULL) return;
  if (memory->tiff != NULL) TIFFClose(memory->tiff);
  free(memory);
}

// Swift cannot call C variadic functions: these pass the one pointer
// each tag needs through TIFFVGetField and friends.

static int mp_tiff_get(TIFF *tiff, uint32_t tag, ...) {
  va_list args;
  va_start(args, tag);
  int found = TIFFVGetField(tiff, tag, args);
  va_end(args);
  return found;
}

static int mp_tiff_get_defaulted(TIFF *tiff, uint32_t tag, ...) {
  va_list args;
  va_start(args, tag);
  int found = TIFFVGetFieldDefaulted(tiff, tag, args);
  va_end(args);
  return found;
}

static int mp_tiff_set(TIFF *tiff, uint32_t tag, ...) {
  va_list args;
  va_start(args, tag);
  int taken = TIFFVSetField(tiff, tag, args);
  va_end(args);
  return taken;
}

int mp_tiff_get_u16(TIFF *tiff, uint32_t tag, uint16_t *value) { return mp_tiff_get(tiff, tag, value); }

int mp_tiff_get_u32(TIFF *tiff, uint32_t tag, uint32_t *value) { return mp_tiff_get(tiff, tag, value); }

int mp_tiff_get_u16_defaulted(TIFF *tiff, uint32_t tag, uint16_t *value) {
  return mp_tiff_get_defaulted(tiff, tag, value);
}

int mp_tiff_get_u32_defaulted(TIFF *tiff, uint32_t tag, uint32_t *value) {
  return mp_tiff_get_defaulted(tiff, tag, value);
}

int mp_tiff_get_icc(TIFF *tiff, uint32_t *count, const void **bytes) {
  return mp_tiff_get(tiff, TIFFTAG_ICCPROFILE, count, bytes);
}

int mp_tiff_get_subifds(TIFF *tiff, uint16_t *count, const uint64_t **offsets) {
  return mp_tiff_get(tiff, TIFFTAG_SUBIFD, count, offsets);
}

int mp_tiff_get_extra_samples(TIFF *tiff, uint16_t *count, const uint16_t **types) {
  return mp_tiff_get(tiff, TIFFTAG_EXTRASAMPLES, count, types);
}

int mp_tiff_set_extra_samples(TIFF *tiff, uint16_t count, const uint16_t *types) {
  // TIFFTAG_EXTRASAMPLES takes its count as an int through the varargs.
  return mp_tiff_set(tiff, TIFFTAG_EXTRASAMPLES, (int)count, types);
}
