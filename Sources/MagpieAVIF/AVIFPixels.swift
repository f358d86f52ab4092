import CAVIF
import Magpie

/// Converts a decoded AVIF frame's YUV (and alpha) planes to straight RGBA8.
enum AVIFPixels {
  /// The frame in `image` as straight RGBA8, cropped to `crop` (the clean
  /// aperture, in stored pixels; `nil` for the whole frame).
  ///
  /// 8-bit frames convert in libavif at 8 bits (libyuv where it applies),
  /// exactly what `avifdec -d 8` writes. Deeper frames convert at 16 bits
  /// and are rounded to 8 here, round(v * 255 / 65535): libavif's own 8-bit
  /// output from deeper samples takes a fixed-point libyuv path when the
  /// frame has alpha that is off by up to 2 and biased low. Alpha stored
  /// premultiplied comes back straight (libavif divides it out), as
  /// `avifdec` writes it. Every alpha byte is 255 when there is no alpha
  /// plane, and the buffer says it is opaque.
  static func rgba(
    of image: UnsafeMutablePointer<avifImage>, hasAlpha: Bool, crop: AVIFCrop?
  ) throws(MagpieError) -> PixelBuffer {
    let width = Int(image.pointee.width)
    let height = Int(image.pointee.height)
    var rgb = avifRGBImage()
    avifRGBImageSetDefaults(&rgb, image)
    rgb.format = AVIF_RGB_FORMAT_RGBA
    rgb.alphaPremultiplied = 0
    let full: PixelBuffer
    if image.pointee.depth <= 8 {
      rgb.depth = 8
      full = try PixelBuffer(uninitializedWidth: width, height: height, alpha: .straight) {
        (raw: UnsafeMutableRawBufferPointer) throws(MagpieError) -> Bool in
        rgb.pixels = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
        rgb.rowBytes = UInt32(width * PixelBuffer.bytesPerPixel)
        try AVIFStatus.check(avifImageYUVToRGB(image, &rgb), "converting YUV to RGB")
        return !hasAlpha
      }
    } else {
      full = try deepRGBA(of: image, width: width, height: height, hasAlpha: hasAlpha)
    }
    guard let crop, crop.width != width || crop.height != height else { return full }
    return cropped(full, to: crop)
  }

  /// Rows of luma converted per band from a deep frame, and the rows of
  /// context converted above and below each band and thrown away: chroma
  /// upsampling reads the neighbouring chroma rows, so a band's own rows
  /// come out exactly as from converting the whole frame at once. Bands
  /// this short put band edges inside the 48-row reference fixtures, whose
  /// exact comparison with avifdec checks them.
  static let bandRows = 16
  static let contextRows = 8

  /// A deeper-than-8-bit frame as RGBA8: converted at 16 bits a band of
  /// rows at a time (a view of the planes, `avifImageSetViewRect`) and
  /// rounded into the output, so the 16-bit intermediate is one band, not
  /// 8 bytes for every pixel of the frame (twice the output's size).
  private static func deepRGBA(
    of image: UnsafeMutablePointer<avifImage>, width: Int, height: Int, hasAlpha: Bool
  ) throws(MagpieError) -> PixelBuffer {
    var deep = [UInt16](repeating: 0, count: width * (bandRows + 2 * contextRows) * 4)
    return try PixelBuffer(uninitializedWidth: width, height: height, alpha: .straight) {
      (raw: UnsafeMutableRawBufferPointer) throws(MagpieError) -> Bool in
      let out = raw.bindMemory(to: UInt8.self)
      var y = 0
      while y < height {
        let rows = min(bandRows, height - y)
        // Even edges: the view must start on a chroma row of 4:2:0.
        let top = max(0, y - contextRows)
        let bottom = min(height, y + rows + contextRows)
        var rect = avifCropRect(x: 0, y: UInt32(top), width: UInt32(width), height: UInt32(bottom - top))
        var view = avifImage()
        try AVIFStatus.check(avifImageSetViewRect(&view, image, &rect), "taking rows \(top)..<\(bottom)")
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, &view)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.alphaPremultiplied = 0
        rgb.depth = 16
        let result = deep.withUnsafeMutableBytes { band in
          rgb.pixels = band.baseAddress!.assumingMemoryBound(to: UInt8.self)
          rgb.rowBytes = UInt32(width * 8)
          return avifImageYUVToRGB(&view, &rgb)
        }
        try AVIFStatus.check(result, "converting YUV to RGB")
        let skip = (y - top) * width * 4
        let base = y * width * 4
        deep.withUnsafeBufferPointer { source in
          // Exact rounding of v * 255 / 65535 (65535 is odd: no ties).
          for i in 0..<(rows * width * 4) {
            out[base + i] = UInt8((UInt32(source[skip + i]) * 255 + 32767) / 65535)
          }
        }
        y += rows
      }
      return !hasAlpha
    }
  }

  /// The `crop` rectangle of `buffer`, copied row by row.
  private static func cropped(_ buffer: PixelBuffer, to crop: AVIFCrop) -> PixelBuffer {
    let rowBytes = crop.width * PixelBuffer.bytesPerPixel
    return buffer.withUnsafeBytes { source in
      PixelBuffer(uninitializedWidth: crop.width, height: crop.height, alpha: .straight) { raw in
        for row in 0..<crop.height {
          let from = (crop.y + row) * buffer.bytesPerRow + crop.x * PixelBuffer.bytesPerPixel
          raw.baseAddress!.advanced(by: row * rowBytes).copyMemory(
            from: source.baseAddress!.advanced(by: from), byteCount: rowBytes)
        }
        return buffer.isOpaque
      }
    }
  }
}
