import CGIF
import Foundation

/// A GIF being written by giflib's EGif API into a growable in-memory
/// buffer, one frame at a time: the screen descriptor (with the first
/// frame's palette as the global colour table) and the loop extension go
/// out with the first frame, later frames carry local tables.
final class GIFOutput {
  private let width: Int
  private let height: Int
  private let loopCount: Int?
  private let output: UnsafeMutablePointer<[UInt8]>
  private let gif: UnsafeMutablePointer<GifFileType>
  private var written = 0
  private var closed = false

  /// Starts a `width`x`height` GIF; `loopCount` `nil` writes no loop
  /// extension (a still), 1 neither (that is how a GIF says "play once").
  init(width: Int, height: Int, loopCount: Int?) throws(MagpieError) {
    self.width = width
    self.height = height
    self.loopCount = loopCount
    output = UnsafeMutablePointer<[UInt8]>.allocate(capacity: 1)
    output.initialize(to: [])
    var error: Int32 = 0
    guard let gif = EGifOpen(output, { gif, bytes, length in GIFOutput.append(gif, bytes, length) }, &error) else {
      output.deinitialize(count: 1)
      output.deallocate()
      throw MagpieError(.encodingFailed, "giflib could not start a gif (error \(error))")
    }
    self.gif = gif
    EGifSetGifVersion(gif, true)
  }

  deinit {
    if !closed { EGifCloseFile(gif, nil) }
    output.deinitialize(count: 1)
    output.deallocate()
  }

  /// Writes `frame`, to be disposed of with GIF disposal method `disposal`
  /// (0 unspecified, 1 keep, 2 restore to background).
  func put(_ frame: GIFEncodedFrame, disposal: Int) throws(MagpieError) {
    if written == 0 { try putHeader(palette: frame.palette) }
    let number = written + 1
    if disposal != 0 || frame.transparentIndex != nil {
      var control = GraphicsControlBlock(
        DisposalMode: Int32(disposal), UserInputFlag: false, DelayTime: Int32(frame.delayCentiseconds),
        TransparentColor: Int32(frame.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
      var extensionBytes = [GifByteType](repeating: 0, count: 4)
      let length = EGifGCBToExtension(&control, &extensionBytes)
      try check(
        EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), &extensionBytes), "writing frame \(number)")
    }
    let local = written == 0 ? nil : Self.makeColorMap(frame.palette)
    let status = EGifPutImageDesc(
      gif, Int32(frame.x), Int32(frame.y), Int32(frame.width), Int32(frame.height), false, local)
    if let local { GifFreeMapObject(local) }
    try check(status, "writing frame \(number)'s descriptor")
    var indices = frame.indices
    try check(EGifPutLine(gif, &indices, Int32(indices.count)), "compressing frame \(number)")
    written += 1
  }

  /// Ends the file and returns its bytes.
  func finish() throws(MagpieError) -> Data {
    guard written > 0 else { throw MagpieError(.invalidArgument, "a gif needs at least one frame") }
    closed = true
    var error: Int32 = 0
    guard EGifCloseFile(gif, &error) == GIF_OK else {
      throw MagpieError(.encodingFailed, "giflib failed finishing the gif (error \(error))")
    }
    return Data(output.pointee)
  }

  private func putHeader(palette: [SIMD3<Int32>]) throws(MagpieError) {
    guard let global = Self.makeColorMap(palette) else {
      throw MagpieError(.encodingFailed, "giflib could not make a colour map")
    }
    let screenStatus = EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, global)
    GifFreeMapObject(global)
    try check(screenStatus, "writing the screen descriptor")
    guard let loopCount, loopCount != 1 else { return }
    let count = UInt16(clamping: loopCount)
    try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), "writing the loop extension")
    var identifier = Array("NETSCAPE2.0".utf8)
    try check(EGifPutExtensionBlock(gif, 11, &identifier), "writing the loop extension")
    var loop: [UInt8] = [1, UInt8(count & 0xFF), UInt8(count >> 8)]
    try check(EGifPutExtensionBlock(gif, 3, &loop), "writing the loop extension")
    try check(EGifPutExtensionTrailer(gif), "writing the loop extension")
  }

  private func check(_ status: Int32, _ what: String) throws(MagpieError) {
    guard status == GIF_OK else {
      let message = GifErrorString(gif.pointee.Error).map { String(cString: $0) } ?? "error \(gif.pointee.Error)"
      throw MagpieError(.encodingFailed, "giflib failed \(what): \(message)")
    }
  }

  /// giflib's output callback: appends to the `[UInt8]` in `UserData`.
  private static func append(
    _ gif: UnsafeMutablePointer<GifFileType>?, _ bytes: UnsafePointer<GifByteType>?, _ length: Int32
  ) -> Int32 {
    guard let gif, let bytes, length > 0, let userData = gif.pointee.UserData else { return 0 }
    userData.assumingMemoryBound(to: [UInt8].self).pointee.append(
      contentsOf: UnsafeBufferPointer(start: bytes, count: Int(length)))
    return length
  }

  /// A giflib colour map for `palette`, padded to a power of two; free it
  /// with `GifFreeMapObject`.
  private static func makeColorMap(_ palette: [SIMD3<Int32>]) -> UnsafeMutablePointer<ColorMapObject>? {
    var size = 2
    while size < palette.count { size *= 2 }
    var colors = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size)
    for (i, c) in palette.enumerated() {
      colors[i] = GifColorType(
        Red: GifByteType(truncatingIfNeeded: c[0]), Green: GifByteType(truncatingIfNeeded: c[1]),
        Blue: GifByteType(truncatingIfNeeded: c[2]))
    }
    return GifMakeMapObject(Int32(size), colors)
  }
}
