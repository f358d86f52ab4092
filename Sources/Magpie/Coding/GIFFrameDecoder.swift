/// Decodes one GIF frame after another onto a ``GIFCompositor``: the
/// per-frame work that the eager decode in ``GIFCoder`` and
/// ``GIFFrameSource`` share. Keeps one frame's compressed bytes, the LZW
/// decoder and a 256 KiB band of indices between frames.
final class GIFFrameDecoder {
  /// The canvas the frames are drawn on.
  let canvas: GIFCompositor

  private let lzw = GIFLZWDecoder()
  private var compressed: [UInt8] = []
  /// Indices are decoded a band of rows at a time into this buffer.
  private let band: UnsafeMutablePointer<UInt8>
  private static let bandCapacity = 1 << 18

  /// A decoder onto a transparent canvas of `size`, which the caller has
  /// checked against the pixel limit.
  init(canvas size: PixelSize) {
    canvas = GIFCompositor(width: size.width, height: size.height)
    band = .allocate(capacity: max(Self.bandCapacity, 65535))
  }

  deinit { band.deallocate() }

  /// Disposes of the previous frame and draws `frame`, which `reader` has
  /// just returned as its frame `index` (the first is 1), reading its
  /// compressed data. Returns whether that data was damaged (ended before
  /// the frame's last visible row); a cut-off read is in `reader.damage`.
  @inline(__always)
  func draw(_ frame: GIFFileReader.FrameHeader, index: Int, from reader: GIFFileReader) -> Bool {
    canvas.beginFrame(
      left: frame.left, top: frame.top, frameWidth: frame.width, frameHeight: frame.height,
      disposal: frame.disposal, hasTransparency: frame.transparentIndex != nil)
    reader.fillColorTable(canvas.colorTable, transparentIndex: frame.transparentIndex)
    let codeSize = reader.readCompressedData(into: &compressed, frame: index)
    guard frame.width > 0 && frame.height > 0 else { return false }
    return compressed.withUnsafeBufferPointer { data in
      lzw.reset(data: data, minimumCodeSize: codeSize)
      return decodeRows(of: frame)
    }
  }

  /// Decompresses a frame band by band and draws its rows; returns whether
  /// the data was damaged.
  @inline(__always)
  private func decodeRows(of frame: GIFFileReader.FrameHeader) -> Bool {
    // Locals, so that the loop need not reload them after each row's stores.
    let (canvas, lzw, band) = (canvas, lzw, band)
    let width = frame.width
    let rowsPerBand = max(1, Self.bandCapacity / width)
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
    }
    return false
  }
}
