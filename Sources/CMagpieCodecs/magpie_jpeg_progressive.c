// Magpie's scaled progressive JPEG decoder: which images it takes, the
// components' geometry and memory, and turning the decoded coefficients into
// RGBA rows. See magpie_jpeg_progressive.h for what it takes and why;
// magpie_jpeg_scan.c reads the scans, magpie_jpeg_reduced.c holds the IDCTs
// and colour conversion.

#include "magpie_jpeg_progressive.h"

#if MP_PROG_AVAILABLE

#include <stdlib.h>
#include <string.h>

#include "magpie_jpeg.h"
#include "magpie_jpeg_scan.h"

// Zigzag position -> natural (row * 8 + column) position.
static const uint8_t natural_order[64] = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
    41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
    30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
};

static int setup_component(mp_prog *prog, int ci, jpeg_component_info *info, j_decompress_ptr cinfo) {
  mp_prog_component *c = &prog->comp[ci];
  c->id = info->component_id;
  c->h = info->h_samp_factor;
  c->v = info->v_samp_factor;
  c->size = info->DCT_scaled_size;
  c->quant_no = info->quant_tbl_no;
  c->wib = info->width_in_blocks;
  c->hib = info->height_in_blocks;
  c->bw = prog->mcus_per_row * (uint32_t)c->h;
  c->bh = prog->mcu_rows * (uint32_t)c->v;
  c->plane_w = c->wib * (uint32_t)c->size;
  int n = mp_prog_kept_count(c->size);
  c->kept = n * n;
  const int8_t *index = mp_prog_kept_index(c->size);
  c->needed = 0;
  for (int k = 0; k < 64; k++) {
    int r = natural_order[k] >> 3, col = natural_order[k] & 7;
    c->slot[k] = (int8_t)(index[r] >= 0 && index[col] >= 0 ? index[r] * n + index[col] : -1);
    if (c->slot[k] >= 0 && k > 0) c->needed |= MP_ZZ_BIT(k);
  }
  memset(c->coef_bits, -1, sizeof c->coef_bits);
  // Every component reaches the output size by IDCT scaling alone, as
  // libjpeg arranges for 4:2:0 and 4:4:4, or with its rows doubled after
  // the IDCT (4:2:2).
  if (c->size != 1 && c->size != 2 && c->size != 4) return 0;
  int min = cinfo->min_DCT_scaled_size;
  if (c->v * c->size != cinfo->max_v_samp_factor * min) return 0;
  if (c->h * c->size == cinfo->max_h_samp_factor * min) return 1;
  if (c->h * c->size * 2 != cinfo->max_h_samp_factor * min) return 0;
  c->doubled = 1;
  c->doubled_from = (uint32_t)(((uint64_t)cinfo->image_width * (uint64_t)(c->h * c->size) +
                                (uint64_t)(cinfo->max_h_samp_factor * 8) - 1) /
                               (uint64_t)(cinfo->max_h_samp_factor * 8));
  // libjpeg's jinit_upsampler: the triangle filter only above 1/8 scale and
  // for rows of more than two samples.
  c->doubled_fancy = cinfo->do_fancy_upsampling && min > 1 && c->doubled_from > 2;
  return 1;
}

// Whether libjpeg-turbo runs its SIMD code: JSIMD_FORCENONE=1 switches it to
// its C code, whose IDCTs round differently. Read once, as libjpeg-turbo
// reads it.
static int libjpeg_uses_simd(void) {
  static int known = -1;
  int simd = __atomic_load_n(&known, __ATOMIC_RELAXED);
  if (simd < 0) {
    const char *none = getenv("JSIMD_FORCENONE");
    simd = !(none != NULL && strcmp(none, "1") == 0);
    __atomic_store_n(&known, simd, __ATOMIC_RELAXED);
  }
  return simd;
}

static int eligible(j_decompress_ptr cinfo) {
  if (!cinfo->progressive_mode || cinfo->arith_code || cinfo->data_precision != 8) return 0;
  if (!libjpeg_uses_simd()) return 0;
  if (cinfo->out_color_space != JCS_EXT_RGBA || cinfo->quantize_colors) return 0;
  // 1/8, 1/4, and 1/2 where no component needs the full 8x8 IDCT (the
  // setup checks each component's size).
  int min = cinfo->min_DCT_scaled_size;
  if (cinfo->scale_num != 1 || (min != 1 && min != 2 && min != 4)) return 0;
  if (cinfo->jpeg_color_space == JCS_YCbCr) return cinfo->num_components == 3;
  if (cinfo->jpeg_color_space == JCS_GRAYSCALE) return cinfo->num_components == 1;
  return 0;
}

// Rounds up to a multiple of 64 bytes.
static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

// One workspace for every component: its masks, coefficients (padded: the
// IDCT loads eight at a time) and a row of IDCT output. Not cleared: each
// component's first DC scan clears its blocks.
static int allocate(mp_prog *prog, size_t max_memory) {
  size_t total = 0;
  for (int ci = 0; ci < prog->ncomp; ci++) {
    mp_prog_component *c = &prog->comp[ci];
    size_t blocks = (size_t)c->bw * c->bh;
    if (blocks > SIZE_MAX / 1024) return 0;
    total += align64(blocks * sizeof(uint64_t)) + align64((blocks * (size_t)c->kept + 16) * sizeof(int16_t)) +
             align64((size_t)c->plane_w * (size_t)(c->v * c->size)) + align64(2 * (size_t)c->plane_w);
  }
  if (max_memory > 0 && total > max_memory) return 0;
  uint8_t *at = mp_prog_workspace_take(total, &prog->workspace_size);
  if (at == NULL) return 0;
  prog->workspace = at;
  for (int ci = 0; ci < prog->ncomp; ci++) {
    mp_prog_component *c = &prog->comp[ci];
    size_t blocks = (size_t)c->bw * c->bh;
    c->mask = (uint64_t *)(void *)at;
    at += align64(blocks * sizeof(uint64_t));
    c->coef = (int16_t *)(void *)at;
    at += align64((blocks * (size_t)c->kept + 16) * sizeof(int16_t));
    c->plane = at;
    at += align64((size_t)c->plane_w * (size_t)(c->v * c->size));
    c->doubled_row = at;
    at += align64(2 * (size_t)c->plane_w);
  }
  return 1;
}

// Copies a table libjpeg read before the first scan into Magpie's form.
static void adopt_tables(mp_prog *prog, j_decompress_ptr cinfo) {
  for (int i = 0; i < 4; i++) {
    if (cinfo->dc_huff_tbl_ptrs[i] != NULL) {
      JHUFF_TBL *t = cinfo->dc_huff_tbl_ptrs[i];
      prog->dc[i].defined = mp_huff_build(&prog->dc[i], t->bits, t->huffval, 1);
    }
    if (cinfo->ac_huff_tbl_ptrs[i] != NULL) {
      JHUFF_TBL *t = cinfo->ac_huff_tbl_ptrs[i];
      prog->ac[i].defined = mp_huff_build(&prog->ac[i], t->bits, t->huffval, 0);
    }
    if (cinfo->quant_tbl_ptrs[i] != NULL) {
      for (int k = 0; k < 64; k++) prog->qtables[i][k] = (int16_t)cinfo->quant_tbl_ptrs[i]->quantval[k];
      prog->qdefined[i] = 1;
    }
  }
}

// Whether libjpeg would smooth blocks (jdcoefct.c's smoothing_ok): all
// quantisers latched and nonzero, every DC known and some of the first
// nine AC coefficients still coarse. Then its pixels are not ours.
static int would_smooth(const mp_prog *prog) {
  static const uint8_t positions[10] = {0, 1, 8, 16, 9, 2, 3, 10, 17, 24};
  int useful = 0;
  for (int ci = 0; ci < prog->ncomp; ci++) {
    const mp_prog_component *c = &prog->comp[ci];
    if (!c->quant_latched) return 0;
    for (int i = 0; i < 10; i++) {
      if (c->quant[positions[i]] == 0) return 0;
    }
    if (c->coef_bits[0] < 0) return 0;
    for (int k = 1; k < 10; k++) useful |= c->coef_bits[k] != 0;
  }
  return useful;
}

mp_prog_result mp_prog_decode(j_decompress_ptr cinfo, const uint8_t *data, size_t size, size_t max_memory,
                              int (*stop_check)(void *), void *stop_context, int portable, mp_prog **out) {
  *out = NULL;
  if (!eligible(cinfo)) return MP_PROG_DECLINED;
  mp_prog *prog = calloc(1, sizeof *prog);
  if (prog == NULL) return MP_PROG_DECLINED;
  prog->ncomp = cinfo->num_components;
  prog->max_h = cinfo->max_h_samp_factor;
  prog->max_v = cinfo->max_v_samp_factor;
  prog->mcus_per_row = (cinfo->image_width + 8 * (uint32_t)prog->max_h - 1) / (8 * (uint32_t)prog->max_h);
  prog->mcu_rows = (cinfo->image_height + 8 * (uint32_t)prog->max_v - 1) / (8 * (uint32_t)prog->max_v);
  prog->out_w = cinfo->output_width;
  prog->out_h = cinfo->output_height;
  prog->rows_per_group = (uint32_t)(prog->max_v * cinfo->min_DCT_scaled_size);
  prog->restart_interval = cinfo->restart_interval;
  prog->stop_check = stop_check;
  prog->stop_context = stop_context;
  prog->use_bmi2 = !portable && mp_prog_cpu_has_bmi2();
  int ok = 1;
  for (int ci = 0; ci < prog->ncomp && ok; ci++) ok = setup_component(prog, ci, &cinfo->comp_info[ci], cinfo);
  if (!ok || !allocate(prog, max_memory)) {
    mp_prog_destroy(prog);
    return MP_PROG_DECLINED;
  }
  adopt_tables(prog, cinfo);
  // The first scan's header is libjpeg's; the rest are read here.
  mp_prog_scan scan = {.count = cinfo->comps_in_scan, .ss = cinfo->Ss, .se = cinfo->Se, .ah = cinfo->Ah, .al = cinfo->Al};
  for (int i = 0; i < scan.count; i++) {
    scan.comp[i] = cinfo->cur_comp_info[i]->component_index;
    scan.dc_table[i] = cinfo->cur_comp_info[i]->dc_tbl_no;
    scan.ac_table[i] = cinfo->cur_comp_info[i]->ac_tbl_no;
  }
  mp_prog_result result = mp_prog_run_scans(prog, &scan, data, size);
  if (result == MP_PROG_DONE && cinfo->do_block_smoothing && would_smooth(prog)) result = MP_PROG_DECLINED;
  for (int ci = 0; ci < prog->ncomp && result == MP_PROG_DONE; ci++) {
    // A component no scan reached decodes as zero coefficients.
    mp_prog_component *c = &prog->comp[ci];
    if (c->coef_bits[0] < 0) {
      memset(c->mask, 0, sizeof(uint64_t) * (size_t)c->bw * c->bh);
      memset(c->coef, 0, sizeof(int16_t) * (size_t)c->bw * c->bh * (size_t)c->kept);
    }
  }
  if (result != MP_PROG_DONE) {
    mp_prog_destroy(prog);
    return result;
  }
  *out = prog;
  return MP_PROG_DONE;
}

// Decodes iMCU row `group` of every component into its plane.
static void reconstruct(mp_prog *prog, uint32_t group) {
  for (int ci = 0; ci < prog->ncomp; ci++) {
    mp_prog_component *c = &prog->comp[ci];
    for (int yy = 0; yy < c->v; yy++) {
      uint32_t by = group * (uint32_t)c->v + (uint32_t)yy;
      // libjpeg leaves block rows past the image out; their rows are past
      // the output too.
      if (by >= c->hib) break;
      uint8_t *row = c->plane + (size_t)yy * (size_t)c->size * c->plane_w;
      const int16_t *coef = c->coef + (size_t)by * c->bw * (size_t)c->kept;
      const uint64_t *mask = c->mask + (size_t)by * c->bw;
      for (uint32_t bx = 0; bx < c->wib; bx++) {
        mp_prog_idct(c->size, coef + (size_t)bx * (size_t)c->kept, c->idct_quant, row + (size_t)bx * (size_t)c->size,
                     c->plane_w, mask[bx], c->needed);
      }
    }
  }
  prog->group_loaded = group + 1;
}

// Row `in_group` of a chroma component at the output's width: the IDCT's
// row itself, or that row doubled as libjpeg's h2v1 upsamplers do.
static const uint8_t *chroma_row(mp_prog_component *c, size_t in_group) {
  const uint8_t *row = c->plane + in_group * c->plane_w;
  if (!c->doubled) return row;
  if (c->doubled_fancy) {
    mp_prog_double_fancy(row, c->doubled_from, c->doubled_row);
  } else {
    mp_prog_double_plain(row, c->doubled_from, c->doubled_row);
  }
  return c->doubled_row;
}

uint32_t mp_prog_read_rows(mp_prog *prog, uint8_t *rows, size_t stride, uint32_t max_rows) {
  uint32_t done = 0;
  while (done < max_rows && prog->next_row < prog->out_h) {
    uint32_t group = prog->next_row / prog->rows_per_group;
    if (prog->group_loaded != group + 1) reconstruct(prog, group);
    size_t in_group = prog->next_row % prog->rows_per_group;
    uint8_t *out = rows + (size_t)done * stride;
    const uint8_t *y = prog->comp[0].plane + in_group * prog->comp[0].plane_w;
    if (prog->ncomp == 3) {
      const uint8_t *cb = chroma_row(&prog->comp[1], in_group);
      const uint8_t *cr = chroma_row(&prog->comp[2], in_group);
      mp_prog_ycc_to_rgba(y, cb, cr, out, prog->out_w);
    } else {
      for (uint32_t i = 0; i < prog->out_w; i++) {
        out[4 * i] = out[4 * i + 1] = out[4 * i + 2] = y[i];
        out[4 * i + 3] = 255;
      }
    }
    prog->next_row++;
    done++;
  }
  return done;
}

void mp_prog_destroy(mp_prog *prog) {
  if (prog == NULL) return;
  mp_prog_workspace_give(prog->workspace, prog->workspace_size);
  free(prog);
}

#endif
