/// A bitmap: 8-bit RGBA, rows top to bottom, `bytesPerRow` bytes apart,
/// with its ``alphaRepresentation`` stated.
///
/// Decoders deliver ``AlphaRepresentation/straight`` alpha exactly as the
/// file stores it, so lossless formats keep every value. Resampling, blur,
/// compositing and drawing need premultiplied colour (no dark halos at
/// transparent edges): they premultiply once and return premultiplied
/// buffers. Drawing code gets premultiplied pixels from ``premultiplied()``;
/// encoders and raw export get straight ones from ``straightRGBA()``. The
/// storage is a copy-on-write `[UInt8]`, so a `PixelBuffer` is a value and
/// `Sendable`.
public struct PixelBuffer: Sendable, Equatable {
  /// Bytes per pixel: red, green, blue, alpha.
  public static let bytesPerPixel = 4

  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// Distance in bytes between the starts of two rows; at least `width * 4`.
  public let bytesPerRow: Int
  /// True only when every alpha byte is 255. Decoders of opaque formats set
  /// it so encoders can drop the alpha channel; mutable access clears it
  /// unless the caller promises to keep pixels opaque.
  public internal(set) var isOpaque: Bool
  /// Whether the colour bytes are straight or premultiplied by alpha (the
  /// same bytes when the buffer is opaque).
  public internal(set) var alphaRepresentation: AlphaRepresentation
  /// The RGBA bytes, `bytesPerRow * height` of them, in
  /// ``alphaRepresentation``.
  public internal(set) var bytes: [UInt8]

  /// The pixel size.
  public var size: PixelSize { PixelSize(width: width, height: height) }

  /// Memory the pixels take, the cost a memory cache charges for them.
  public var byteCount: Int { bytes.count }

  /// A fully transparent buffer of the given size, premultiplied (ready to
  /// draw into).
  public init(width: Int, height: Int) {
    precondition(width >= 0 && height >= 0, "negative pixel size")
    self.width = width
    self.height = height
    self.bytesPerRow = width * Self.bytesPerPixel
    self.isOpaque = false
    self.alphaRepresentation = .premultiplied
    self.bytes = [UInt8](repeating: 0, count: width * height * Self.bytesPerPixel)
  }

  /// Wraps RGBA bytes in `alpha` representation that are already laid out
  /// as described; `isOpaque` promises every alpha byte is 255.
  public init(
    width: Int, height: Int, bytesPerRow: Int, bytes: [UInt8], alpha: AlphaRepresentation, isOpaque: Bool = false
  ) {
    precondition(width >= 0 && height >= 0, "negative pixel size")
    precondition(bytesPerRow >= width * Self.bytesPerPixel, "row stride shorter than a row")
    precondition(bytes.count >= bytesPerRow * height, "fewer bytes than rows need")
    self.width = width
    self.height = height
    self.bytesPerRow = bytesPerRow
    self.isOpaque = isOpaque
    self.alphaRepresentation = alpha
    self.bytes = bytes
  }

  /// Wraps premultiplied RGBA bytes that are already laid out as described.
  public init(width: Int, height: Int, bytesPerRow: Int, premultipliedRGBA bytes: [UInt8], isOpaque: Bool = false) {
    self.init(
      width: width, height: height, bytesPerRow: bytesPerRow, bytes: bytes, alpha: .premultiplied, isOpaque: isOpaque)
  }

  /// Wraps tightly packed straight-alpha RGBA (`width * 4` bytes a row) as
  /// it is, without premultiplying; notes whether every pixel is opaque.
  public init(width: Int, height: Int, straightRGBA: [UInt8]) {
    let count = width * height * Self.bytesPerPixel
    precondition(straightRGBA.count >= count, "fewer bytes than pixels need")
    let bytes = straightRGBA.count == count ? straightRGBA : Array(straightRGBA.prefix(count))
    let opaque = bytes.withUnsafeBytes { Self.allOpaque($0) }
    self.init(
      width: width, height: height, bytesPerRow: width * Self.bytesPerPixel, bytes: bytes, alpha: .straight,
      isOpaque: opaque)
  }

  /// Creates a tightly packed buffer in `alpha` representation and lets
  /// `body` fill every byte, without paying to zero memory first. `body`
  /// must write all `width * height * 4` bytes; it returns whether the
  /// pixels it wrote are all opaque.
  public init<E: Error>(
    uninitializedWidth width: Int, height: Int, alpha: AlphaRepresentation,
    initializingWith body: (UnsafeMutableRawBufferPointer) throws(E) -> Bool
  ) throws(E) {
    precondition(width >= 0 && height >= 0, "negative pixel size")
    let count = width * height * Self.bytesPerPixel
    var opaque = false
    var failure: E?
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      do throws(E) {
        opaque = try body(UnsafeMutableRawBufferPointer(buffer))
        initialized = count
      } catch {
        // Leave the array empty: nothing was promised to be initialized.
        failure = error
        initialized = 0
      }
    }
    if let failure { throw failure }
    self.init(
      width: width, height: height, bytesPerRow: width * Self.bytesPerPixel, bytes: bytes, alpha: alpha,
      isOpaque: opaque)
  }

  /// Reads the pixel bytes.
  public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
    var result: Result<R, E>!
    bytes.withUnsafeBytes { buffer in
      do throws(E) { result = .success(try body(buffer)) } catch { result = .failure(error) }
    }
    return try result.get()
  }

  /// Changes the pixel bytes in place (copying first if the storage is shared).
  /// Pass `keepsOpaque: true` only when every alpha byte stays 255.
  public mutating func withUnsafeMutableBytes<R, E: Error>(
    keepsOpaque: Bool = false, _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
  ) throws(E) -> R {
    isOpaque = isOpaque && keepsOpaque
    var result: Result<R, E>!
    bytes.withUnsafeMutableBytes { buffer in
      do throws(E) { result = .success(try body(buffer)) } catch { result = .failure(error) }
    }
    return try result.get()
  }

  /// The pixel at column `x`, row `y`, as `[r, g, b, a]` in the buffer's
  /// ``alphaRepresentation``.
  public subscript(x: Int, y: Int) -> SIMD4<UInt8> {
    get {
      precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(size)")
      let offset = y * bytesPerRow + x * Self.bytesPerPixel
      return SIMD4(bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3])
    }
    set {
      precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(size)")
      let offset = y * bytesPerRow + x * Self.bytesPerPixel
      bytes[offset] = newValue[0]
      bytes[offset + 1] = newValue[1]
      bytes[offset + 2] = newValue[2]
      bytes[offset + 3] = newValue[3]
      if newValue[3] != 255 { isOpaque = false }
    }
  }

  /// Two buffers are equal when they have the same size and show the same
  /// pixels: the same visible bytes in the same alpha representation (or
  /// in either, when every pixel is opaque). Row padding and the opacity
  /// hint do not count.
  public static func == (lhs: PixelBuffer, rhs: PixelBuffer) -> Bool {
    guard lhs.width == rhs.width, lhs.height == rhs.height else { return false }
    let rowBytes = lhs.width * bytesPerPixel
    let sameRepresentation = lhs.alphaRepresentation == rhs.alphaRepresentation
    for y in 0..<lhs.height {
      let left = lhs.bytes[(y * lhs.bytesPerRow)..<(y * lhs.bytesPerRow + rowBytes)]
      guard left == rhs.bytes[(y * rhs.bytesPerRow)..<(y * rhs.bytesPerRow + rowBytes)] else { return false }
      if !sameRepresentation && !left.withUnsafeBytes({ allOpaque($0) }) { return false }
    }
    return true
  }

  /// `round(c * a / 255)` without a division.
  @inline(__always)
  static func multiplyDivide255(_ c: UInt32, _ a: UInt32) -> UInt8 {
    let t = c * a + 128
    return UInt8(truncatingIfNeeded: (t + (t >> 8)) >> 8)
  }
}

/// How a ``PixelBuffer``'s colour channels relate to its alpha channel.
///
/// Decoders deliver what the file stores, ``straight``, so lossless
/// formats round-trip exactly. Operations that weigh or blend pixels
/// (resampling, blur, compositing, drawing) need ``premultiplied`` colour,
/// where transparent neighbours cannot bleed their hidden colour into
/// visible ones; they premultiply once and say so in the buffer they
/// return. For an opaque buffer the two are the same bytes.
public enum AlphaRepresentation: Sendable, Hashable {
  /// Colour as stored, independent of alpha: `(r, g, b, a)`. A pixel with
  /// alpha 0 may still carry a colour.
  case straight
  /// Colour already multiplied by alpha: `(r·a, g·a, b·a, a) / 255`, each
  /// channel at most alpha.
  case premultiplied
}
