// The entropy decoding of one progressive JPEG scan (T.81 G.1.2), for
// Magpie's scaled progressive decoder. Compiled twice:
// magpie_jpeg_scan_portable.c includes it with MP_SCAN_BMI2 0 (portable bit
// operations, any x86-64) and magpie_jpeg_scan_bmi2.c with MP_SCAN_BMI2 1
// (POPCNT, LZCNT, BMI1 and BMI2, chosen at run time on CPUs that have them).
// Both make the same coefficients; only the speed of their bit operations
// differs.
//
// Each block keeps a mask of its nonzero AC coefficients with zigzag
// position k at bit k (MP_ZZ_BIT), so that in a refinement scan the zero a
// run ends on is one bit deposit (PDEP) into the zeros left, and the
// correction bits, read as one number and reversed so that the first is
// the lowest, land on their coefficients with one more into the mask of
// those nonzero. Nothing walks the 63 positions one by one.
//
// Everything is checked the way libjpeg checks it; where libjpeg would warn,
// recover or fail, this returns MP_PROG_DECLINED and libjpeg decodes the
// image instead.

#include <limits.h>
#include <string.h>

#include "magpie_jpeg_scan.h"

#if MP_SCAN_BMI2
#include <immintrin.h>
#define MP_TARGET __attribute__((target("popcnt,lzcnt,bmi,bmi2")))
#define MP_NAME(name) name##_bmi2
#else
#define MP_TARGET
#define MP_NAME(name) name##_portable
#endif
#define MP_FN static inline __attribute__((always_inline)) MP_TARGET

// ---------------------------------------------------------------------------
// Bit operations.

MP_FN int bit_count(uint64_t v) {
#if MP_SCAN_BMI2
  return (int)_mm_popcnt_u64(v);
#else
  v = v - ((v >> 1) & 0x5555555555555555ull);
  v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
  v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return (int)((v * 0x0101010101010101ull) >> 56);
#endif
}

// Bit i of `v` moved to the i-th lowest set bit of `mask` (PDEP).
MP_FN uint64_t deposit(uint64_t v, uint64_t mask) {
#if MP_SCAN_BMI2
  return _pdep_u64(v, mask);
#else
  uint64_t out = 0;
  for (uint64_t bit = 1; mask != 0; bit <<= 1) {
    uint64_t lowest = mask & (~mask + 1);
    if (v & bit) out |= lowest;
    mask ^= lowest;
  }
  return out;
#endif
}

// The (r+1)-th lowest set bit of `x` alone, or 0 when x has r or fewer.
MP_FN uint64_t nth_lowest(uint64_t x, int r) {
#if MP_SCAN_BMI2
  return _pdep_u64(1ull << r, x);
#else
  for (int i = 0; i < r; i++) x &= x - 1;
  return x & (~x + 1);
#endif
}

// `v` with its 64 bits in reverse order.
MP_FN uint64_t reverse_bits(uint64_t v) {
  v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
  v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
  v = ((v >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((v & 0x0F0F0F0F0F0F0F0Full) << 4);
  return __builtin_bswap64(v);
}

// ---------------------------------------------------------------------------
// Bits (mp_bits: the buffer holds `bits` bits from its top).

// Non-zero when some byte of `v` is 0xFF.
MP_FN int has_ff_byte(uint64_t v) {
  uint64_t x = ~v;
  return ((x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull) != 0;
}

// By value, so that the caller's reader can stay in registers.
static mp_bits MP_TARGET fill_slow(mp_bits b) {
  while (b.bits <= 56) {
    uint64_t byte;
    if (b.pad || b.p >= b.end || (b.p[0] == 0xFF && (b.p + 1 >= b.end || b.p[1] != 0))) {
      byte = 0;
      b.pad++;
    } else {
      byte = b.p[0];
      b.p += byte == 0xFF ? 2 : 1;  // a stuffed 0xFF 0x00 is one 0xFF
    }
    b.buf |= byte << (56 - b.bits);
    b.bits += 8;
  }
  return b;
}

// Tops the buffer up to at least 57 bits: eight bytes at once when none of
// them is 0xFF (no stuffing, no marker), else a byte at a time.
MP_FN void fill(mp_bits *b) {
  if (b->end - b->p >= 8 && !b->pad) {
    uint64_t v = __builtin_bswap64(mp_load64(b->p));
    if (!has_ff_byte(v)) {
      int bytes = (64 - b->bits) >> 3;
      int total = b->bits + 8 * bytes;
      uint64_t add = v >> b->bits;
      if (total < 64) add &= ~(~0ull >> total);
      b->buf |= add;
      b->bits = total;
      b->p += bytes;
      return;
    }
  }
  *b = fill_slow(*b);
}

MP_FN uint32_t get_bits(mp_bits *b, int n) {
  if (n == 0) return 0;
  if (b->bits < n) fill(b);
  uint32_t v = (uint32_t)(b->buf >> (64 - n));
  b->buf <<= n;
  b->bits -= n;
  return v;
}

// Up to 63 bits, the first read highest.
MP_FN uint64_t get_bits_wide(mp_bits *b, int n) {
  if (n <= 32) return get_bits(b, n);
  uint64_t high = get_bits(b, n - 32);
  return high << 32 | get_bits(b, 32);
}

MP_FN int extend(uint32_t v, int s) { return v < (1u << (s - 1)) ? (int)v - (1 << s) + 1 : (int)v; }

// The next symbol, or -1 for a code the table lacks.
MP_FN int decode(mp_bits *b, const mp_huff *t) {
  if (b->bits < 16) fill(b);
  unsigned e = t->fast[b->buf >> (64 - MP_HUFF_FAST_BITS)];
  if (e) {
    int len = (int)(e >> 8);
    b->buf <<= len;
    b->bits -= len;
    return (int)(e & 255);
  }
  uint32_t code16 = (uint32_t)(b->buf >> 48);
  for (int len = MP_HUFF_FAST_BITS + 1; len <= 16; len++) {
    int32_t code = (int32_t)(code16 >> (16 - len));
    if (code <= t->maxcode[len]) {
      b->buf <<= len;
      b->bits -= len;
      return t->values[code + t->offset[len]];
    }
  }
  return -1;
}

// ---------------------------------------------------------------------------
// Blocks.

// Reads one correction bit for each coefficient in `nonzero` (mask bits;
// T.81 G.1.2.3) and returns the mask of those whose bit is 1. The bits come
// in zigzag order, the first for the lowest position, so one deposit puts
// each on its coefficient.
MP_FN uint64_t read_corrections(mp_bits *b, uint64_t nonzero) {
  int n = bit_count(nonzero);
  uint64_t read;
  if (__builtin_expect(n <= 8, 1)) {
    // The first bit read at bit 0; n = 0 reads nothing, without a branch.
    if (b->bits < n) fill(b);
    read = mp_reversed_byte[b->buf >> 56] & ((1u << n) - 1);
    b->buf <<= n;
    b->bits -= n;
  } else {
    read = reverse_bits(get_bits_wide(b, n)) >> (64 - n);
  }
  return deposit(read, nonzero);
}

MP_FN int ac_first(mp_scan_state *s, const mp_prog_component *c, const mp_huff *t, int16_t *coef, uint64_t *mask) {
  int se = s->scan->se, al = s->scan->al;
  uint64_t m = *mask;
  for (int k = s->scan->ss; k <= se; k++) {
    int rs = decode(&s->bits, t);
    if (rs < 0) return 0;
    int r = rs >> 4, size = rs & 15;
    if (size) {
      k += r;
      if (k > se) return 0;  // libjpeg writes past the band; leave it to libjpeg
      int16_t v = (int16_t)((uint32_t)extend(get_bits(&s->bits, size), size) << al);
      if (c->slot[k] >= 0) coef[c->slot[k]] = v;
      m = v ? m | MP_ZZ_BIT(k) : m & ~MP_ZZ_BIT(k);
    } else if (r == 15) {
      k += 15;
    } else {
      s->eobrun = (1u << r) + get_bits(&s->bits, r) - 1;
      break;
    }
  }
  *mask = m;
  return 1;
}

// The coefficients a refinement scan changes in a block are written once,
// at the block's end, so that the loop over its symbols touches no memory
// but the Huffman tables.
MP_FN int ac_refine(mp_scan_state *s, const mp_prog_component *c, const mp_huff *t, int16_t *coef, uint64_t *mask) {
  int p1 = 1 << s->scan->al;
  uint64_t m = *mask, before = m;
  // Corrections whose bit is 1, and new coefficients that are negative.
  uint64_t ones = 0, negative = 0;
  // The band's positions not yet passed in this block.
  uint64_t rest = s->band;
  mp_bits *b = &s->bits;
  if (s->eobrun == 0) {
    while (rest) {
      // Mostly one lookup for the symbol and its sign bit together.
      if (b->bits < 16) fill(b);
      unsigned e = t->refine_fast[b->buf >> (64 - MP_HUFF_FAST_BITS)];
      int r, size, positive = 0;
      if (__builtin_expect(e != 0, 1)) {
        int len = (int)(e & 31);
        b->buf <<= len;
        b->bits -= len;
        r = (int)(e >> 5) & 15;
        size = (int)(e >> 9) & 1;
        positive = (int)(e >> 10) & 1;
      } else {
        int rs = decode(b, t);
        if (rs < 0) return 0;
        r = rs >> 4;
        size = rs & 15;
        if (size > 1) return 0;  // libjpeg warns
        if (size) positive = (int)get_bits(b, 1);
      }
      if (!size && r != 15) {
        s->eobrun = (1u << r) + get_bits(b, r);
        break;
      }
      // Skip r zero coefficients (ZRL: 16, ending on the 16th), giving each
      // nonzero one passed its correction bit.
      uint64_t target = nth_lowest(~m & rest, r);
      if (__builtin_expect(target == 0, 0)) {
        // Fewer zeros left than the run: libjpeg walks to the band's end.
        ones |= read_corrections(b, m & rest);
        if (size) return 0;  // no zero left for the new coefficient
        rest = 0;
        break;
      }
      ones |= read_corrections(b, m & rest & (target - 1));
      uint64_t added = size ? target : 0;
      m |= added;
      negative |= positive ? 0 : added;
      rest &= ~(target | (target - 1));
    }
  }
  if (s->eobrun > 0) {
    ones |= read_corrections(b, m & rest);
    s->eobrun--;
  }
  *mask = m;
  ones &= c->needed;
  uint64_t added = (m & ~before) & c->needed;
  while (ones) {
    int16_t *at = &coef[c->slot[__builtin_ctzll(ones)]];
    ones &= ones - 1;
    int v = *at;
    // A coefficient a valid progression brings here has that bit clear;
    // libjpeg checks anyway, and so does this.
    if ((v & p1) == 0) *at = (int16_t)(v + (v >= 0 ? p1 : -p1));
  }
  while (added) {
    int k = __builtin_ctzll(added);
    added &= added - 1;
    coef[c->slot[k]] = (int16_t)((negative >> k) & 1 ? -p1 : p1);
  }
  return 1;
}

MP_FN int dc_first(mp_scan_state *s, mp_prog_component *c, const mp_huff *t, int16_t *coef, uint64_t *mask) {
  if (c->clearing) {
    // Constant sizes, so that each clear is a few stores.
    if (c->kept == 25) {
      memset(coef, 0, sizeof(int16_t) * 25);
    } else if (c->kept == 49) {
      memset(coef, 0, sizeof(int16_t) * 49);
    } else {
      memset(coef, 0, sizeof(int16_t) * (size_t)c->kept);
    }
    *mask = 0;
  }
  int size = decode(&s->bits, t);
  if (size < 0) return 0;
  int diff = size ? extend(get_bits(&s->bits, size), size) : 0;
  // libjpeg fails on a running DC that leaves int (JERR_BAD_DCT_COEF).
  if ((diff > 0 && c->dc_pred > INT_MAX - diff) || (diff < 0 && c->dc_pred < INT_MIN - diff)) return 0;
  c->dc_pred += diff;
  coef[0] = (int16_t)((uint32_t)c->dc_pred << s->scan->al);
  return 1;
}

MP_FN int decode_block(mp_scan_state *s, int kind, mp_prog_component *c, const mp_huff *t, int16_t *coef,
                       uint64_t *mask) {
  switch (kind) {
    case MP_DC_FIRST:
      return dc_first(s, c, t, coef, mask);
    case MP_DC_REFINE:
      coef[0] = (int16_t)(coef[0] | (int)(get_bits(&s->bits, 1) << s->scan->al));
      return 1;
    case MP_AC_FIRST:
      return ac_first(s, c, t, coef, mask);
    default:
      return ac_refine(s, c, t, coef, mask);
  }
}

// ---------------------------------------------------------------------------
// Scans.

// At a restart marker: the bits left must be the last byte's padding, and
// the marker the one expected.
MP_FN int restart(mp_scan_state *s, int *next_marker) {
  mp_bits *b = &s->bits;
  if (!mp_bits_at_byte_end(b)) return 0;
  const uint8_t *p = b->p;
  if (p + 1 >= b->end || p[0] != 0xFF) return 0;
  while (p + 1 < b->end && p[1] == 0xFF) p++;
  if (p + 1 >= b->end || p[1] != 0xD0 + *next_marker) return 0;
  *next_marker = (*next_marker + 1) & 7;
  b->p = p + 2;
  b->buf = 0;
  b->bits = 0;
  b->pad = 0;
  s->eobrun = 0;
  for (int i = 0; i < s->scan->count; i++) s->prog->comp[s->scan->comp[i]].dc_pred = 0;
  return 1;
}

// A non-interleaved scan: one component's own blocks, row by row, one an
// MCU. Inlined once per kind of scan.
MP_FN mp_prog_result single_scan(mp_scan_state *state, int kind) {
  // A local copy, kept in registers; written back when the scan ends.
  mp_scan_state local = *state, *s = &local;
  mp_prog *prog = s->prog;
  const mp_prog_scan *scan = s->scan;
  mp_prog_component *c = &prog->comp[scan->comp[0]];
  const mp_huff *t = kind == MP_DC_FIRST ? &prog->dc[scan->dc_table[0]] : &prog->ac[scan->ac_table[0]];
  uint32_t interval = prog->restart_interval, to_go = interval;
  int next_marker = 0;
  size_t kept = (size_t)c->kept;
  for (uint32_t y = 0; y < c->hib; y++) {
    if (mp_prog_stop_asked(prog)) return MP_PROG_STOPPED;
    if (mp_bits_overran(&s->bits)) return MP_PROG_DECLINED;
    int16_t *coef = c->coef + (size_t)y * c->bw * kept;
    uint64_t *mask = c->mask + (size_t)y * c->bw;
    for (uint32_t x = 0; x < c->wib;) {
      if (interval && to_go == 0) {
        if (!restart(s, &next_marker)) return MP_PROG_DECLINED;
        to_go = interval;
      }
      if (kind == MP_AC_FIRST && s->eobrun > 0) {
        // A run of empty bands: nothing to store for these blocks.
        uint32_t n = c->wib - x;
        if (s->eobrun < n) n = s->eobrun;
        if (interval && to_go < n) n = to_go;
        s->eobrun -= n;
        x += n;
        if (interval) to_go -= n;
        continue;
      }
      if (interval) to_go--;
      if (!decode_block(s, kind, c, t, coef + x * kept, mask + x)) return MP_PROG_DECLINED;
      x++;
    }
  }
  *state = local;
  return MP_PROG_DONE;
}

// An interleaved (DC) scan: whole MCUs, padding blocks included.
MP_FN mp_prog_result interleaved_scan(mp_scan_state *state, int kind) {
  mp_scan_state local = *state, *s = &local;
  mp_prog *prog = s->prog;
  const mp_prog_scan *scan = s->scan;
  uint32_t interval = prog->restart_interval, to_go = interval;
  int next_marker = 0;
  for (uint32_t y = 0; y < prog->mcu_rows; y++) {
    if (mp_prog_stop_asked(prog)) return MP_PROG_STOPPED;
    if (mp_bits_overran(&s->bits)) return MP_PROG_DECLINED;
    for (uint32_t x = 0; x < prog->mcus_per_row; x++) {
      if (interval) {
        if (to_go == 0) {
          if (!restart(s, &next_marker)) return MP_PROG_DECLINED;
          to_go = interval;
        }
        to_go--;
      }
      for (int i = 0; i < scan->count; i++) {
        mp_prog_component *c = &prog->comp[scan->comp[i]];
        const mp_huff *t = &prog->dc[scan->dc_table[i]];
        for (int yy = 0; yy < c->v; yy++) {
          size_t row = (size_t)(y * (uint32_t)c->v + (uint32_t)yy) * c->bw;
          for (int xx = 0; xx < c->h; xx++) {
            size_t index = row + x * (uint32_t)c->h + (uint32_t)xx;
            if (!decode_block(s, kind, c, t, c->coef + index * (size_t)c->kept, &c->mask[index])) {
              return MP_PROG_DECLINED;
            }
          }
        }
      }
    }
  }
  *state = local;
  return MP_PROG_DONE;
}

mp_prog_result MP_TARGET MP_NAME(mp_prog_entropy_decode)(mp_scan_state *s) {
  const mp_prog_scan *scan = s->scan;
  int dc = scan->ss == 0, first = scan->ah == 0;
  if (scan->count > 1) return first ? interleaved_scan(s, MP_DC_FIRST) : interleaved_scan(s, MP_DC_REFINE);
  if (dc) return first ? single_scan(s, MP_DC_FIRST) : single_scan(s, MP_DC_REFINE);
  return first ? single_scan(s, MP_AC_FIRST) : single_scan(s, MP_AC_REFINE);
}

#undef MP_TARGET
#undef MP_NAME
#undef MP_FN
