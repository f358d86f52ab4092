/// A ready-to-draw bitmap: 8-bit RGBA, premultiplied alpha, rows top to
/// bottom, `bytesPerRow` bytes apart.
///
/// Premultiplied because every compositing and resampling step is then a
/// plain weighted sum with no dark halos at transparent edges; use
/// ``straightRGBA()`` for encoders and raw export. The storage is a
/// copy-on-write `[UInt8]`, so a `PixelBuffer` is a value and `Sendable`.
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
  /// The premultiplied RGBA bytes, `bytesPerRow * height` of them.
  public private(set) var bytes: [UInt8]

  /// The pixel size.
  public var size: PixelSize { PixelSize(width: width, height: height) }

  /// Memory the pixels take, the cost a memory cache charges for them.
  public var byteCount: Int { bytes.count }

  /// A fully transparent buffer of the given size.
  public init(width: Int, height: Int) {
    precondition(width >= 0 && height >= 0, "negative pixel size")
    self.width = width
    self.height = height
    self.bytesPerRow = width * Self.bytesPerPixel
    self.isOpaque = false
    self.bytes = [UInt8](repeating: 0, count: width * height * Self.bytesPerPixel)
  }

  /// Wraps premultiplied RGBA bytes that are already laid out as described.
  public init(width: Int, height: Int, bytesPerRow: Int, premultipliedRGBA bytes: [UInt8], isOpaque: Bool = false) {
    precondition(width >= 0 && height >= 0, "negative pixel size")
    precondition(bytesPerRow >= width * Self.bytesPerPixel, "row stride shorter than a row")
    precondition(bytes.count >= bytesPerRow * height, "fewer bytes than rows need")
    self.width = width
    self.height = height
    self.bytesPerRow = bytesPerRow
    self.isOpaque = isOpaque
    self.bytes = bytes
  }

  /// Premultiplies tightly packed straight-alpha RGBA (`width * 4` bytes a row).
  public init(width: Int, height: Int, straightRGBA: [UInt8]) {
    precondition(straightRGBA.count >= width * height * Self.bytesPerPixel, "fewer bytes than pixels need")
    var bytes = Array(straightRGBA.prefix(width * height * Self.bytesPerPixel))
    let opaque = bytes.withUnsafeMutableBytes { Self.premultiply($0) }
    self.init(
      width: width, height: height, bytesPerRow: width * Self.bytesPerPixel, premultipliedRGBA: bytes, isOpaque: opaque)
  }

  /// Creates a tightly packed buffer and lets `body` fill every byte, without
  /// paying to zero memory first. `body` must write all `width * height * 4`
  /// bytes; it returns whether the pixels it wrote are all opaque.
  public init<E: Error>(
    uninitializedWidth width: Int, height: Int,
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
      width: width, height: height, bytesPerRow: width * Self.bytesPerPixel, premultipliedRGBA: bytes, isOpaque: opaque)
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

  /// The premultiplied pixel at column `x`, row `y`, as `[r, g, b, a]`.
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

  /// The pixels as tightly packed straight-alpha RGBA (`width * 4` bytes a
  /// row), what encoders and `magpie decode` want.
  public func straightRGBA() -> [UInt8] {
    let rowBytes = width * Self.bytesPerPixel
    return [UInt8](unsafeUninitializedCapacity: rowBytes * height) { out, initialized in
      bytes.withUnsafeBytes { src in
        for y in 0..<height {
          let dst = UnsafeMutableRawBufferPointer(
            rebasing: UnsafeMutableRawBufferPointer(out)[(y * rowBytes)..<((y + 1) * rowBytes)])
          dst.copyMemory(from: UnsafeRawBufferPointer(rebasing: src[(y * bytesPerRow)..<(y * bytesPerRow + rowBytes)]))
        }
      }
      if !isOpaque { Self.unpremultiply(UnsafeMutableRawBufferPointer(out)) }
      initialized = rowBytes * height
    }
  }

  /// Premultiplies straight-alpha RGBA in place; returns whether every pixel
  /// was opaque.
  @discardableResult
  public static func premultiply(_ rgba: UnsafeMutableRawBufferPointer) -> Bool {
    let p = rgba.bindMemory(to: UInt8.self)
    var opaque = true
    var i = 0
    while i + 3 < p.count {
      let a = UInt32(p[i + 3])
      if a != 255 {
        opaque = false
        p[i] = multiplyDivide255(UInt32(p[i]), a)
        p[i + 1] = multiplyDivide255(UInt32(p[i + 1]), a)
        p[i + 2] = multiplyDivide255(UInt32(p[i + 2]), a)
      }
      i += 4
    }
    return opaque
  }

  /// Turns premultiplied RGBA back into straight alpha in place.
  public static func unpremultiply(_ rgba: UnsafeMutableRawBufferPointer) {
    let p = rgba.bindMemory(to: UInt8.self)
    var i = 0
    while i + 3 < p.count {
      let a = UInt32(p[i + 3])
      if a == 0 {
        p[i] = 0
        p[i + 1] = 0
        p[i + 2] = 0
      } else if a != 255 {
        let half = a / 2
        p[i] = UInt8(min(255, (UInt32(p[i]) * 255 + half) / a))
        p[i + 1] = UInt8(min(255, (UInt32(p[i + 1]) * 255 + half) / a))
        p[i + 2] = UInt8(min(255, (UInt32(p[i + 2]) * 255 + half) / a))
      }
      i += 4
    }
  }

  /// Two buffers are equal when they have the same size and the same visible
  /// pixels; row padding and the opacity hint do not count.
  public static func == (lhs: PixelBuffer, rhs: PixelBuffer) -> Bool {
    guard lhs.width == rhs.width, lhs.height == rhs.height else { return false }
    let rowBytes = lhs.width * bytesPerPixel
    for y in 0..<lhs.height
    where lhs.bytes[(y * lhs.bytesPerRow)..<(y * lhs.bytesPerRow + rowBytes)]
      != rhs.bytes[(y * rhs.bytesPerRow)..<(y * rhs.bytesPerRow + rowBytes)]
    {
      return false
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
