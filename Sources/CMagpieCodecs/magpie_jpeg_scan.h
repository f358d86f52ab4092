#ifndef MAGPIE_JPEG_SCAN_H
#define MAGPIE_JPEG_SCAN_H

// The state Magpie's progressive JPEG decoder shares between its files
// (internal to CMagpieCodecs): magpie_jpeg_progressive.c sets it up and
// turns it into rows, magpie_jpeg_scan.c reads the scans into it.

#include <stdint.h>
#include <string.h>

#include "magpie_jpeg_progressive.h"

/// Codes up to this long decode with one table lookup.
#define MP_HUFF_FAST_BITS 9

/// A Huffman table ready for decoding.
typedef struct {
  /// (length << 8 | value) for each FAST_BITS-bit prefix that starts a
  /// code no longer than FAST_BITS; 0 for the others.
  uint16_t fast[1 << MP_HUFF_FAST_BITS];
  /// For an AC table in a refinement scan, the same for each prefix that
  /// starts a code and, when the symbol has a coefficient, its sign bit,
  /// both within FAST_BITS: total length | run << 5 | has a coefficient
  /// << 9 | positive << 10 | 1 << 15 (0 for the others).
  uint16_t refine_fast[1 << MP_HUFF_FAST_BITS];
  /// The largest code of each length (-1 when none), and what to add to a
  /// code of that length to index `values`.
  int32_t maxcode[17];
  int32_t offset[17];
  uint8_t values[256];
  /// Non-zero once a valid table is loaded.
  int defined;
} mp_huff;

/// Builds `table` from a DHT's counts (`bits[1...16]`) and values,
/// checking it as libjpeg does (for a DC table, values up to 15). Returns
/// non-zero when the table is valid.
int mp_huff_build(mp_huff *table, const uint8_t bits[17], const uint8_t *values, int is_dc);

/// One colour component's coefficients and progression.
typedef struct {
  int id, h, v;
  /// The reduced IDCT's size (1, 2 or 4) and the coefficients kept per
  /// block for it (1, 25 or 49).
  int size, kept;
  /// Zigzag position -> index among a block's kept coefficients, or -1.
  int8_t slot[64];
  /// The AC coefficients that are kept, as mask bits (MP_ZZ_BIT).
  uint64_t needed;
  /// Blocks that hold image data, and blocks stored (whole MCUs).
  uint32_t wib, hib, bw, bh;
  int16_t *coef;
  /// Per block: the AC coefficients that are nonzero, as mask bits.
  uint64_t *mask;
  /// The quantisation table (natural order), latched at the component's
  /// first scan as libjpeg does.
  int16_t quant[64];
  int quant_latched, quant_no;
  /// The quantisers of the coefficients kept, laid out for the IDCT (see
  /// mp_prog_idct), filled when the table is latched.
  int16_t idct_quant[MP_PROG_IDCT_QUANT];
  /// libjpeg's coef_bits: the point transform each coefficient has reached,
  /// -1 before its first scan.
  int8_t coef_bits[64];
  int dc_pred;
  /// Set while the component's first DC scan runs, which clears each
  /// block it reaches before storing the DC.
  int clearing;
  /// One iMCU row of IDCT output: v * size rows of plane_w samples.
  uint32_t plane_w;
  uint8_t *plane;
  /// Non-zero for chroma that libjpeg doubles horizontally after the IDCT
  /// (4:2:2), with its triangle filter ("fancy") or by repeating samples:
  /// the samples per row it upsamples (libjpeg's downsampled_width), and a
  /// row of the result.
  int doubled, doubled_fancy;
  uint32_t doubled_from;
  uint8_t *doubled_row;
} mp_prog_component;

struct mp_prog {
  int ncomp;
  mp_prog_component comp[4];
  int max_h, max_v;
  uint32_t mcus_per_row, mcu_rows;
  uint32_t out_w, out_h;
  uint32_t rows_per_group;
  /// The next output row, and which iMCU row the planes hold (+1; 0: none).
  uint32_t next_row, group_loaded;
  mp_huff dc[4], ac[4];
  int16_t qtables[4][64];
  int qdefined[4];
  unsigned restart_interval;
  int (*stop_check)(void *);
  void *stop_context;
  /// Whether the BMI2 entropy decoder may run (the CPU has it and the
  /// caller did not ask for the portable one).
  int use_bmi2;
  /// The memory the components' arrays live in.
  void *workspace;
  size_t workspace_size;
};

/// One scan's header.
typedef struct {
  int count;
  int comp[4], dc_table[4], ac_table[4];
  int ss, se, ah, al;
} mp_prog_scan;

/// A block's mask bit for zigzag position k.
#define MP_ZZ_BIT(k) (1ull << (k))

/// The entropy-coded data being read. The buffer holds `bits` bits from
/// its top; at a marker (or the end of the data) it is fed zero bytes,
/// counted in `pad`, and the position stays at the marker.
typedef struct {
  const uint8_t *p, *end;
  uint64_t buf;
  int bits, pad;
} mp_bits;

/// Whether more bits were used than the data held (libjpeg would warn).
static inline int mp_bits_overran(const mp_bits *b) { return b->bits < 8 * b->pad; }

/// Whether the data read so far ends within its last byte: no bit used past
/// the data and no whole byte left unread (libjpeg counts those as
/// extraneous and warns), as a scan's end and a restart marker need.
static inline int mp_bits_at_byte_end(const mp_bits *b) { return !mp_bits_overran(b) && b->bits - 8 * b->pad < 8; }

/// Eight bytes from `p`, in memory order.
static inline uint64_t mp_load64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

/// Whether the stop check asks to stop.
static inline int mp_prog_stop_asked(const mp_prog *prog) {
  return prog->stop_check != NULL && prog->stop_check(prog->stop_context);
}

/// The four kinds of progressive scan.
enum { MP_DC_FIRST, MP_DC_REFINE, MP_AC_FIRST, MP_AC_REFINE };

/// One scan being decoded.
typedef struct {
  mp_prog *prog;
  const mp_prog_scan *scan;
  mp_bits bits;
  uint32_t eobrun;
  /// The scan's spectral band, as mask bits.
  uint64_t band;
} mp_scan_state;

/// Decodes the entropy-coded data of the scan `s` describes, every block
/// of it, leaving `s->bits` at the end of the data: with portable bit
/// operations, and with BMI2 and POPCNT (call only where the CPU has them).
mp_prog_result mp_prog_entropy_decode_portable(mp_scan_state *s);
mp_prog_result mp_prog_entropy_decode_bmi2(mp_scan_state *s);

/// A buffer of at least `size` bytes (its size in *capacity), kept from an
/// earlier decode when one fits; not cleared. NULL when out of memory.
void *mp_prog_workspace_take(size_t size, size_t *capacity);

/// Gives back a buffer from mp_prog_workspace_take, to keep or free.
void mp_prog_workspace_give(void *memory, size_t capacity);

/// Each byte with its bits in reverse order.
extern const uint8_t mp_reversed_byte[256];

/// Whether the CPU has what the BMI2 entropy decoder uses.
int mp_prog_cpu_has_bmi2(void);

/// Decodes `first` (whose header libjpeg read) from its entropy-coded data
/// at `data`, then every scan after it, up to the EOI marker.
mp_prog_result mp_prog_run_scans(mp_prog *prog, const mp_prog_scan *first, const uint8_t *data, size_t size);

#endif
