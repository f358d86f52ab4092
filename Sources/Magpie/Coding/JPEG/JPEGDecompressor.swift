import CMagpieCodecs

/// One libjpeg decompression, step by step, over the C shim in
/// `magpie_jpeg.c`: every libjpeg call (and its longjmp) stays in C; this
/// type turns the statuses into ``MagpieError``s.
///
/// The bytes given to ``readHeader(_:)`` must stay valid until the
/// decompressor is released.
final class JPEGDecompressor {
  private let handle: OpaquePointer
  /// Set before ``setOutput(scaleDenominator:maxMemory:)`` for a CMYK
  /// image with a usable profile: libjpeg then hands over the stored CMYK
  /// and ``readRows(into:stride:count:)`` converts it through this to sRGB,
  /// instead of the naive inversion.
  var cmykTransform: ColorTransform?
  private var outputWidth = 0
  /// The deadline libjpeg's progress monitor checks, boxed for the C
  /// callback's context; kept alive here as long as the decoder.
  private var deadline: DeadlineBox?

  /// A ``DecodeDeadline`` behind a pointer C can carry.
  private final class DeadlineBox {
    let deadline: DecodeDeadline
    init(_ deadline: DecodeDeadline) { self.deadline = deadline }
  }

  /// A fresh decoder; fails only when out of memory.
  init() throws(MagpieError) {
    guard let handle = mp_jpeg_decoder_create() else {
      throw MagpieError(.imageTooLarge, "out of memory creating a JPEG decoder")
    }
    self.handle = handle
  }

  deinit { mp_jpeg_decoder_destroy(handle) }

  /// Makes libjpeg stop once `deadline` has passed: its progress monitor
  /// asks once per iMCU row, both while a multi-scan image's scans are read
  /// in ``start()`` and while rows are decoded.
  func setDeadline(_ deadline: DecodeDeadline) {
    guard deadline.limit != nil else { return }
    let box = DeadlineBox(deadline)
    self.deadline = box
    mp_jpeg_decoder_set_stop_check(
      handle,
      { context in
        guard let context else { return 0 }
        // Asked for every few rows: no retain and release of the box each time.
        return Unmanaged<DeadlineBox>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.deadline.hasPassed } ? 1 : 0
      }, Unmanaged.passUnretained(box).toOpaque())
  }

  /// Reads the markers up to the first scan.
  func readHeader(_ bytes: UnsafeRawBufferPointer) throws(MagpieError) -> mp_jpeg_header {
    var header = mp_jpeg_header()
    guard let base = bytes.baseAddress, !bytes.isEmpty else {
      throw MagpieError(.truncatedData, "the JPEG data is empty")
    }
    try check(mp_jpeg_decoder_read_header(handle, base.assumingMemoryBound(to: UInt8.self), bytes.count, &header))
    return header
  }

  /// Picks 1/`scaleDenominator` DCT scaling and RGBA output; returns the
  /// size libjpeg will produce.
  func setOutput(scaleDenominator: Int, maxMemory: Int) throws(MagpieError) -> PixelSize {
    var width: UInt32 = 0
    var height: UInt32 = 0
    try check(
      mp_jpeg_decoder_set_output(
        handle, UInt32(scaleDenominator), cmykTransform == nil ? MP_JPEG_OUTPUT_RGBA : MP_JPEG_OUTPUT_CMYK,
        max(0, maxMemory), &width, &height))
    outputWidth = Int(width)
    return PixelSize(width: Int(width), height: Int(height))
  }

  /// For a progressive image, leaves out the scans the chosen output scale
  /// does not read (only DC coefficients when `dcOnly`); returns how many
  /// scans are kept and dropped (both 0 when nothing changed). Goes between
  /// ``setOutput(scaleDenominator:maxMemory:)`` and ``start()``.
  func skipUnneededScans(dcOnly: Bool) throws(MagpieError) -> (kept: Int, dropped: Int) {
    var kept: UInt32 = 0
    var dropped: UInt32 = 0
    try check(mp_jpeg_decoder_skip_unneeded_scans(handle, dcOnly ? 1 : 0, &kept, &dropped))
    return (Int(kept), Int(dropped))
  }

  /// The decoders ``start()`` may use for a progressive image that Magpie's
  /// own decoder takes (see mp_jpeg_decoder_start).
  enum ProgressiveDecoding: Sendable {
    /// libjpeg for every image.
    case libjpeg
    /// Magpie's own, with the fastest bit operations the CPU has.
    case own
    /// Magpie's own with portable bit operations (the same pixels; tests).
    case ownPortable
  }

  /// Which progressive decoder ``start()`` uses; Magpie's own by default.
  var progressiveDecoding = ProgressiveDecoding.own {
    didSet {
      let choice: mp_jpeg_progressive_decoder
      switch progressiveDecoding {
      case .libjpeg: choice = MP_JPEG_PROGRESSIVE_LIBJPEG
      case .own: choice = MP_JPEG_PROGRESSIVE_OWN
      case .ownPortable: choice = MP_JPEG_PROGRESSIVE_OWN_PORTABLE
      }
      mp_jpeg_decoder_set_progressive_decoder(handle, choice)
    }
  }

  /// Whether ``start()`` decoded the image with Magpie's own progressive
  /// decoder rather than libjpeg.
  var usedOwnProgressiveDecoder: Bool { mp_jpeg_decoder_used_own_progressive(handle) != 0 }

  /// Starts decompression; a multi-scan image reads all its input here.
  func start() throws(MagpieError) {
    try check(mp_jpeg_decoder_start(handle))
  }

  /// Decodes `count` rows of RGBA into `rows`, `stride` bytes apart; throws
  /// unless every row was written.
  func readRows(into rows: UnsafeMutableRawPointer, stride: Int, count: Int) throws(MagpieError) {
    var written: UInt32 = 0
    try check(
      mp_jpeg_decoder_read_rows(
        handle, rows.assumingMemoryBound(to: UInt8.self), stride, UInt32(count), &written))
    if Int(written) != count {
      throw MagpieError(.corruptData, "libjpeg produced \(written) of \(count) JPEG rows")
    }
    cmykTransform?.apply(to: rows, width: outputWidth, height: count, stride: stride, premultiplied: false)
  }

  /// Ends decompression. Whatever follows the last row (trailing markers,
  /// junk) cannot spoil rows already decoded, so its errors are not reported.
  func finish() {
    _ = mp_jpeg_decoder_finish(handle)
  }

  /// Whether the data ended before all of the image's coded data, so libjpeg
  /// filled the rest.
  var isIncomplete: Bool { mp_jpeg_decoder_is_incomplete(handle) != 0 }

  /// How many warnings libjpeg raised about data it worked around.
  var warningCount: Int { Int(mp_jpeg_decoder_warning_count(handle)) }

  /// The error thrown for an incomplete image when partial images are not
  /// wanted.
  var truncationError: MagpieError {
    let warning = String(cString: mp_jpeg_decoder_first_warning(handle))
    return MagpieError(.truncatedData, "the JPEG data ends before the image does (libjpeg: \(warning))")
  }

  private func check(_ status: mp_jpeg_status) throws(MagpieError) {
    if status == MP_JPEG_OK { return }
    let message = String(cString: mp_jpeg_decoder_message(handle))
    switch status {
    case MP_JPEG_TRUNCATED:
      throw MagpieError(.truncatedData, "the JPEG data ends early: \(message)")
    case MP_JPEG_TOO_LARGE:
      throw MagpieError(.imageTooLarge, "the JPEG is too large to decode: \(message)")
    case MP_JPEG_UNSUPPORTED:
      throw MagpieError(.unsupportedFormat, "this JPEG variant is not supported: \(message)")
    case MP_JPEG_STOPPED:
      // The deadline says how long it ran; the fallback only if the clock
      // went back in between.
      try deadline?.deadline.check("the JPEG's scanline loop")
      throw MagpieError(.limitExceeded, "the JPEG decode ran past decodeTimeLimit")
    case MP_JPEG_MISUSE:
      throw MagpieError(.invalidArgument, "JPEG decoder misused: \(message)")
    default:
      throw MagpieError(.corruptData, "the JPEG data is corrupt: \(message)")
    }
  }
}
