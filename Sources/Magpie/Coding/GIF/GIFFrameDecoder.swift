/// Decodes one GIF frame after another onto a ``GIFCompositor``: the
/// per-frame work that the eager decode in ``GIFCoder`` and
/// ``GIFFrameSource`` share. An instance keeps what a frame source needs
/// between frames (the canvas, the LZW decoder, one frame's compressed bytes
/// and a 256 KiB band of indices); the eager decode keeps the same state in
/// locals and calls the static ``draw(_:index:from:onto:lzw:band:compressed:)``.
final class GIFFrameDecoder {
  /// Indices are decoded a band of rows at a time into a buffer this large
  /// (at least one row of the widest frame, 65535).
  static let bandCapacity = 1 << 18

  /// The canvas the frames are drawn on.
  let canvas: GIFCompositor

  private let lzw = GIFLZWDecoder()
  private var compressed: [UInt8] = []
  private let band: UnsafeMutablePointer<UInt8>

  /// A decoder onto a transparent canvas of `size`, which the caller has
  /// checked against the pixel limit.
  init(canvas size: PixelSize) {
    canvas = GIFCompositor(width: size.width, height: size.height)
    band = Self.allocateBand()
  }

  deinit { band.deallocate() }

  /// A band buffer for ``draw(_:index:from:onto:lzw:band:compressed:)``;
  /// the caller deallocates it.
  static func allocateBand() -> UnsafeMutablePointer<UInt8> { .allocate(capacity: max(bandCapacity, 65535)) }

  /// Draws `frame` onto this decoder's canvas; see
  /// ``draw(_:index:from:onto:lzw:band:compressed:)``.
  func draw(
    _ frame: GIFFileReader.FrameHeader, index: Int, from reader: GIFFileReader, deadline: DecodeDeadline
  ) throws(MagpieError) -> Bool {
    try Self.draw(
      frame, index: index, from: reader, onto: canvas, lzw: lzw, band: band, compressed: &compressed,
      deadline: deadline)
  }

  /// Disposes of the previous frame and draws `frame`, which `reader` has
  /// just returned as its frame `index` (the first is 1), reading its
  /// compressed data into `compressed`. Returns whether that data was
  /// damaged (ended before the frame's last visible row); a cut-off read is
  /// in `reader.damage`. Checks `deadline` before the frame and between
  /// bands of rows.
  @inline(__always)
  static func draw(
    _ frame: GIFFileReader.FrameHeader, index: Int, from reader: GIFFileReader, onto canvas: GIFCompositor,
    lzw: GIFLZWDecoder, band: UnsafeMutablePointer<UInt8>, compressed: inout [UInt8], deadline: DecodeDeadline
  ) throws(MagpieError) -> Bool {
    try deadline.check("gif frame \(index)")
    canvas.beginFrame(
      left: frame.left, top: frame.top, frameWidth: frame.width, frameHeight: frame.height,
      disposal: frame.disposal, hasTransparency: frame.transparentIndex != nil)
    reader.fillColorTable(canvas.colorTable, transparentIndex: frame.transparentIndex)
    let codeSize = reader.readCompressedData(into: &compressed, frame: index)
    guard frame.width > 0 && frame.height > 0 else { return false }
    return try compressed.withUnsafeBufferPointer { (data) throws(MagpieError) -> Bool in
      lzw.reset(data: data, minimumCodeSize: codeSize)
      return try decodeRows(of: frame, index: index, with: lzw, band: band, onto: canvas, deadline: deadline)
    }
  }

  /// Decompresses a frame band by band and draws its rows; returns whether
  /// the data was damaged.
  private static func decodeRows(
    of frame: GIFFileReader.FrameHeader, index: Int, with lzw: GIFLZWDecoder, band: UnsafeMutablePointer<UInt8>,
    onto canvas: GIFCompositor, deadline: DecodeDeadline
  ) throws(MagpieError) -> Bool {
    let width = frame.width
    let rowsPerBand = max(1, bandCapacity / width)
    // Rows stored past the canvas bottom never show: stop before them
    // unless interlacing mixes them with visible ones.
    let visibleRows = frame.isInterlaced ? frame.height : min(frame.height, max(0, canvas.height - frame.top))
    var sequence = 0
    while sequence < visibleRows {
      let rows = min(rowsPerBand, visibleRows - sequence)
      let produced = lzw.decode(into: band, count: rows * width)
      let complete = produced / width
      for r in 0..<complete {
        let stored = sequence + r
        let y = frame.isInterlaced ? GIFCoder.interlacedRow(stored, height: frame.height) : stored
        canvas.drawRow(band + r * width, frameRow: y)
      }
      sequence += complete
      if complete < rows { return true }
      if sequence < visibleRows { try deadline.check("gif frame \(index) row \(sequence)") }
    }
    return false
  }
}
