// Reading progressive scans for Magpie's scaled JPEG decoder: Huffman
// tables, each scan's checks and progression, and the markers between scans
// (the entropy-coded data itself is magpie_jpeg_scan_impl.h's). Everything
// is checked the way libjpeg checks it; where libjpeg would warn, recover or
// fail, this declines instead and libjpeg decodes the image.

#include "magpie_jpeg_scan.h"

#if MP_PROG_AVAILABLE

#include <cpuid.h>
#include <limits.h>
#include <string.h>

#include "magpie_jpeg.h"

// Zigzag position -> natural position, for DQT tables.
static const uint8_t zigzag_natural[64] = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
    41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
    30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
};

const uint8_t mp_reversed_byte[256] = {
    0x00, 0x80, 0x40, 0xC0, 0x20, 0xA0, 0x60, 0xE0, 0x10, 0x90, 0x50, 0xD0, 0x30, 0xB0, 0x70, 0xF0,
    0x08, 0x88, 0x48, 0xC8, 0x28, 0xA8, 0x68, 0xE8, 0x18, 0x98, 0x58, 0xD8, 0x38, 0xB8, 0x78, 0xF8,
    0x04, 0x84, 0x44, 0xC4, 0x24, 0xA4, 0x64, 0xE4, 0x14, 0x94, 0x54, 0xD4, 0x34, 0xB4, 0x74, 0xF4,
    0x0C, 0x8C, 0x4C, 0xCC, 0x2C, 0xAC, 0x6C, 0xEC, 0x1C, 0x9C, 0x5C, 0xDC, 0x3C, 0xBC, 0x7C, 0xFC,
    0x02, 0x82, 0x42, 0xC2, 0x22, 0xA2, 0x62, 0xE2, 0x12, 0x92, 0x52, 0xD2, 0x32, 0xB2, 0x72, 0xF2,
    0x0A, 0x8A, 0x4A, 0xCA, 0x2A, 0xAA, 0x6A, 0xEA, 0x1A, 0x9A, 0x5A, 0xDA, 0x3A, 0xBA, 0x7A, 0xFA,
    0x06, 0x86, 0x46, 0xC6, 0x26, 0xA6, 0x66, 0xE6, 0x16, 0x96, 0x56, 0xD6, 0x36, 0xB6, 0x76, 0xF6,
    0x0E, 0x8E, 0x4E, 0xCE, 0x2E, 0xAE, 0x6E, 0xEE, 0x1E, 0x9E, 0x5E, 0xDE, 0x3E, 0xBE, 0x7E, 0xFE,
    0x01, 0x81, 0x41, 0xC1, 0x21, 0xA1, 0x61, 0xE1, 0x11, 0x91, 0x51, 0xD1, 0x31, 0xB1, 0x71, 0xF1,
    0x09, 0x89, 0x49, 0xC9, 0x29, 0xA9, 0x69, 0xE9, 0x19, 0x99, 0x59, 0xD9, 0x39, 0xB9, 0x79, 0xF9,
    0x05, 0x85, 0x45, 0xC5, 0x25, 0xA5, 0x65, 0xE5, 0x15, 0x95, 0x55, 0xD5, 0x35, 0xB5, 0x75, 0xF5,
    0x0D, 0x8D, 0x4D, 0xCD, 0x2D, 0xAD, 0x6D, 0xED, 0x1D, 0x9D, 0x5D, 0xDD, 0x3D, 0xBD, 0x7D, 0xFD,
    0x03, 0x83, 0x43, 0xC3, 0x23, 0xA3, 0x63, 0xE3, 0x13, 0x93, 0x53, 0xD3, 0x33, 0xB3, 0x73, 0xF3,
    0x0B, 0x8B, 0x4B, 0xCB, 0x2B, 0xAB, 0x6B, 0xEB, 0x1B, 0x9B, 0x5B, 0xDB, 0x3B, 0xBB, 0x7B, 0xFB,
    0x07, 0x87, 0x47, 0xC7, 0x27, 0xA7, 0x67, 0xE7, 0x17, 0x97, 0x57, 0xD7, 0x37, 0xB7, 0x77, 0xF7,
    0x0F, 0x8F, 0x4F, 0xCF, 0x2F, 0xAF, 0x6F, 0xEF, 0x1F, 0x9F, 0x5F, 0xDF, 0x3F, 0xBF, 0x7F, 0xFF,
};

// ---------------------------------------------------------------------------
// Huffman tables.

int mp_huff_build(mp_huff *t, const uint8_t bits[17], const uint8_t *values, int is_dc) {
  memset(t, 0, sizeof *t);
  int count = 0;
  for (int l = 1; l <= 16; l++) count += bits[l];
  if (count > 256) return 0;
  uint8_t sizes[257];
  uint16_t codes[256];
  int p = 0;
  for (int l = 1; l <= 16; l++) {
    for (int i = 0; i < bits[l]; i++) sizes[p++] = (uint8_t)l;
  }
  sizes[p] = 0;
  // Canonical codes; no code may be all ones in its length (libjpeg's check).
  uint32_t code = 0;
  int si = sizes[0];
  p = 0;
  while (sizes[p]) {
    while (sizes[p] == si) codes[p++] = (uint16_t)code++;
    if (code >= (1u << si)) return 0;
    code <<= 1;
    si++;
  }
  p = 0;
  for (int l = 1; l <= 16; l++) {
    if (bits[l]) {
      t->offset[l] = p - codes[p];
      p += bits[l];
      t->maxcode[l] = codes[p - 1];
    } else {
      t->maxcode[l] = -1;
    }
  }
  for (int i = 0; i < count; i++) {
    if (is_dc && values[i] > 15) return 0;
    t->values[i] = values[i];
    if (sizes[i] <= MP_HUFF_FAST_BITS) {
      int spare = MP_HUFF_FAST_BITS - sizes[i];
      for (int j = 0; j < (1 << spare); j++) {
        t->fast[(codes[i] << spare) | j] = (uint16_t)(sizes[i] << 8 | values[i]);
      }
    }
    // Refinement symbols: no coefficient (EOB runs, ZRL) or one of size 1.
    int coefficient = values[i] & 15;
    if (is_dc || coefficient > 1 || sizes[i] + coefficient > MP_HUFF_FAST_BITS) continue;
    int length = sizes[i] + coefficient, spare = MP_HUFF_FAST_BITS - length;
    for (int sign = 0; sign <= coefficient; sign++) {
      uint32_t prefix = (uint32_t)codes[i] << coefficient | (uint32_t)sign;
      uint16_t entry = (uint16_t)(length | (values[i] >> 4) << 5 | coefficient << 9 | sign << 10 | 1 << 15);
      for (int j = 0; j < (1 << spare); j++) t->refine_fast[(prefix << spare) | (uint32_t)j] = entry;
    }
  }
  return 1;
}

// ---------------------------------------------------------------------------
// Scans.

// Checks a scan's parameters and tables and updates the progression, as
// libjpeg's start_pass_phuff_decoder does; 0 where libjpeg would fail or warn.
static int start_scan(mp_prog *prog, const mp_prog_scan *scan) {
  int dc = scan->ss == 0;
  if (dc ? scan->se != 0 : (scan->ss > scan->se || scan->se > 63 || scan->count != 1)) return 0;
  if ((scan->ah != 0 && scan->al != scan->ah - 1) || scan->al > 13) return 0;
  int blocks = 0;
  for (int i = 0; i < scan->count; i++) blocks += prog->comp[scan->comp[i]].h * prog->comp[scan->comp[i]].v;
  if (scan->count > 1 && blocks > 10) return 0;  // libjpeg's D_MAX_BLOCKS_IN_MCU
  for (int i = 0; i < scan->count; i++) {
    mp_prog_component *c = &prog->comp[scan->comp[i]];
    // libjpeg reads table numbers up to 15 and checks them only when used.
    if (scan->dc_table[i] >= 4 || scan->ac_table[i] >= 4 || c->quant_no < 0 || c->quant_no >= 4) return 0;
    if (dc && scan->ah == 0 && !prog->dc[scan->dc_table[i]].defined) return 0;
    if (!dc && !prog->ac[scan->ac_table[i]].defined) return 0;
    if (!dc && c->coef_bits[0] < 0) return 0;
    c->clearing = dc && c->coef_bits[0] < 0;
    for (int k = scan->ss; k <= scan->se; k++) {
      int expected = c->coef_bits[k] < 0 ? 0 : c->coef_bits[k];
      if (scan->ah != expected) return 0;
      c->coef_bits[k] = (int8_t)scan->al;
    }
    if (!c->quant_latched) {
      if (!prog->qdefined[c->quant_no]) return 0;
      memcpy(c->quant, prog->qtables[c->quant_no], sizeof c->quant);
      mp_prog_idct_quant(c->size, c->quant, c->idct_quant);
      c->quant_latched = 1;
    }
    c->dc_pred = 0;
  }
  return 1;
}

// Decodes the scan whose entropy-coded data starts at *pos; leaves *pos at
// the marker that ends it.
static mp_prog_result decode_scan(mp_prog *prog, const mp_prog_scan *scan, const uint8_t **pos, const uint8_t *end) {
  mp_scan_state s = {.prog = prog, .scan = scan, .bits = {.p = *pos, .end = end}};
  s.band = (~0ull << scan->ss) & (~0ull >> (63 - scan->se));
  mp_prog_result result = prog->use_bmi2 ? mp_prog_entropy_decode_bmi2(&s) : mp_prog_entropy_decode_portable(&s);
  if (result != MP_PROG_DONE) return result;
  // Only the last byte's padding may be left, and a marker must follow.
  const mp_bits *b = &s.bits;
  if (!mp_bits_at_byte_end(b)) return MP_PROG_DECLINED;
  if (b->p + 1 >= end || b->p[0] != 0xFF || b->p[1] == 0) return MP_PROG_DECLINED;
  *pos = b->p;
  return MP_PROG_DONE;
}

static int read_dht(mp_prog *prog, const uint8_t *seg, size_t n) {
  while (n > 16) {
    int index = seg[0];
    uint8_t bits[17] = {0};
    size_t count = 0;
    for (int l = 1; l <= 16; l++) count += bits[l] = seg[l];
    if (count > 256 || count > n - 17) return 0;
    int ac = index & 0x10;
    if (ac) index -= 0x10;
    if (index >= 4) return 0;
    mp_huff *table = ac ? &prog->ac[index] : &prog->dc[index];
    table->defined = mp_huff_build(table, bits, seg + 17, !ac);
    seg += 17 + count;
    n -= 17 + count;
  }
  return n == 0;
}

static int read_dqt(mp_prog *prog, const uint8_t *seg, size_t n) {
  while (n > 0) {
    int wide = seg[0] >> 4, index = seg[0] & 15;
    size_t need = 1 + 64 * (size_t)(wide ? 2 : 1);
    if (index >= 4 || n < need) return 0;
    for (int i = 0; i < 64; i++) {
      int v = wide ? seg[1 + 2 * i] << 8 | seg[2 + 2 * i] : seg[1 + i];
      prog->qtables[index][zigzag_natural[i]] = (int16_t)v;
    }
    prog->qdefined[index] = 1;
    seg += need;
    n -= need;
  }
  return 1;
}

static int read_sos(const mp_prog *prog, const uint8_t *seg, size_t n, mp_prog_scan *scan) {
  if (n < 1) return 0;
  int count = seg[0];
  if (count < 1 || count > 4 || n != (size_t)(4 + 2 * count)) return 0;
  scan->count = count;
  for (int i = 0; i < count; i++) {
    int id = seg[1 + 2 * i], tables = seg[2 + 2 * i], found = -1;
    for (int j = 0; j < prog->ncomp; j++) {
      if (prog->comp[j].id == id) found = j;
    }
    if (found < 0) return 0;
    for (int j = 0; j < i; j++) {
      if (scan->comp[j] == found) return 0;
    }
    scan->comp[i] = found;
    scan->dc_table[i] = tables >> 4;
    scan->ac_table[i] = tables & 15;
    if (scan->dc_table[i] >= 4 || scan->ac_table[i] >= 4) return 0;
  }
  scan->ss = seg[1 + 2 * count];
  scan->se = seg[2 + 2 * count];
  scan->ah = seg[3 + 2 * count] >> 4;
  scan->al = seg[3 + 2 * count] & 15;
  return 1;
}

// Reads the markers after a scan up to the next SOS (into *scan: 1) or EOI
// (0); -1 for anything else.
static int next_scan(mp_prog *prog, const uint8_t **pos, const uint8_t *end, mp_prog_scan *scan) {
  const uint8_t *p = *pos;
  for (;;) {
    if (p >= end || *p != 0xFF) return -1;
    while (p < end && *p == 0xFF) p++;
    if (p >= end) return -1;
    int marker = *p++;
    if (marker == 0xD9) return 0;
    if (end - p < 2) return -1;
    size_t length = (size_t)p[0] << 8 | p[1];
    if (length < 2 || length > (size_t)(end - p)) return -1;
    const uint8_t *seg = p + 2;
    size_t n = length - 2;
    p += length;
    int ok;
    if (marker == 0xC4) {
      ok = read_dht(prog, seg, n);
    } else if (marker == 0xDB) {
      ok = read_dqt(prog, seg, n);
    } else if (marker == 0xDD) {
      ok = n == 2;
      if (ok) prog->restart_interval = (unsigned)(seg[0] << 8 | seg[1]);
    } else if (marker == 0xDA) {
      *pos = p;
      return read_sos(prog, seg, n, scan) ? 1 : -1;
    } else {
      ok = (marker >= 0xE0 && marker <= 0xEF) || marker == 0xFE;  // APPn, COM
    }
    if (!ok) return -1;
  }
}

mp_prog_result mp_prog_run_scans(mp_prog *prog, const mp_prog_scan *first, const uint8_t *data, size_t size) {
  const uint8_t *p = data, *end = data + size;
  mp_prog_scan scan = *first;
  for (int scans = 1;; scans++) {
    if (scans > MP_JPEG_MAX_SCANS || !start_scan(prog, &scan)) return MP_PROG_DECLINED;
    mp_prog_result result = decode_scan(prog, &scan, &p, end);
    if (result != MP_PROG_DONE) return result;
    int next = next_scan(prog, &p, end, &scan);
    if (next == 0) return MP_PROG_DONE;
    if (next < 0) return MP_PROG_DECLINED;
  }
}

static int cpu_has_bmi2(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_POPCNT)) return 0;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & bit_BMI) || !(b & bit_BMI2)) return 0;
  if (!__get_cpuid(0x80000001, &a, &b, &c, &d) || !(c & bit_LZCNT)) return 0;
  return 1;
}

int mp_prog_cpu_has_bmi2(void) {
  // CPUID is slow under a hypervisor (it traps): asked once.
  static int known = -1;
  int has = __atomic_load_n(&known, __ATOMIC_RELAXED);
  if (has < 0) {
    has = cpu_has_bmi2();
    __atomic_store_n(&known, has, __ATOMIC_RELAXED);
  }
  return has;
}

#endif
