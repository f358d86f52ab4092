import CGIF
import Foundation

/// Walks a GIF in memory record by record with giflib's DGif API, handing
/// out one frame's compressed data at a time, so memory stays bounded by a
/// frame instead of every frame's raster (what `DGifSlurp` would hold).
///
/// Must not outlive the bytes it reads: it exists inside
/// ``withReader(_:_:)``, or over bytes its owner keeps (``GIFFrameSource``).
/// giflib reports errors by return codes, so every call here returns
/// normally; a failure becomes a ``MagpieError``, `.truncatedData` when the
/// input ran out and `.corruptData` otherwise.
final class GIFFileReader {
  /// What one image descriptor and the extensions before it say.
  struct FrameHeader {
    /// Left edge on the logical screen.
    var left: Int
    /// Top edge on the logical screen.
    var top: Int
    /// Width of the frame's own raster.
    var width: Int
    /// Height of the frame's own raster.
    var height: Int
    /// Whether rows are stored in the four-pass interlaced order.
    var isInterlaced: Bool
    /// Disposal method from the graphic control extension (0 when absent).
    var disposal: Int
    /// Delay in hundredths of a second (0 when absent).
    var delayCentiseconds: Int
    /// The transparent palette index, if the frame has one.
    var transparentIndex: Int?
  }

  /// The read position the input callback advances; lives at a stable
  /// address for giflib's `UserData`.
  private struct Input {
    var base: UnsafePointer<UInt8>
    var count: Int
    var offset: Int
    var ranShort: Bool
  }

  private let input: UnsafeMutablePointer<Input>
  private let gif: UnsafeMutablePointer<GifFileType>
  /// Graphic control extension waiting for the next image.
  private var pendingControl: (disposal: Int, delay: Int, transparent: Int?)?

  /// Logical screen width.
  let screenWidth: Int
  /// Logical screen height.
  let screenHeight: Int
  /// The NETSCAPE2.0 / ANIMEXTS1.0 loop count, once seen.
  private(set) var loopCount: Int?
  /// The first ICCRGBG1012 extension's profile bytes, once seen.
  private(set) var iccData: Data?
  /// Image descriptors read so far.
  private(set) var frameCount = 0
  /// Why the data stopped making sense: a bad record or extension, or a
  /// descriptor cut short, after the first frame (set by ``nextFrame()``,
  /// which then returns `nil`), or a frame's data blocks cut short (set by
  /// ``readCompressedData(into:frame:)``, for any frame). Nothing is read
  /// after it.
  private(set) var damage: MagpieError?

  /// Runs `body` with a reader over `data`'s bytes, which stay pinned for
  /// the call; the reader must not escape.
  static func withReader<R>(
    _ data: Data, _ body: (GIFFileReader) throws(MagpieError) -> R
  ) throws(MagpieError) -> R {
    try PinnedBytes.with(data) { bytes throws(MagpieError) -> R in try body(try GIFFileReader(bytes: bytes)) }
  }

  /// A reader over `bytes`, which must stay valid and unchanged for the
  /// reader's life.
  init(bytes: UnsafeRawBufferPointer) throws(MagpieError) {
    guard let base = bytes.baseAddress, bytes.count > 0 else {
      throw MagpieError(.truncatedData, "gif data is empty")
    }
    input = .allocate(capacity: 1)
    input.initialize(
      to: Input(base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, offset: 0, ranShort: false))
    var error: Int32 = 0
    // A literal closure that captures nothing converts to giflib's C function pointer.
    guard
      let opened = DGifOpen(input, { gif, buffer, length in GIFFileReader.read(gif, buffer, length) }, &error)
    else {
      let ranShort = input.pointee.ranShort
      input.deinitialize(count: 1)
      input.deallocate()
      throw GIFFileReader.error(code: error, ranShort: ranShort, while: "reading the gif header")
    }
    gif = opened
    screenWidth = Int(opened.pointee.SWidth)
    screenHeight = Int(opened.pointee.SHeight)
  }

  deinit {
    DGifCloseFile(gif, nil)
    input.deinitialize(count: 1)
    input.deallocate()
  }

  /// giflib's input callback: copies up to `length` bytes, fewer at the end.
  private static func read(
    _ gif: UnsafeMutablePointer<GifFileType>?, _ buffer: UnsafeMutablePointer<GifByteType>?, _ length: Int32
  ) -> Int32 {
    guard let gif, let buffer, length > 0, let userData = gif.pointee.UserData else { return 0 }
    let input = userData.assumingMemoryBound(to: Input.self)
    let wanted = Int(length)
    let n = min(wanted, input.pointee.count - input.pointee.offset)
    if n < wanted { input.pointee.ranShort = true }
    guard n > 0 else { return 0 }
    buffer.update(from: input.pointee.base + input.pointee.offset, count: n)
    input.pointee.offset += n
    return Int32(n)
  }

  /// Where the next record starts, once a frame's data has been read.
  var recordOffset: Int { input.pointee.offset }

  /// Moves to the record at `offset`, the start of the records of frame
  /// `framesRead + 1` (a ``recordOffset`` taken at a record boundary), as
  /// if the frames before it had been read; clears ``damage``.
  func seek(toRecordAt offset: Int, framesRead: Int) {
    input.pointee.offset = offset
    input.pointee.ranShort = false
    frameCount = framesRead
    pendingControl = nil
    damage = nil
  }

  /// The error for a giflib call that just failed while doing `what`.
  func failure(_ what: String) -> MagpieError {
    GIFFileReader.error(code: gif.pointee.Error, ranShort: input.pointee.ranShort, while: what)
  }

  /// Reads records up to the next image descriptor and returns it, or `nil`
  /// at the trailer. After at least one frame, data that ends exactly
  /// between records (a missing trailer) ends the image cleanly; a bad
  /// record, extension or descriptor ends it too, as browsers do, and is
  /// kept in ``damage``. Before the first frame both are thrown.
  func nextFrame() throws(MagpieError) -> FrameHeader? {
    guard damage == nil else { return nil }
    while true {
      var type = UNDEFINED_RECORD_TYPE
      guard DGifGetRecordType(gif, &type) == GIF_OK else {
        if frameCount == 0 { throw failure("looking for the first frame") }
        // The record byte itself was missing: only the trailer is lost.
        if !input.pointee.ranShort { damage = failure("looking for frame \(frameCount + 1)") }
        return nil
      }
      if type == TERMINATE_RECORD_TYPE {
        guard frameCount > 0 else { throw MagpieError(.corruptData, "gif ends without any frame") }
        return nil
      }
      do throws(MagpieError) {
        if let frame = try nextRecord(type) { return frame }
      } catch {
        guard frameCount > 0 else { throw error }
        damage = error
        return nil
      }
    }
  }

  /// Reads one record of `type` (not the trailer): the frame for an image
  /// descriptor, `nil` after an extension.
  private func nextRecord(_ type: GifRecordType) throws(MagpieError) -> FrameHeader? {
    switch type {
    case IMAGE_DESC_RECORD_TYPE:
      // DGifGetImageHeader, unlike DGifGetImageDesc, keeps no per-frame copy.
      guard DGifGetImageHeader(gif) == GIF_OK else { throw failure("reading frame \(frameCount + 1)'s descriptor") }
      let image = gif.pointee.Image
      let control = pendingControl
      pendingControl = nil
      frameCount += 1
      return FrameHeader(
        left: Int(image.Left), top: Int(image.Top), width: Int(image.Width), height: Int(image.Height),
        isInterlaced: image.Interlace, disposal: control?.disposal ?? 0, delayCentiseconds: control?.delay ?? 0,
        transparentIndex: control?.transparent)
    case EXTENSION_RECORD_TYPE:
      try readExtension()
      return nil
    default:
      throw failure(frameCount > 0 ? "looking for frame \(frameCount + 1)" : "looking for the first frame")
    }
  }

  private func readExtension() throws(MagpieError) {
    var code: Int32 = 0
    var block: UnsafeMutablePointer<GifByteType>?
    guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw failure("reading an extension") }
    var isLoopExtension = false
    var icc: Data?
    var first = true
    while let data = block {
      // Each block is a Pascal string: data[0] is its length.
      let length = Int(data[0])
      if code == GRAPHICS_EXT_FUNC_CODE && first && length >= 4 {
        let packed = Int(data[1])
        pendingControl = (
          disposal: (packed >> 2) & 7, delay: Int(data[2]) | Int(data[3]) << 8,
          transparent: packed & 1 != 0 ? Int(data[4]) : nil
        )
      } else if code == APPLICATION_EXT_FUNC_CODE && first && length == 11 {
        let identifier = String(decoding: UnsafeBufferPointer(start: data + 1, count: 11), as: UTF8.self)
        isLoopExtension = identifier == "NETSCAPE2.0" || identifier == "ANIMEXTS1.0"
        if identifier == "ICCRGBG1012" && iccData == nil { icc = Data() }
      } else if !first, icc != nil {
        Self.append(data + 1, count: length, toProfile: &icc)
      } else if isLoopExtension && !first && length >= 3 && data[1] & 7 == 1 {
        loopCount = Int(data[2]) | Int(data[3]) << 8
      }
      first = false
      guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw failure("reading an extension") }
    }
    if let icc, !icc.isEmpty { iccData = icc }
  }

  /// Fills `table` (256 entries of RGBA as stored in memory, each opaque or 0)
  /// for the frame just returned by ``nextFrame()``, as Firefox does: the
  /// local table, else the global one, else opaque white; indices past the
  /// table wrap by the table's bit depth, and the transparent index (and
  /// every index that wraps onto it) becomes 0, which the compositor skips.
  ///
  /// Palette indices outside a table smaller than 256 entries follow
  /// Firefox's rule, read in mozilla/gecko-dev
  /// image/decoders/nsGIFDecoder2.cpp: `FinishImageDescriptor` takes the
  /// table's depth, raises it until the transparent index fits (`realDepth`)
  /// and sets `mColorMask = 0xFF >> (8 - realDepth)`; `ColormapIndexToPixel`
  /// reads `mColormap[aIndex & mColorMask]`; colormap entries the table does
  /// not fill are opaque white (the constructor and `FinishImageDescriptor`
  /// memset them to 0xFF). Chrome decodes GIF with Wuffs, which does not
  /// wrap: std/gif/decode_gif.wuffs sets every entry past the table to
  /// opaque black. Firefox's rule is the one kept here because it is also
  /// the rule this reader already used for a file with no table (white).
  /// One corner is not copied: with no table at all Firefox still masks by
  /// the screen descriptor's size bits, which only changes which indices
  /// match the transparent one; here only the transparent index itself does.
  func fillColorTable(_ table: UnsafeMutablePointer<UInt32>, transparentIndex: Int?) {
    let white = UInt32(0xFFFF_FFFF)
    let map = gif.pointee.Image.ColorMap ?? gif.pointee.SColorMap
    var bits = 8
    if let map {
      bits = max(1, Int(map.pointee.BitsPerPixel))
      if let transparentIndex { while transparentIndex >= 1 << bits && bits < 8 { bits += 1 } }
    }
    let mask = (1 << bits) - 1
    let colors = map.map { (pointer: $0.pointee.Colors, count: Int($0.pointee.ColorCount)) }
    for index in 0..<256 {
      let entry = index & mask
      if entry == transparentIndex {
        table[index] = 0
      } else if let colors, let base = colors.pointer, entry < colors.count {
        let c = base[entry]
        let rgba = UInt32(c.Red) | UInt32(c.Green) << 8 | UInt32(c.Blue) << 16 | 0xFF00_0000
        table[index] = rgba.littleEndian
      } else {
        table[index] = white
      }
    }
  }

  /// Appends the current frame's compressed data sub-blocks, joined, to
  /// `buffer` (emptied first) and returns the LZW minimum code size (0 when
  /// it could not be read). When the blocks cannot all be read (the input
  /// runs out: `.truncatedData`), `buffer` keeps those that were and
  /// ``damage`` says why.
  func readCompressedData(into buffer: inout [UInt8], frame: Int) -> Int {
    buffer.removeAll(keepingCapacity: true)
    var block: UnsafeMutablePointer<GifByteType>?
    var codeSize: Int32 = 0
    guard DGifGetCode(gif, &codeSize, &block) == GIF_OK else {
      damage = failure("reading frame \(frame)")
      return 0
    }
    while let data = block {
      // A Pascal string: data[0] is the block's length.
      buffer.append(contentsOf: UnsafeBufferPointer(start: data + 1, count: Int(data[0])))
      guard DGifGetCodeNext(gif, &block) == GIF_OK else {
        damage = failure("reading frame \(frame)")
        break
      }
    }
    return Int(codeSize)
  }

  /// Skips the rest of the current frame's compressed data blocks without
  /// decoding them.
  func skipImageData(frame: Int) throws(MagpieError) {
    var block: UnsafeMutablePointer<GifByteType>?
    var codeSize: Int32 = 0
    guard DGifGetCode(gif, &codeSize, &block) == GIF_OK else { throw failure("skipping frame \(frame)") }
    while block != nil {
      guard DGifGetCodeNext(gif, &block) == GIF_OK else { throw failure("skipping frame \(frame)") }
    }
  }
}
