#include "magpie_test_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

typedef struct {
  struct jpeg_error_mgr pub;
  jmp_buf jump;
  char *message;
} test_error;

static void on_error(j_common_ptr cinfo) {
  test_error *err = (test_error *)(void *)cinfo->err;
  (*cinfo->err->format_message)(cinfo, err->message);
  longjmp(err->jump, 1);
}

// A small deterministic generator (xorshift32), so a seed makes one file.
static uint32_t next_random(uint32_t *state) {
  uint32_t x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *state = x;
}

static int random_in(uint32_t *state, int low, int high) {
  return low + (int)(next_random(state) % (uint32_t)(high - low + 1));
}

static jpeg_scan_info scan(int count, int c0, int c1, int c2, int ss, int se, int ah, int al) {
  jpeg_scan_info s = {count, {c0, c1, c2, 0}, ss, se, ah, al};
  return s;
}

// Fills `scans` with `script` for `n` components; returns how many.
static int make_script(mp_test_script script, int n, jpeg_scan_info *scans) {
  int count = 0;
  int cb = n == 3 ? 1 : 0, cr = n == 3 ? 2 : 0;
  switch (script) {
    case MP_TEST_SCRIPT_DEEP_REFINEMENT:
      scans[count++] = scan(n, 0, cb, cr, 0, 0, 0, 2);
      scans[count++] = scan(1, 0, 0, 0, 1, 63, 0, 3);
      for (int c = 1; c < n; c++) scans[count++] = scan(1, c, 0, 0, 1, 63, 0, 2);
      for (int al = 2; al >= 0; al--) scans[count++] = scan(1, 0, 0, 0, 1, 63, al + 1, al);
      for (int al = 1; al >= 0; al--) {
        scans[count++] = scan(n, 0, cb, cr, 0, 0, al + 1, al);
        for (int c = 1; c < n; c++) scans[count++] = scan(1, c, 0, 0, 1, 63, al + 1, al);
      }
      break;
    case MP_TEST_SCRIPT_BANDS: {
      for (int c = 0; c < n; c++) scans[count++] = scan(1, c, 0, 0, 0, 0, 0, 0);
      static const int bands[5] = {1, 3, 10, 21, 64};
      for (int b = 0; b < 4; b++) scans[count++] = scan(1, 0, 0, 0, bands[b], bands[b + 1] - 1, 0, 0);
      for (int c = 1; c < n; c++) {
        scans[count++] = scan(1, c, 0, 0, 1, 9, 0, 0);
        scans[count++] = scan(1, c, 0, 0, 10, 63, 0, 0);
      }
      break;
    }
    case MP_TEST_SCRIPT_SPLIT_DC:
      if (n == 3) {
        scans[count++] = scan(2, 0, 1, 0, 0, 0, 0, 0);
        scans[count++] = scan(1, 2, 0, 0, 0, 0, 0, 0);
      } else {
        scans[count++] = scan(1, 0, 0, 0, 0, 0, 0, 0);
      }
      for (int c = n - 1; c >= 0; c--) scans[count++] = scan(1, c, 0, 0, 1, 63, 0, 1);
      for (int c = 0; c < n; c++) scans[count++] = scan(1, c, 0, 0, 1, 63, 1, 0);
      break;
    default:
      break;
  }
  return count;
}

// Random coefficients for every block of every component.
static void write_random_coefficients(j_compress_ptr cinfo, const mp_test_jpeg *spec) {
  // From libjpeg's pool: jpeg_write_coefficients keeps the pointer until
  // jpeg_finish_compress.
  jvirt_barray_ptr *arrays = (*cinfo->mem->alloc_small)((j_common_ptr)cinfo, JPOOL_IMAGE, 3 * sizeof(jvirt_barray_ptr));
  int max_h = spec->h_samp, max_v = spec->v_samp;
  JDIMENSION mcu_w = (spec->width + 8 * (JDIMENSION)max_h - 1) / (8 * (JDIMENSION)max_h);
  JDIMENSION mcu_h = (spec->height + 8 * (JDIMENSION)max_v - 1) / (8 * (JDIMENSION)max_v);
  for (int c = 0; c < spec->components; c++) {
    jpeg_component_info *info = &cinfo->comp_info[c];
    arrays[c] = (*cinfo->mem->request_virt_barray)((j_common_ptr)cinfo, JPOOL_IMAGE, TRUE,
                                                   mcu_w * (JDIMENSION)info->h_samp_factor,
                                                   mcu_h * (JDIMENSION)info->v_samp_factor,
                                                   (JDIMENSION)info->v_samp_factor);
  }
  jpeg_write_coefficients(cinfo, arrays);
  uint32_t state = spec->seed | 1;
  for (int c = 0; c < spec->components; c++) {
    jpeg_component_info *info = &cinfo->comp_info[c];
    JDIMENSION rows = mcu_h * (JDIMENSION)info->v_samp_factor, cols = mcu_w * (JDIMENSION)info->h_samp_factor;
    for (JDIMENSION y = 0; y < rows; y++) {
      JBLOCKARRAY row = (*cinfo->mem->access_virt_barray)((j_common_ptr)cinfo, arrays[c], y, 1, TRUE);
      for (JDIMENSION x = 0; x < cols; x++) {
        JCOEF *block = row[0][x];
        // DC within what 8-bit Huffman coding carries, AC within 10 bits.
        block[0] = (JCOEF)random_in(&state, -1023, 1023);
        for (int k = 1; k < DCTSIZE2; k++) {
          int draw = random_in(&state, 0, 99), v;
          if (!spec->wild) {
            v = draw < 70 ? 0 : random_in(&state, -12, 12);
          } else {
            v = draw < 45 ? 0 : draw < 80 ? random_in(&state, -100, 100) : random_in(&state, -1023, 1023);
          }
          block[k] = (JCOEF)v;
        }
      }
    }
  }
}

uint8_t *mp_test_jpeg_encode(const mp_test_jpeg *spec, size_t *size, char *message) {
  struct jpeg_compress_struct cinfo;
  test_error err;
  unsigned char *out = NULL;
  unsigned long out_size = 0;
  cinfo.err = jpeg_std_error(&err.pub);
  err.pub.error_exit = on_error;
  err.message = message;
  message[0] = 0;
  if (setjmp(err.jump)) {
    jpeg_destroy_compress(&cinfo);
    return NULL;
  }
  jpeg_create_compress(&cinfo);
  jpeg_mem_dest(&cinfo, &out, &out_size);
  cinfo.image_width = spec->width;
  cinfo.image_height = spec->height;
  cinfo.input_components = spec->components;
  cinfo.in_color_space = spec->components == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&cinfo);
  if (spec->quality > 0) {
    jpeg_set_quality(&cinfo, spec->quality, TRUE);
  } else {
    uint32_t state = spec->seed * 7919u + 1;
    for (int t = 0; t < 2; t++) {
      unsigned int table[DCTSIZE2];
      for (int i = 0; i < DCTSIZE2; i++) table[i] = (unsigned)random_in(&state, 1, spec->max_quantizer);
      jpeg_add_quant_table(&cinfo, t, table, 100, FALSE);
    }
  }
  cinfo.comp_info[0].h_samp_factor = spec->h_samp;
  cinfo.comp_info[0].v_samp_factor = spec->v_samp;
  jpeg_scan_info scans[32];
  if (spec->script == MP_TEST_SCRIPT_STANDARD) {
    jpeg_simple_progression(&cinfo);
  } else {
    cinfo.num_scans = make_script(spec->script, spec->components, scans);
    cinfo.scan_info = scans;
  }
  cinfo.restart_interval = spec->restart_interval;
  cinfo.arith_code = spec->arithmetic ? TRUE : FALSE;
  cinfo.optimize_coding = spec->arithmetic ? FALSE : TRUE;
  if (spec->pixels == NULL) {
    write_random_coefficients(&cinfo, spec);
  } else {
    jpeg_start_compress(&cinfo, TRUE);
    size_t stride = (size_t)spec->width * (size_t)spec->components;
    while (cinfo.next_scanline < cinfo.image_height) {
      JSAMPROW row = (JSAMPROW)(spec->pixels + (size_t)cinfo.next_scanline * stride);
      jpeg_write_scanlines(&cinfo, &row, 1);
    }
  }
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
  *size = out_size;
  return out;
}
