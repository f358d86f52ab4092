#ifndef MAGPIE_JPEG_H
#define MAGPIE_JPEG_H

// A thin, handle-based wrapper over libjpeg-turbo's classic API.
//
// libjpeg reports errors by longjmp; every call that can longjmp happens
// inside one of these functions, after a setjmp in that same function, so no
// longjmp ever crosses a Swift frame. Failures come back as an mp_jpeg_status
// plus a message copied into the handle (or the result struct).
//
// Decoding is a sequence of steps so that later work (buffered-image mode,
// progressive passes) can slot in between them:
//   create -> read_header -> set_output -> start -> read_rows... -> finish -> destroy
// A failed step leaves the handle usable only for destroy.

#include <stddef.h>
#include <stdint.h>

/// The longest message a call copies out, terminator included.
#define MP_JPEG_MESSAGE_MAX 200

/// The most scans a multi-scan (progressive) JPEG may have before decoding
/// stops with MP_JPEG_CORRUPT: real encoders write about ten, and each scan
/// costs a pass over the whole image.
#define MP_JPEG_MAX_SCANS 500

/// What a call did.
typedef enum {
  /// The step succeeded.
  MP_JPEG_OK = 0,
  /// libjpeg rejected the data; the message says why.
  MP_JPEG_CORRUPT = 1,
  /// libjpeg failed after the data ran out (or the header itself was cut off).
  MP_JPEG_TRUNCATED = 2,
  /// The image needs more memory than allowed or is larger than libjpeg handles.
  MP_JPEG_TOO_LARGE = 3,
  /// A valid JPEG that this build cannot decode (12-bit samples, unknown colour space).
  MP_JPEG_UNSUPPORTED = 4,
  /// The caller broke the call order or passed a bad argument.
  MP_JPEG_MISUSE = 5,
  /// The stop check set with mp_jpeg_decoder_set_stop_check asked to stop
  /// (the decode ran past its time limit).
  MP_JPEG_STOPPED = 6,
} mp_jpeg_status;

/// The colour space of the stored components.
typedef enum {
  MP_JPEG_COLOR_UNKNOWN = 0,
  MP_JPEG_COLOR_GRAY = 1,
  MP_JPEG_COLOR_YCBCR = 2,
  MP_JPEG_COLOR_RGB = 3,
  /// CMYK; decoded as Adobe-inverted CMYK, as browsers do.
  MP_JPEG_COLOR_CMYK = 4,
  /// YCCK (Adobe transform 2); libjpeg turns it into CMYK.
  MP_JPEG_COLOR_YCCK = 5,
} mp_jpeg_color_space;

/// The pixel layout read_rows writes.
typedef enum {
  /// Straight RGBA8, alpha 255, whatever the stored colour space.
  MP_JPEG_OUTPUT_RGBA = 0,
  /// For CMYK and YCCK images only: the CMYK samples as stored (Adobe
  /// inverted, 255 = no ink), 4 bytes a pixel, for a colour profile to convert.
  MP_JPEG_OUTPUT_CMYK = 1,
} mp_jpeg_output_format;

/// What the header says. Pointers stay valid until the decoder is destroyed.
typedef struct {
  /// Stored size in pixels (before EXIF orientation).
  uint32_t width;
  uint32_t height;
  /// Number of colour components (1, 3 or 4 for decodable images).
  int components;
  mp_jpeg_color_space color_space;
  /// Non-zero for a progressive (SOF2) image.
  int is_progressive;
  /// Non-zero when the image is coded in more than one scan.
  int has_multiple_scans;
  /// Non-zero when an Adobe APP14 marker was seen; its transform value.
  int has_adobe_marker;
  int adobe_transform;
  /// Sampling factors of the first four components (0 past `components`).
  uint8_t h_samp[4];
  uint8_t v_samp[4];
  /// The first APP1 segment that starts with "Exif\0\0" (prefix included),
  /// or NULL.
  const uint8_t *exif;
  size_t exif_length;
  /// The ICC profile assembled from the APP2 "ICC_PROFILE" markers (in
  /// their sequence order), or NULL when there is none or the markers do
  /// not fit together. No longer than the markers, so bounded by the data.
  const uint8_t *icc;
  size_t icc_length;
} mp_jpeg_header;

/// A decoder; opaque.
typedef struct mp_jpeg_decoder mp_jpeg_decoder;

/// A new decoder, or NULL when out of memory.
mp_jpeg_decoder *mp_jpeg_decoder_create(void);

/// Asked from libjpeg's progress monitor (once per iMCU row while scans are
/// read and rows decoded): return nonzero to stop the decode with
/// MP_JPEG_STOPPED.
typedef int (*mp_jpeg_stop_check)(void *context);

/// Sets the check asked during decoding, or none with NULL; `context` is
/// passed to it and must outlive the decoder's use.
void mp_jpeg_decoder_set_stop_check(mp_jpeg_decoder *dec, mp_jpeg_stop_check check, void *context);

/// Frees the decoder and everything libjpeg allocated for it. NULL is fine.
void mp_jpeg_decoder_destroy(mp_jpeg_decoder *decoder);

/// Reads the markers up to the first scan from `data`, which must stay valid
/// and unchanged until the decoder is destroyed. Saves APP1 segments so the
/// EXIF block can be returned, and APP2 segments for the ICC profile. MP_JPEG_TRUNCATED when the data ended inside
/// the header.
mp_jpeg_status mp_jpeg_decoder_read_header(mp_jpeg_decoder *decoder, const uint8_t *data, size_t size,
                                           mp_jpeg_header *header);

/// Chooses DCT scaling (1/scale_denom, with scale_denom 1, 2, 4 or 8) and
/// the output format, caps libjpeg's whole-image buffers (multi-scan files)
/// at `max_memory` bytes (0: no cap) and returns the output size libjpeg
/// will produce. May be called again before start.
mp_jpeg_status mp_jpeg_decoder_set_output(mp_jpeg_decoder *decoder, unsigned scale_denom,
                                          mp_jpeg_output_format format, size_t max_memory,
                                          uint32_t *output_width, uint32_t *output_height);

/// For a progressive JPEG, after set_output and before start: leaves out of
/// the input the scans that add nothing to the chosen output scale, so they
/// are never entropy-decoded (they are skipped by finding the next marker).
/// At 1/8 scale libjpeg's IDCT reads only each block's DC coefficient (and,
/// for subsampled chroma that it scales up by IDCT instead of upsampling,
/// what its 2x2 IDCT reads); libjpeg-turbo's 2x2 IDCT reads rows and
/// columns 0, 1, 3, 5 and 7 of the coefficients, its 4x4 all but 4. A scan is kept
/// when it codes a coefficient the output reads, or when a kept refinement
/// scan depends on it (refining a band needs every earlier scan of that
/// band), so every coefficient the output reads comes out bit for bit as in
/// a full decode. With `dc_only` non-zero, only DC coefficients count as
/// needed for every component: chroma then loses the detail of its 2x2 IDCT
/// (the caller decides when that is acceptable). Sets *kept and *dropped to
/// the number of scans kept and left out (both 0 when the image is not
/// progressive or no scan can go, and nothing changes).
/// MP_JPEG_TOO_LARGE when out of memory, and nothing changes.
mp_jpeg_status mp_jpeg_decoder_skip_unneeded_scans(mp_jpeg_decoder *decoder, int dc_only, unsigned *kept,
                                                   unsigned *dropped);

/// Starts decompression. A multi-scan image reads all its input here.
///
/// A progressive image at 1/4 or 1/8 scale, or at 1/2 without vertically
/// subsampled chroma (8-bit, Huffman-coded, YCbCr 4:2:0, 4:2:2, 4:4:4 or
/// greyscale), is decoded by
/// Magpie's own progressive decoder unless set_progressive_decoder says
/// otherwise: libjpeg-turbo's pixels on x86-64 bit for bit, in about half
/// the time (each block's nonzero coefficients kept as a bit mask, so that
/// refinement scans find their runs and correction bits with bit
/// operations, and only the coefficients the reduced IDCT reads kept).
/// Anything it would have to work around (corrupt or truncated data, a
/// bogus progression) it leaves to libjpeg, which then decodes the image as
/// it always did.
mp_jpeg_status mp_jpeg_decoder_start(mp_jpeg_decoder *decoder);

/// Which decoder start uses for the progressive images Magpie's own
/// decoder takes.
typedef enum {
  /// libjpeg for every image.
  MP_JPEG_PROGRESSIVE_LIBJPEG = 0,
  /// Magpie's own, with the fastest bit operations the CPU has (the default).
  MP_JPEG_PROGRESSIVE_OWN = 1,
  /// Magpie's own with portable bit operations only, whatever the CPU has
  /// (for tests: the pixels are the same).
  MP_JPEG_PROGRESSIVE_OWN_PORTABLE = 2,
} mp_jpeg_progressive_decoder;

/// Chooses the progressive decoder; call before start.
void mp_jpeg_decoder_set_progressive_decoder(mp_jpeg_decoder *decoder, mp_jpeg_progressive_decoder choice);

/// Non-zero when start decoded the image with Magpie's own progressive
/// decoder.
int mp_jpeg_decoder_used_own_progressive(const mp_jpeg_decoder *decoder);

/// Decodes up to `max_rows` rows in the output format into `rows`,
/// `stride` bytes apart, continuing where the last call stopped. Stores how
/// many rows it wrote in `rows_written`.
mp_jpeg_status mp_jpeg_decoder_read_rows(mp_jpeg_decoder *decoder, uint8_t *rows, size_t stride,
                                         uint32_t max_rows, uint32_t *rows_written);

/// Asks the kernel to back a large output buffer that has not been touched
/// yet with transparent huge pages. Filling a fresh 48 MB buffer page by
/// 4 KiB page costs about half as much again as decoding into it; with huge
/// pages the faults all but vanish. No effect on small buffers or where
/// transparent huge pages are off.
void mp_jpeg_advise_output_buffer(void *start, size_t length);

/// Ends decompression (reads the rest of the markers once all rows are out,
/// else abandons the image).
mp_jpeg_status mp_jpeg_decoder_finish(mp_jpeg_decoder *decoder);

/// The message of the last failure, or "" when none.
const char *mp_jpeg_decoder_message(const mp_jpeg_decoder *decoder);

/// The first libjpeg warning (for example "Premature end of JPEG file"), or "".
const char *mp_jpeg_decoder_first_warning(const mp_jpeg_decoder *decoder);

/// How many warnings libjpeg raised (corrupt data it worked around, EOF).
unsigned mp_jpeg_decoder_warning_count(const mp_jpeg_decoder *decoder);

/// Non-zero when the data ran out before the EOI marker.
int mp_jpeg_decoder_data_ended_early(const mp_jpeg_decoder *decoder);

/// Non-zero when the coded data stopped before the image was full, so that
/// libjpeg filled the rest: the entropy decoder ran short at the EOI marker
/// (the data was cut off, or the header overstates the size), or a
/// multi-scan image ended without its EOI marker. A single-scan image that
/// lacks only its EOI marker is complete.
int mp_jpeg_decoder_is_incomplete(const mp_jpeg_decoder *decoder);

/// What the encoder reads.
typedef enum {
  /// 4 bytes a pixel; the fourth byte is ignored.
  MP_JPEG_INPUT_RGBA = 0,
  MP_JPEG_INPUT_RGB = 1,
  MP_JPEG_INPUT_GRAY = 2,
  /// 4 bytes a pixel, written as-is (Adobe convention: 255 means no ink).
  MP_JPEG_INPUT_CMYK = 3,
} mp_jpeg_input_format;

/// How to encode.
typedef struct {
  const uint8_t *pixels;
  /// Bytes between the starts of two source rows.
  size_t stride;
  uint32_t width;
  uint32_t height;
  /// 0: `pixels` holds `height` rows. Otherwise it holds this many rows and
  /// they repeat down the image (lets tests make huge images cheaply).
  uint32_t source_rows;
  mp_jpeg_input_format input_format;
  /// Stored colour space; MP_JPEG_COLOR_UNKNOWN picks libjpeg's default for
  /// the input (YCbCr for colour, grayscale, CMYK for CMYK).
  mp_jpeg_color_space color_space;
  /// 0-100.
  int quality;
  int progressive;
  int optimize_coding;
  /// Sampling factors per component; 0 keeps libjpeg's default (2x2 luma,
  /// that is 4:2:0, for YCbCr).
  uint8_t h_samp[4];
  uint8_t v_samp[4];
  /// Restart interval in MCUs, or in MCU rows; 0 for none.
  unsigned restart_interval;
  unsigned restart_in_rows;
  /// An EXIF block to write as APP1 (including its "Exif\0\0" prefix), or NULL.
  const uint8_t *exif;
  size_t exif_length;
} mp_jpeg_encode_params;

/// What the encoder made.
typedef struct {
  /// The JPEG bytes, allocated with malloc; free with mp_jpeg_free.
  uint8_t *data;
  size_t size;
  /// Why it failed, when it did.
  char message[MP_JPEG_MESSAGE_MAX];
} mp_jpeg_encode_result;

/// Encodes an image. On failure nothing stays allocated and result->data is NULL.
mp_jpeg_status mp_jpeg_encode(const mp_jpeg_encode_params *params, mp_jpeg_encode_result *result);

/// Frees memory the encoder returned.
void mp_jpeg_free(void *pointer);

#endif
