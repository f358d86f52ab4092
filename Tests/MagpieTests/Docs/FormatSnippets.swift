import Foundation
import Magpie

#if canImport(MagpieAVIF)
  import MagpieAVIF
#endif

/// The code the Formats and Coders article quotes, compiled with the tests
/// (the AVIF part where this build has `MagpieAVIF`).
enum FormatSnippets {
  // snippet.begin farbfeld-coder
  /// Decodes farbfeld: "farbfeld", the width and height as 32-bit
  /// big-endian numbers, then 16-bit big-endian RGBA samples.
  struct FarbfeldCoder: ImageCoder {
    func canDecode(_ data: Data, format: ImageFormat) -> Bool {
      format == .unknown && data.starts(with: Data("farbfeld".utf8))
    }

    func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
      let bytes = [UInt8](data)
      guard bytes.count >= 16 else { throw MagpieError(.truncatedData, "farbfeld header cut short") }
      let number = { (at: Int) -> Int in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
      let size = PixelSize(width: number(8), height: number(12))
      try options.checkPixelLimit(decoded: size, declared: size)  // before taking the memory
      guard bytes.count >= 16 + size.pixelCount * 8 else { throw MagpieError(.truncatedData, "farbfeld cut short") }
      let rgba = (0..<size.pixelCount * 4).map { bytes[16 + 2 * $0] }  // each sample's high byte
      return Image(pixels: PixelBuffer(width: size.width, height: size.height, straightRGBA: rgba))
    }
  }
  // snippet.end

  /// The article's registry with the farbfeld coder, behind a manager.
  static func registerOwn() throws -> ImageManager {
    // snippet.begin register-own-coder
    let registry = CoderRegistry()  // the built-in coders, none registered
    registry.register(FarbfeldCoder())  // asked before every built-in coder
    var configuration = try ImageManager.Configuration.standard(namespace: "photos")
    configuration.registry = registry
    let manager = ImageManager(configuration: configuration)
    // snippet.end
    return manager
  }

  /// The article's thumbnail: decoded at the size it is shown, then
  /// encoded as WebP.
  static func thumbnail(_ data: Data) throws -> Data {
    // snippet.begin decode-downsampled
    let options = DecodeOptions(targetSize: PixelSize(width: 400, height: 300), contentMode: .aspectFill)
    let thumbnail = try CoderRegistry.shared.decode(data, options: options)
    let webp = try CoderRegistry.shared.encode(thumbnail, as: .webp, options: EncodeOptions(quality: 80))
    // snippet.end
    return webp
  }

  #if canImport(MagpieAVIF)
    /// The article's AVIF: the product's coder registered, then an encode.
    static func encodeAVIF(_ image: Image) throws -> Data {
      // snippet.begin register-avif
      CoderRegistry.shared.register(AVIFCoder())  // import MagpieAVIF
      var options = EncodeOptions(quality: 60)
      options.speed = 8  // 0 (smallest files) to 10 (fastest); 6 by default
      let avif = try CoderRegistry.shared.encode(image, as: .avif, options: options)
      // snippet.end
      return avif
    }
  #endif
}
