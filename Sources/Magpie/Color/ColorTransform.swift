import CLCMS2
import CMagpieCodecs

/// A conversion of one source profile's pixels to sRGB, built once per
/// profile (``ColorTransformCache``) and then shared by every thread.
///
/// Matrix-shaper RGB and gray profiles (Display P3, Adobe RGB, camera and
/// phone profiles: nearly every photo) run through tables lcms2's curves
/// and colorants fill (``mp_matrix_shaper``), several times faster than
/// lcms2's general 8-bit path. Other profiles (LUT-based RGB, CMYK) run
/// through an lcms2 transform built with `cmsFLAGS_NOCACHE`, which makes
/// `cmsDoTransform` safe to call from many threads at once.
///
/// `@unchecked Sendable`: nothing changes after `init`; the tables are only
/// read, and the lcms2 transform has no cache to race on.
package final class ColorTransform: @unchecked Sendable {
  /// What the source pixels are.
  package enum Input: Hashable, Sendable {
    /// RGBA8 (gray decodes as R = G = B), alpha carried.
    case rgba
    /// Adobe-inverted CMYK as a JPEG stores it, 4 bytes a pixel; comes out
    /// as opaque RGBA in the same bytes.
    case invertedCMYK
  }

  private enum Engine {
    case matrixShaper(UnsafeMutablePointer<mp_matrix_shaper>)
    case lcms(cmsHTRANSFORM)
  }

  private let engine: Engine
  /// What the transform reads.
  let input: Input

  /// A transform over `shaper`'s tables (copied).
  init(matrixShaper shaper: mp_matrix_shaper) {
    let storage = UnsafeMutablePointer<mp_matrix_shaper>.allocate(capacity: 1)
    storage.initialize(to: shaper)
    engine = .matrixShaper(storage)
    input = .rgba
  }

  /// A transform that owns the lcms2 transform `transform`, which reads `input`.
  init(lcms transform: cmsHTRANSFORM, input: Input) {
    engine = .lcms(transform)
    self.input = input
  }

  deinit {
    switch engine {
    case .matrixShaper(let storage): storage.deallocate()
    case .lcms(let transform): cmsDeleteTransform(transform)
    }
  }

  /// Converts `height` rows of `width` pixels at `base`, `stride` bytes
  /// apart, in place. Premultiplied colour is divided out first and
  /// multiplied back after.
  func apply(to base: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, premultiplied: Bool) {
    guard width > 0, height > 0 else { return }
    let pixels = base.assumingMemoryBound(to: UInt8.self)
    switch engine {
    case .matrixShaper(let shaper):
      mp_matrix_shaper_apply(shaper, pixels, width, height, stride, premultiplied ? 1 : 0)
    case .lcms(let transform):
      if premultiplied {
        Self.eachRow(base, width: width, height: height, stride: stride) { PixelBuffer.unpremultiply($0) }
      }
      // lcms2 converts in place when input and output pixels are the same size.
      cmsDoTransformLineStride(
        transform, base, base, UInt32(width), UInt32(height), UInt32(stride), UInt32(stride), 0, 0)
      if input == .invertedCMYK {
        // The fourth byte held K: the pixels are opaque now.
        for y in 0..<height {
          let row = pixels + y * stride
          for x in 0..<width { row[x * 4 + 3] = 255 }
        }
      }
      if premultiplied {
        Self.eachRow(base, width: width, height: height, stride: stride) { _ = PixelBuffer.premultiply($0) }
      }
    }
  }

  private static func eachRow(
    _ base: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
    _ body: (UnsafeMutableRawBufferPointer) -> Void
  ) {
    for y in 0..<height { body(UnsafeMutableRawBufferPointer(start: base + y * stride, count: width * 4)) }
  }
}
