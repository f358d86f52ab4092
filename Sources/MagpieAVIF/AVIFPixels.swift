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
      rgb.depth = 16
      var deep = [UInt16](repeating: 0, count: width * height * 4)
      let result = deep.withUnsafeMutableBytes { raw in
        rgb.pixels = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
        rgb.rowBytes = UInt32(width * 8)
        return avifImageYUVToRGB(image, &rgb)
      }
      try AVIFStatus.check(result, "converting YUV to RGB")
      full = PixelBuffer(uninitializedWidth: width, height: height, alpha: .straight) { raw in
        let out = raw.bindMemory(to: UInt8.self)
        deep.withUnsafeBufferPointer { source in
          // Exact rounding of v * 255 / 65535 (65535 is odd: no ties).
          for i in 0..<source.count { out[i] = UInt8((UInt32(source[i]) * 255 + 32767) / 65535) }
        }
        return !hasAlpha
      }
    }
    guard let crop, crop.width != width || crop.height != height else { return full }
    return cropped(full, to: crop)
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
