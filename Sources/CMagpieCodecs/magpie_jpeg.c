// For madvise's MADV_HUGEPAGE under -std=c11.
#define _DEFAULT_SOURCE

#include "magpie_jpeg.h"
#include "magpie_jpeg_progressive.h"

#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <jpeglib.h>
#include <jerror.h>

// ---------------------------------------------------------------------------
// Error manager shared by the decoder and the encoder.

typedef struct {
  struct jpeg_error_mgr pub;
  jmp_buf jump;
  // Status to report for a failure raised by this file rather than libjpeg.
  mp_jpeg_status own_status;
  char message[MP_JPEG_MESSAGE_MAX];
  char first_warning[MP_JPEG_MESSAGE_MAX];
  unsigned warnings;
  int eof_seen;
  unsigned warnings_after_eof;
  // The entropy decoder needed more bits but met the EOI marker (real, or
  // the one libjpeg fakes at the end of the data).
  int ran_short_at_eoi;
} mp_error_mgr;

static void mp_copy_message(char *dst, const char *src) {
  snprintf(dst, MP_JPEG_MESSAGE_MAX, "%s", src);
}

static void mp_error_exit(j_common_ptr cinfo) {
  mp_error_mgr *err = (mp_error_mgr *)cinfo->err;
  if (err->own_status == MP_JPEG_OK) {
    char buffer[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, buffer);
    mp_copy_message(err->message, buffer);
  }
  longjmp(err->jump, 1);
}

// Counts warnings instead of printing them; libjpeg must never write to stderr.
static void mp_emit_message(j_common_ptr cinfo, int level) {
  mp_error_mgr *err = (mp_error_mgr *)cinfo->err;
  if (level >= 0) return;  // trace messages
  err->warnings++;
  err->pub.num_warnings++;
  if (err->pub.msg_code == JWRN_JPEG_EOF) {
    err->eof_seen = 1;
  } else if (err->eof_seen) {
    err->warnings_after_eof++;
  }
  if (err->pub.msg_code == JWRN_HIT_MARKER && cinfo->is_decompressor &&
      ((j_decompress_ptr)cinfo)->unread_marker == JPEG_EOI) {
    err->ran_short_at_eoi = 1;
  }
  if (err->warnings == 1) {
    char buffer[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, buffer);
    mp_copy_message(err->first_warning, buffer);
  }
}

static void mp_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void mp_error_init(mp_error_mgr *err) {
  jpeg_std_error(&err->pub);
  err->pub.error_exit = mp_error_exit;
  err->pub.emit_message = mp_emit_message;
  err->pub.output_message = mp_output_message;
  err->own_status = MP_JPEG_OK;
  err->message[0] = '\0';
  err->first_warning[0] = '\0';
  err->warnings = 0;
  err->eof_seen = 0;
  err->warnings_after_eof = 0;
  err->ran_short_at_eoi = 0;
}

// Fails with a message of our own; jumps like a libjpeg error.
_Noreturn static void mp_fail(j_common_ptr cinfo, mp_jpeg_status status, const char *message) {
  mp_error_mgr *err = (mp_error_mgr *)cinfo->err;
  err->own_status = status;
  mp_copy_message(err->message, message);
  longjmp(err->jump, 1);
}

// The status for the failure just caught.
static mp_jpeg_status mp_classify(const mp_error_mgr *err) {
  if (err->own_status != MP_JPEG_OK) return err->own_status;
  switch (err->pub.msg_code) {
    case JERR_OUT_OF_MEMORY:
    case JERR_NO_BACKING_STORE:
    case JERR_IMAGE_TOO_BIG:
    case JERR_WIDTH_OVERFLOW:
      return MP_JPEG_TOO_LARGE;
    case JERR_BAD_PRECISION:
    case JERR_CONVERSION_NOTIMPL:
    case JERR_NOT_COMPILED:
    case JERR_ARITH_NOTIMPL:
    case JERR_SOF_UNSUPPORTED:  // lossless and hierarchical JPEG
      return MP_JPEG_UNSUPPORTED;
    default:
      return err->eof_seen ? MP_JPEG_TRUNCATED : MP_JPEG_CORRUPT;
  }
}

// ---------------------------------------------------------------------------
// Decoder.

typedef enum {
  STAGE_CREATED,
  STAGE_HEADER,
  STAGE_OUTPUT_SET,
  STAGE_STARTED,
  STAGE_FINISHED,
  STAGE_FAILED,
} mp_stage;

struct mp_jpeg_decoder {
  struct jpeg_decompress_struct cinfo;
  mp_error_mgr err;
  struct jpeg_progress_mgr progress;
  mp_stage stage;
  // libjpeg writes CMYK; read_rows turns it into RGBA in place.
  int converts_cmyk;
  // Cached: jpeg_has_multiple_scans raises an error once decoding has ended.
  int has_multiple_scans;
  size_t max_memory;
  // The input with unneeded progressive scans left out, when
  // skip_unneeded_scans made one; libjpeg reads from it after the header.
  uint8_t *filtered;
  // The ICC profile jpeg_read_icc_profile assembled (malloc'd), or NULL.
  JOCTET *icc;
  // Asked by the progress monitor whether to stop (the time limit).
  mp_jpeg_stop_check stop_check;
  void *stop_context;
  // Which decoder start uses for the progressive images Magpie's own takes,
  // and the image it decoded (rows come from it instead of libjpeg), or
  // NULL.
  mp_jpeg_progressive_decoder progressive_decoder;
  mp_prog *prog;
};

// Stops files with absurd scan counts before they cost a pass each.
static void mp_progress_monitor(j_common_ptr cinfo) {
  j_decompress_ptr d = (j_decompress_ptr)cinfo;
  if (d->input_scan_number > MP_JPEG_MAX_SCANS) {
    char message[MP_JPEG_MESSAGE_MAX];
    snprintf(message, sizeof message, "the JPEG has more than %d scans", MP_JPEG_MAX_SCANS);
    mp_fail(cinfo, MP_JPEG_CORRUPT, message);
  }
  // cinfo is the decoder's first member.
  mp_jpeg_decoder *dec = (mp_jpeg_decoder *)d;
  if (dec->stop_check != NULL && dec->stop_check(dec->stop_context)) {
    mp_fail(cinfo, MP_JPEG_STOPPED, "the decode ran past its time limit");
  }
}

void mp_jpeg_decoder_set_stop_check(mp_jpeg_decoder *dec, mp_jpeg_stop_check check, void *context) {
  if (dec == NULL) return;
  dec->stop_check = check;
  dec->stop_context = context;
}

mp_jpeg_decoder *mp_jpeg_decoder_create(void) {
  // volatile: read again after a longjmp.
  mp_jpeg_decoder *volatile dec = calloc(1, sizeof *dec);
  if (dec == NULL) return NULL;
  dec->progressive_decoder = MP_JPEG_PROGRESSIVE_OWN;
  mp_error_init(&dec->err);
  dec->cinfo.err = &dec->err.pub;
  if (setjmp(dec->err.jump)) {
    // jpeg_create_decompress fails only when out of memory.
    jpeg_destroy_decompress(&dec->cinfo);
    free(dec);
    return NULL;
  }
  jpeg_create_decompress(&dec->cinfo);
  dec->progress.progress_monitor = mp_progress_monitor;
  dec->cinfo.progress = &dec->progress;
  dec->stage = STAGE_CREATED;
  return dec;
}

void mp_jpeg_decoder_destroy(mp_jpeg_decoder *dec) {
  if (dec == NULL) return;
  // jpeg_destroy never raises an error: it only frees pools.
  jpeg_destroy_decompress(&dec->cinfo);
#if MP_PROG_AVAILABLE
  mp_prog_destroy(dec->prog);
#endif
  free(dec->filtered);
  free(dec->icc);
  free(dec);
}

static mp_jpeg_status mp_misuse(mp_jpeg_decoder *dec, const char *message) {
  mp_copy_message(dec->err.message, message);
  return MP_JPEG_MISUSE;
}

static mp_jpeg_color_space mp_color_space(J_COLOR_SPACE space) {
  switch (space) {
    case JCS_GRAYSCALE: return MP_JPEG_COLOR_GRAY;
    case JCS_YCbCr: return MP_JPEG_COLOR_YCBCR;
    case JCS_RGB: return MP_JPEG_COLOR_RGB;
    case JCS_CMYK: return MP_JPEG_COLOR_CMYK;
    case JCS_YCCK: return MP_JPEG_COLOR_YCCK;
    default: return MP_JPEG_COLOR_UNKNOWN;
  }
}

mp_jpeg_status mp_jpeg_decoder_read_header(mp_jpeg_decoder *dec, const uint8_t *data, size_t size,
                                           mp_jpeg_header *header) {
  if (dec == NULL || data == NULL || header == NULL) return MP_JPEG_MISUSE;
  if (dec->stage != STAGE_CREATED) return mp_misuse(dec, "read_header called twice");
  j_decompress_ptr cinfo = &dec->cinfo;
  if (setjmp(dec->err.jump)) {
    dec->stage = STAGE_FAILED;
    return mp_classify(&dec->err);
  }
  jpeg_mem_src(cinfo, data, (unsigned long)size);
  jpeg_save_markers(cinfo, JPEG_APP0 + 1, 0xFFFF);
  jpeg_save_markers(cinfo, JPEG_APP0 + 2, 0xFFFF);
  jpeg_read_header(cinfo, TRUE);
  if (dec->err.eof_seen) {
    // The "header" was completed from libjpeg's fake EOI bytes: nothing in it
    // can be trusted.
    mp_fail((j_common_ptr)cinfo, MP_JPEG_TRUNCATED, "the data ends inside the JPEG header");
  }

  memset(header, 0, sizeof *header);
  header->width = cinfo->image_width;
  header->height = cinfo->image_height;
  header->components = cinfo->num_components;
  header->color_space = mp_color_space(cinfo->jpeg_color_space);
  header->is_progressive = cinfo->progressive_mode ? 1 : 0;
  dec->has_multiple_scans = jpeg_has_multiple_scans(cinfo) ? 1 : 0;
  header->has_multiple_scans = dec->has_multiple_scans;
  header->has_adobe_marker = cinfo->saw_Adobe_marker ? 1 : 0;
  header->adobe_transform = cinfo->Adobe_transform;
  for (int i = 0; i < cinfo->num_components && i < 4; i++) {
    header->h_samp[i] = (uint8_t)cinfo->comp_info[i].h_samp_factor;
    header->v_samp[i] = (uint8_t)cinfo->comp_info[i].v_samp_factor;
  }
  static const uint8_t exif_prefix[6] = {'E', 'x', 'i', 'f', 0, 0};
  for (jpeg_saved_marker_ptr m = cinfo->marker_list; m != NULL; m = m->next) {
    if (m->marker == JPEG_APP0 + 1 && m->data_length >= 6 && memcmp(m->data, exif_prefix, 6) == 0) {
      header->exif = m->data;
      header->exif_length = m->data_length;
      break;
    }
  }
  // Markers that do not fit together (a missing or repeated sequence
  // number) only warn and give no profile: the image decodes untagged.
  unsigned int icc_length = 0;
  if (jpeg_read_icc_profile(cinfo, &dec->icc, &icc_length) && dec->icc != NULL) {
    header->icc = dec->icc;
    header->icc_length = icc_length;
  }
  dec->stage = STAGE_HEADER;
  return MP_JPEG_OK;
}

mp_jpeg_status mp_jpeg_decoder_set_output(mp_jpeg_decoder *dec, unsigned scale_denom,
                                          mp_jpeg_output_format format, size_t max_memory,
                                          uint32_t *output_width, uint32_t *output_height) {
  if (dec == NULL || output_width == NULL || output_height == NULL) return MP_JPEG_MISUSE;
  if (dec->stage != STAGE_HEADER && dec->stage != STAGE_OUTPUT_SET) {
    return mp_misuse(dec, "set_output needs a header and must come before start");
  }
  if (scale_denom != 1 && scale_denom != 2 && scale_denom != 4 && scale_denom != 8) {
    return mp_misuse(dec, "the scale denominator must be 1, 2, 4 or 8");
  }
  if (format != MP_JPEG_OUTPUT_RGBA && format != MP_JPEG_OUTPUT_CMYK) return mp_misuse(dec, "unknown output format");
  j_decompress_ptr cinfo = &dec->cinfo;
  if (format == MP_JPEG_OUTPUT_CMYK && cinfo->jpeg_color_space != JCS_CMYK && cinfo->jpeg_color_space != JCS_YCCK) {
    return mp_misuse(dec, "CMYK output needs a CMYK or YCCK image");
  }
  if (setjmp(dec->err.jump)) {
    dec->stage = STAGE_FAILED;
    return mp_classify(&dec->err);
  }
  switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE:
    case JCS_YCbCr:
    case JCS_RGB:
      cinfo->out_color_space = JCS_EXT_RGBA;
      dec->converts_cmyk = 0;
      break;
    case JCS_CMYK:
    case JCS_YCCK:
      // libjpeg converts YCCK to CMYK but not to RGB; read_rows does the rest.
      cinfo->out_color_space = JCS_CMYK;
      dec->converts_cmyk = format == MP_JPEG_OUTPUT_RGBA;
      break;
    default: {
      char message[MP_JPEG_MESSAGE_MAX];
      snprintf(message, sizeof message, "JPEG with %d colour components in an unknown colour space",
               cinfo->num_components);
      mp_fail((j_common_ptr)cinfo, MP_JPEG_UNSUPPORTED, message);
    }
  }
  // tjbench's defaults, and what browsers use: accurate integer IDCT, smooth
  // chroma upsampling.
  cinfo->dct_method = JDCT_ISLOW;
  cinfo->do_fancy_upsampling = TRUE;
  cinfo->scale_num = 1;
  cinfo->scale_denom = scale_denom;
  if (max_memory > 0) {
    dec->max_memory = max_memory;
    cinfo->mem->max_memory_to_use = max_memory > (size_t)LONG_MAX ? LONG_MAX : (long)max_memory;
  }
  jpeg_calc_output_dimensions(cinfo);
  *output_width = cinfo->output_width;
  *output_height = cinfo->output_height;
  dec->stage = STAGE_OUTPUT_SET;
  return MP_JPEG_OK;
}

// ---------------------------------------------------------------------------
// Scan selection for scaled progressive decoding.

// Zigzag position of the coefficient in row `r`, column `c` of a block:
// progressive scans name coefficient bands by zigzag position.
static const uint8_t mp_zigzag[8][8] = {
    {0, 1, 5, 6, 14, 15, 27, 28},     {2, 4, 7, 13, 16, 26, 29, 42},    {3, 8, 12, 17, 25, 30, 41, 43},
    {9, 11, 18, 24, 31, 40, 44, 53},  {10, 19, 23, 32, 39, 45, 52, 54}, {20, 22, 33, 38, 46, 51, 55, 60},
    {21, 34, 37, 47, 50, 56, 59, 61}, {35, 36, 48, 49, 57, 58, 62, 63},
};

// Which rows (and, the same, columns) of a block's coefficients the IDCT
// that makes an s x s block reads. libjpeg-turbo's reduced IDCTs
// (jidctred.c, and its SIMD versions) are not the first s x s of the 8x8
// one: the 2x2 reads rows 0, 1, 3, 5 and 7, the 4x4 every row but 4. IJG
// libjpeg 7 and later scale by reading the first s x s only.
static void mp_idct_reads(int s, uint8_t reads[DCTSIZE]) {
  for (int i = 0; i < DCTSIZE; i++) {
#ifdef LIBJPEG_TURBO_VERSION
    switch (s) {
      case 1: reads[i] = i == 0; break;
      case 2: reads[i] = i == 0 || (i & 1); break;
      case 4: reads[i] = i != 4; break;
      default: reads[i] = 1; break;
    }
#else
    reads[i] = i < s;
#endif
  }
}

// Where the entropy-coded data starting at `p` ends: the 0xFF of the next
// marker that is not a restart marker (0xFF00 is a stuffed data byte).
static size_t mp_entropy_end(const uint8_t *data, size_t p, size_t size) {
  while (p < size) {
    const uint8_t *ff = memchr(data + p, 0xFF, size - p);
    if (ff == NULL) return size;
    p = (size_t)(ff - data);
    if (p + 1 >= size) return size;
    uint8_t m = data[p + 1];
    if (m == 0xFF) {
      p += 1;  // fill byte: the marker follows
    } else if (m == 0x00 || (m >= 0xD0 && m <= 0xD7)) {
      p += 2;
    } else {
      return p;
    }
  }
  return size;
}

// One scan after the first: where its SOS marker starts and its data ends,
// and what it codes.
typedef struct {
  size_t start, end;
  int components[MAX_COMPS_IN_SCAN];
  int count, ss, se, ah;
  int keep;
} mp_scan_record;

// Walks the segments after the first scan, recording every later scan.
// Stops at EOI or at anything unexpected (junk between segments, a cut-off
// segment, a malformed scan header): what follows is passed on as it is,
// for libjpeg to report. Returns the number of scans recorded, or -1 when
// there are more than `capacity`.
static int mp_find_scans(j_decompress_ptr cinfo, const uint8_t *data, size_t size, mp_scan_record *scans,
                         int capacity) {
  int found = 0;
  size_t p = mp_entropy_end(data, 0, size);
  while (p + 1 < size && data[p] == 0xFF) {
    uint8_t m = data[p + 1];
    if (m == 0xFF) {
      p += 1;
      continue;
    }
    if (m == 0xD9) break;                                                // EOI
    if (m == 0x01 || (m >= 0xD0 && m <= 0xD7)) {                         // no length
      p += 2;
      continue;
    }
    if (p + 4 > size) break;
    size_t length = (size_t)data[p + 2] << 8 | data[p + 3];
    if (length < 2 || p + 2 + length > size) break;
    size_t segment_end = p + 2 + length;
    if (m != 0xDA) {
      p = segment_end;
      continue;
    }
    const uint8_t *h = data + p + 4;
    int ns = h[0];
    if (ns < 1 || ns > MAX_COMPS_IN_SCAN || length != (size_t)(6 + 2 * ns)) break;
    if (found == capacity) return -1;
    mp_scan_record *scan = &scans[found++];
    scan->start = p;
    scan->end = mp_entropy_end(data, segment_end, size);
    scan->count = ns;
    for (int i = 0; i < ns; i++) {
      scan->components[i] = -1;
      for (int ci = 0; ci < cinfo->num_components; ci++) {
        if (cinfo->comp_info[ci].component_id == h[1 + 2 * i]) scan->components[i] = ci;
      }
    }
    scan->ss = h[1 + 2 * ns];
    scan->se = h[2 + 2 * ns];
    scan->ah = h[3 + 2 * ns] >> 4;
    scan->keep = 1;
    p = scan->end;
  }
  return found;
}

// Marks the scans to keep, last to first: a scan is kept when it codes a
// coefficient that is required, and a kept refinement scan (Ah > 0)
// requires every earlier scan of its band, since refining a coefficient
// depends on all that came before it. Returns how many are dropped.
static int mp_plan_scans(mp_scan_record *scans, int count, uint8_t required[MAX_COMPONENTS][DCTSIZE2]) {
  int dropped = 0;
  for (int i = count - 1; i >= 0; i--) {
    mp_scan_record *scan = &scans[i];
    int useful = 0;
    for (int j = 0; j < scan->count; j++) {
      int ci = scan->components[j];
      if (ci < 0 || scan->ss > scan->se || scan->se >= DCTSIZE2) {
        useful = 1;  // malformed: keep it for libjpeg to report
        continue;
      }
      for (int k = scan->ss; k <= scan->se; k++) useful |= required[ci][k];
    }
    scan->keep = useful;
    if (!useful) {
      dropped++;
      continue;
    }
    if (scan->ah == 0) continue;
    for (int j = 0; j < scan->count; j++) {
      int ci = scan->components[j];
      if (ci < 0 || scan->se >= DCTSIZE2) continue;
      for (int k = scan->ss; k <= scan->se; k++) required[ci][k] = 1;
    }
  }
  return dropped;
}

mp_jpeg_status mp_jpeg_decoder_skip_unneeded_scans(mp_jpeg_decoder *dec, int dc_only, unsigned *kept,
                                                   unsigned *dropped) {
  if (dec == NULL || kept == NULL || dropped == NULL) return MP_JPEG_MISUSE;
  *kept = 0;
  *dropped = 0;
  if (dec->stage != STAGE_OUTPUT_SET) return mp_misuse(dec, "skip_unneeded_scans goes between set_output and start");
  j_decompress_ptr cinfo = &dec->cinfo;
  if (!cinfo->progressive_mode || dec->filtered != NULL) return MP_JPEG_OK;
  if (cinfo->num_components < 1 || cinfo->num_components > MAX_COMPONENTS) return MP_JPEG_OK;

  // The coefficients the scaled IDCT reads: the first s x s of each block,
  // s being the component's scaled block size (set by set_output).
  uint8_t required[MAX_COMPONENTS][DCTSIZE2];
  memset(required, 0, sizeof required);
  int all_needed = 1;
  for (int ci = 0; ci < cinfo->num_components; ci++) {
#if JPEG_LIB_VERSION >= 70
    int s = cinfo->comp_info[ci].DCT_h_scaled_size;
    if (cinfo->comp_info[ci].DCT_v_scaled_size > s) s = cinfo->comp_info[ci].DCT_v_scaled_size;
#else
    int s = cinfo->comp_info[ci].DCT_scaled_size;
#endif
    if (dc_only || s < 1) s = 1;
    if (s > DCTSIZE) s = DCTSIZE;
    if (s < DCTSIZE) all_needed = 0;
    uint8_t reads[DCTSIZE];
    mp_idct_reads(s, reads);
    for (int r = 0; r < DCTSIZE; r++) {
      for (int c = 0; c < DCTSIZE; c++) required[ci][mp_zigzag[r][c]] = reads[r] && reads[c];
    }
  }
  if (all_needed) return MP_JPEG_OK;

  // libjpeg has read the header up to and including the first scan's SOS:
  // what is left starts with that scan's data, which is always kept (the
  // first scan of a progressive image carries DC coefficients, always
  // needed, and libjpeg has started it).
  struct jpeg_source_mgr *src = cinfo->src;
  const uint8_t *data = src->next_input_byte;
  size_t size = src->bytes_in_buffer;
  mp_scan_record *scans = malloc(sizeof(mp_scan_record) * MP_JPEG_MAX_SCANS);
  if (scans == NULL) {
    mp_copy_message(dec->err.message, "out of memory choosing JPEG scans");
    return MP_JPEG_TOO_LARGE;
  }
  // More scans than the decoder accepts: leave the input alone for the
  // progress monitor to refuse.
  int count = mp_find_scans(cinfo, data, size, scans, MP_JPEG_MAX_SCANS);
  int skipped = count > 0 ? mp_plan_scans(scans, count, required) : 0;
  if (skipped == 0) {
    free(scans);
    return MP_JPEG_OK;
  }
  uint8_t *out = malloc(size);
  if (out == NULL) {
    free(scans);
    mp_copy_message(dec->err.message, "out of memory choosing JPEG scans");
    return MP_JPEG_TOO_LARGE;
  }
  // The input less the dropped scans; everything between scans (tables,
  // restart settings, comments, EOI) stays.
  size_t n = 0, p = 0;
  for (int i = 0; i < count; i++) {
    if (scans[i].keep) continue;
    memcpy(out + n, data + p, scans[i].start - p);
    n += scans[i].start - p;
    p = scans[i].end;
  }
  memcpy(out + n, data + p, size - p);
  n += size - p;
  free(scans);
  // libjpeg's memory source keeps no other pointer into the buffer: from
  // here on it reads the filtered copy, which the decoder owns and frees.
  dec->filtered = out;
  src->next_input_byte = out;
  src->bytes_in_buffer = n;
  // Block smoothing guesses missing low-frequency AC coefficients from
  // neighbouring DCs, for partly loaded images. Here nothing the output
  // reads is missing (or, with dc_only, it is left out on purpose), and the
  // guesses measured slower and farther from the full decode.
  cinfo->do_block_smoothing = FALSE;
  *kept = (unsigned)(count - skipped + 1);
  *dropped = (unsigned)skipped;
  return MP_JPEG_OK;
}

mp_jpeg_status mp_jpeg_decoder_start(mp_jpeg_decoder *dec) {
  if (dec == NULL) return MP_JPEG_MISUSE;
  if (dec->stage != STAGE_OUTPUT_SET) return mp_misuse(dec, "start needs set_output first");
  j_decompress_ptr cinfo = &dec->cinfo;
  if (setjmp(dec->err.jump)) {
    dec->stage = STAGE_FAILED;
    if (dec->err.own_status == MP_JPEG_OK && dec->err.pub.msg_code == JERR_NO_BACKING_STORE) {
      // libjpeg's own words ("Backing store not supported") explain nothing.
      snprintf(dec->err.message, MP_JPEG_MESSAGE_MAX,
               "decoding this %ux%u multi-scan JPEG needs more than the %zu bytes of working memory allowed",
               cinfo->image_width, cinfo->image_height, dec->max_memory);
    }
    return mp_classify(&dec->err);
  }
#if MP_PROG_AVAILABLE
  if (dec->progressive_decoder != MP_JPEG_PROGRESSIVE_LIBJPEG) {
    // Reads the data after libjpeg's header without moving libjpeg's
    // source, so a decline leaves libjpeg exactly where it was.
    mp_prog_result own = mp_prog_decode(cinfo, cinfo->src->next_input_byte, cinfo->src->bytes_in_buffer,
                                        dec->max_memory, dec->stop_check, dec->stop_context,
                                        dec->progressive_decoder == MP_JPEG_PROGRESSIVE_OWN_PORTABLE, &dec->prog);
    // Within this setjmp: fails as libjpeg's progress monitor does.
    if (own == MP_PROG_STOPPED) mp_fail((j_common_ptr)cinfo, MP_JPEG_STOPPED, "the decode ran past its time limit");
    if (own == MP_PROG_DONE) {
      dec->stage = STAGE_STARTED;
      return MP_JPEG_OK;
    }
  }
#endif
  jpeg_start_decompress(cinfo);
  dec->stage = STAGE_STARTED;
  return MP_JPEG_OK;
}

void mp_jpeg_decoder_set_progressive_decoder(mp_jpeg_decoder *dec, mp_jpeg_progressive_decoder choice) {
  if (dec != NULL) dec->progressive_decoder = choice;
}

int mp_jpeg_decoder_used_own_progressive(const mp_jpeg_decoder *dec) { return dec != NULL && dec->prog != NULL; }

// Adobe-inverted CMYK (255 = no ink) to RGB the way Chrome and Firefox do
// without a colour profile: R = C * K / 255, and so on, rounded.
static void mp_cmyk_to_rgba(uint8_t *row, JDIMENSION width) {
  for (JDIMENSION x = 0; x < width; x++) {
    uint8_t *p = row + (size_t)x * 4;
    unsigned k = p[3];
    for (int c = 0; c < 3; c++) {
      unsigned t = p[c] * k + 128;
      p[c] = (uint8_t)((t + (t >> 8)) >> 8);
    }
    p[3] = 255;
  }
}

mp_jpeg_status mp_jpeg_decoder_read_rows(mp_jpeg_decoder *dec, uint8_t *rows, size_t stride, uint32_t max_rows,
                                         uint32_t *rows_written) {
  if (dec == NULL || rows == NULL || rows_written == NULL) return MP_JPEG_MISUSE;
  *rows_written = 0;
  if (dec->stage != STAGE_STARTED) return mp_misuse(dec, "read_rows needs start first");
  j_decompress_ptr cinfo = &dec->cinfo;
  if (stride < (size_t)cinfo->output_width * 4) return mp_misuse(dec, "the row stride is shorter than a row");
  if (setjmp(dec->err.jump)) {
    dec->stage = STAGE_FAILED;
    return mp_classify(&dec->err);
  }
#if MP_PROG_AVAILABLE
  if (dec->prog != NULL) {
    *rows_written = mp_prog_read_rows(dec->prog, rows, stride, max_rows);
    return MP_JPEG_OK;
  }
#endif
  // Hand libjpeg many rows per call: it fills up to a whole iMCU row at once.
  enum { BATCH = 64 };
  JSAMPROW pointers[BATCH];
  uint32_t done = 0;
  while (done < max_rows && cinfo->output_scanline < cinfo->output_height) {
    uint32_t want = max_rows - done;
    if (want > BATCH) want = BATCH;
    for (uint32_t i = 0; i < want; i++) pointers[i] = rows + (size_t)(done + i) * stride;
    JDIMENSION got = jpeg_read_scanlines(cinfo, pointers, want);
    if (dec->converts_cmyk) {
      for (JDIMENSION i = 0; i < got; i++) mp_cmyk_to_rgba(pointers[i], cinfo->output_width);
    }
    done += got;
    *rows_written = done;
    if (got == 0) break;  // cannot happen with an in-memory source; never spin
  }
  return MP_JPEG_OK;
}

mp_jpeg_status mp_jpeg_decoder_finish(mp_jpeg_decoder *dec) {
  if (dec == NULL) return MP_JPEG_MISUSE;
  if (dec->stage == STAGE_FINISHED) return MP_JPEG_OK;
  j_decompress_ptr cinfo = &dec->cinfo;
  if (setjmp(dec->err.jump)) {
    dec->stage = STAGE_FAILED;
    jpeg_abort_decompress(cinfo);
    return mp_classify(&dec->err);
  }
  if (dec->prog != NULL) {
    // libjpeg never started: the image came from Magpie's own decoder.
    jpeg_abort_decompress(cinfo);
  } else if (dec->stage == STAGE_STARTED && cinfo->output_scanline >= cinfo->output_height) {
    jpeg_finish_decompress(cinfo);
  } else {
    jpeg_abort_decompress(cinfo);
  }
  dec->stage = STAGE_FINISHED;
  return MP_JPEG_OK;
}

void mp_jpeg_advise_output_buffer(void *start, size_t length) {
#ifdef MADV_HUGEPAGE
  const uintptr_t huge = (uintptr_t)2 << 20;
  if (start == NULL || length < 2 * huge) return;
  uintptr_t first = ((uintptr_t)start + huge - 1) & ~(huge - 1);
  uintptr_t end = ((uintptr_t)start + length) & ~(huge - 1);
  // Only whole huge pages inside the buffer; a failure just leaves 4 KiB pages.
  if (end > first) (void)madvise((void *)first, end - first, MADV_HUGEPAGE);
#else
  (void)start;
  (void)length;
#endif
}

const char *mp_jpeg_decoder_message(const mp_jpeg_decoder *dec) { return dec ? dec->err.message : ""; }

const char *mp_jpeg_decoder_first_warning(const mp_jpeg_decoder *dec) {
  return dec ? dec->err.first_warning : "";
}

unsigned mp_jpeg_decoder_warning_count(const mp_jpeg_decoder *dec) { return dec ? dec->err.warnings : 0; }

int mp_jpeg_decoder_data_ended_early(const mp_jpeg_decoder *dec) { return dec ? dec->err.eof_seen : 0; }

int mp_jpeg_decoder_is_incomplete(const mp_jpeg_decoder *dec) {
  if (dec == NULL) return 0;
  // Scan data that stops at EOI before the image is full: cut-off data (after
  // the end libjpeg feeds an EOI marker) or a frame header that overstates
  // the size. Stopping short at a restart marker is corruption instead:
  // libjpeg resynchronises and goes on.
  if (dec->err.ran_short_at_eoi) return 1;
  if (!dec->err.eof_seen) return 0;
  // Any other complaint once the data has ended (a missing restart marker).
  if (dec->err.warnings_after_eof > 0) return 1;
  // A multi-scan image may have had more scans coming; there is no telling.
  return dec->has_multiple_scans;
}

// ---------------------------------------------------------------------------
// Encoder.

typedef struct {
  struct jpeg_compress_struct cinfo;
  mp_error_mgr err;
  unsigned char *buffer;
  unsigned long size;
  // Set once jpeg_mem_dest has returned, so its buffer fields are valid.
  int has_destination;
} mp_encoder;

static J_COLOR_SPACE mp_jcs(mp_jpeg_color_space space) {
  switch (space) {
    case MP_JPEG_COLOR_GRAY: return JCS_GRAYSCALE;
    case MP_JPEG_COLOR_YCBCR: return JCS_YCbCr;
    case MP_JPEG_COLOR_RGB: return JCS_RGB;
    case MP_JPEG_COLOR_CMYK: return JCS_CMYK;
    case MP_JPEG_COLOR_YCCK: return JCS_YCCK;
    default: return JCS_UNKNOWN;
  }
}

static void mp_encode_body(mp_encoder *enc, const mp_jpeg_encode_params *p) {
  j_compress_ptr cinfo = &enc->cinfo;
  jpeg_mem_dest(cinfo, &enc->buffer, &enc->size);
  enc->has_destination = 1;
  cinfo->image_width = p->width;
  cinfo->image_height = p->height;
  switch (p->input_format) {
    case MP_JPEG_INPUT_RGBA:
      cinfo->in_color_space = JCS_EXT_RGBA;
      cinfo->input_components = 4;
      break;
    case MP_JPEG_INPUT_RGB:
      cinfo->in_color_space = JCS_RGB;
      cinfo->input_components = 3;
      break;
    case MP_JPEG_INPUT_GRAY:
      cinfo->in_color_space = JCS_GRAYSCALE;
      cinfo->input_components = 1;
      break;
    case MP_JPEG_INPUT_CMYK:
      cinfo->in_color_space = JCS_CMYK;
      cinfo->input_components = 4;
      break;
    default:
      mp_fail((j_common_ptr)cinfo, MP_JPEG_MISUSE, "unknown input format");
  }
  jpeg_set_defaults(cinfo);
  if (p->color_space != MP_JPEG_COLOR_UNKNOWN) jpeg_set_colorspace(cinfo, mp_jcs(p->color_space));
  jpeg_set_quality(cinfo, p->quality, TRUE);
  for (int i = 0; i < cinfo->num_components && i < 4; i++) {
    if (p->h_samp[i] != 0) cinfo->comp_info[i].h_samp_factor = p->h_samp[i];
    if (p->v_samp[i] != 0) cinfo->comp_info[i].v_samp_factor = p->v_samp[i];
  }
  cinfo->optimize_coding = p->optimize_coding ? TRUE : FALSE;
  cinfo->restart_interval = p->restart_interval;
  cinfo->restart_in_rows = (int)p->restart_in_rows;
  if (p->progressive) jpeg_simple_progression(cinfo);

  jpeg_start_compress(cinfo, TRUE);
  if (p->exif != NULL && p->exif_length > 0) {
    jpeg_write_marker(cinfo, JPEG_APP0 + 1, p->exif, (unsigned)p->exif_length);
  }
  uint32_t cycle = p->source_rows == 0 ? p->height : p->source_rows;
  enum { BATCH = 64 };
  JSAMPROW pointers[BATCH];
  while (cinfo->next_scanline < cinfo->image_height) {
    uint32_t want = cinfo->image_height - cinfo->next_scanline;
    if (want > BATCH) want = BATCH;
    for (uint32_t i = 0; i < want; i++) {
      size_t row = (cinfo->next_scanline + i) % cycle;
      // libjpeg's API takes non-const rows but only reads them.
      pointers[i] = (JSAMPROW)(uintptr_t)(p->pixels + row * p->stride);
    }
    jpeg_write_scanlines(cinfo, pointers, want);
  }
  jpeg_finish_compress(cinfo);
}

mp_jpeg_status mp_jpeg_encode(const mp_jpeg_encode_params *p, mp_jpeg_encode_result *result) {
  if (result == NULL) return MP_JPEG_MISUSE;
  result->data = NULL;
  result->size = 0;
  result->message[0] = '\0';
  if (p == NULL || p->pixels == NULL || p->width == 0 || p->height == 0) {
    mp_copy_message(result->message, "nothing to encode: no pixels or an empty size");
    return MP_JPEG_MISUSE;
  }
  if (p->quality < 0 || p->quality > 100) {
    mp_copy_message(result->message, "quality must be 0-100");
    return MP_JPEG_MISUSE;
  }
  mp_encoder *enc = calloc(1, sizeof *enc);
  if (enc == NULL) {
    mp_copy_message(result->message, "out of memory");
    return MP_JPEG_TOO_LARGE;
  }
  mp_error_init(&enc->err);
  enc->cinfo.err = &enc->err.pub;
  if (setjmp(enc->err.jump)) {
    mp_jpeg_status status = enc->err.own_status != MP_JPEG_OK ? enc->err.own_status : MP_JPEG_CORRUPT;
    mp_copy_message(result->message, enc->err.message);
    // jpeg_mem_dest publishes its current buffer only from term_destination;
    // call it so the buffer can be freed.
    if (enc->has_destination) (*enc->cinfo.dest->term_destination)(&enc->cinfo);
    free(enc->buffer);
    jpeg_destroy_compress(&enc->cinfo);
    free(enc);
    return status;
  }
  jpeg_create_compress(&enc->cinfo);
  mp_encode_body(enc, p);
  result->data = enc->buffer;
  result->size = enc->size;
  jpeg_destroy_compress(&enc->cinfo);
  free(enc);
  return MP_JPEG_OK;
}

void mp_jpeg_free(void *pointer) { free(pointer); }
