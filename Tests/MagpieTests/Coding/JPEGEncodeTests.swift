import CMagpieCodecs
import Foundation
import Testing

@testable import Magpie

/// Encoding: round trips measured against the synthetic source.
@Suite struct JPEGEncodeTests {
  typealias Support = JPEGSupportForTests

  /// A smooth 64x48 gradient with a hard-edged square: straight RGBA,
  /// opaque unless `alpha` says otherwise.
  private static func source(alpha: UInt8 = 255) -> (image: Image, rgb: [UInt8]) {
    var rgba = [UInt8]()
    var rgb = [UInt8]()
    for y in 0..<48 {
      for x in 0..<64 {
        let inSquare = (20..<40).contains(x) && (12..<30).contains(y)
        let pixel: [UInt8] =
          inSquare ? [30, 60, 200] : [UInt8(x * 4), UInt8(y * 5), UInt8(128 + (x - y) / 2)]
        rgb += pixel
        rgba += pixel + [alpha]
      }
    }
    return (Image(pixels: PixelBuffer(width: 64, height: 48, straightRGBA: rgba)), rgb)
  }

  private static func options(quality: Int, progressive: Bool = false) -> EncodeOptions {
    var options = EncodeOptions()
    options.quality = quality
    options.progressive = progressive
    return options
  }

  @Test(arguments: [(95, 38.0), (85, 33.0), (50, 29.0)])
  func roundTripKeepsTheImage(quality: Int, minimumPSNR: Double) throws {
    let (image, rgb) = Self.source()
    let data = try JPEGCoder().encode(image, as: .jpeg, options: Self.options(quality: quality))
    #expect(ImageFormat.sniff(data) == .jpeg)
    let decoded = try JPEGCoder().decode(data, options: DecodeOptions())
    #expect(decoded.pixelSize == PixelSize(width: 64, height: 48))
    let psnr = Support.psnr(Support.rgb(decoded.pixels), rgb)
    #expect(psnr >= minimumPSNR, "quality \(quality): PSNR \(psnr)")
  }

  @Test func lowerQualityIsSmaller() throws {
    let (image, _) = Self.source()
    let sizes = try [20, 60, 95].map {
      try JPEGCoder().encode(image, as: .jpeg, options: Self.options(quality: $0)).count
    }
    #expect(sizes[0] < sizes[1] && sizes[1] < sizes[2], "\(sizes)")
  }

  /// 4:2:0 below quality 90, 4:4:4 from 90 up.
  @Test(arguments: [(0, 2), (50, 2), (89, 2), (90, 1), (100, 1)])
  func chromaSubsamplingFollowsQuality(quality: Int, lumaFactor: UInt8) throws {
    let data = try JPEGCoder().encode(Self.source().image, as: .jpeg, options: Self.options(quality: quality))
    let header = try #require(Support.header(of: data))
    #expect(header.color_space == MP_JPEG_COLOR_YCBCR)
    #expect(header.h_samp.0 == lumaFactor && header.v_samp.0 == lumaFactor)
    #expect(header.h_samp.1 == 1 && header.v_samp.1 == 1)
  }

  @Test func progressiveWritesSOF2() throws {
    let (image, rgb) = Self.source()
    let progressive = try JPEGCoder().encode(image, as: .jpeg, options: Self.options(quality: 85, progressive: true))
    #expect(Support.contains(marker: 0xC2, in: progressive))
    #expect(!Support.contains(marker: 0xC0, in: progressive))
    #expect(Support.header(of: progressive)?.is_progressive == 1)
    let baseline = try JPEGCoder().encode(image, as: .jpeg, options: Self.options(quality: 85))
    #expect(Support.contains(marker: 0xC0, in: baseline))
    #expect(!Support.contains(marker: 0xC2, in: baseline))
    let decoded = try JPEGCoder().decode(progressive, options: DecodeOptions())
    #expect(Support.psnr(Support.rgb(decoded.pixels), rgb) >= 33)
  }

  @Test func optimizedCodingIsNoLarger() throws {
    let (image, _) = Self.source()
    var coder = JPEGCoder()
    let plain = try coder.encode(image, as: .jpeg, options: Self.options(quality: 85))
    coder.optimizesCoding = true
    let optimized = try coder.encode(image, as: .jpeg, options: Self.options(quality: 85))
    #expect(optimized.count < plain.count)
  }

  /// Alpha is dropped and the straight colour kept, as Pillow's
  /// `convert("RGB")` does: half-transparent (30, 60, 200) stays (30, 60, 200),
  /// not the premultiplied (15, 30, 100).
  @Test func alphaIsDroppedKeepingStraightColour() throws {
    let (image, rgb) = Self.source(alpha: 128)
    #expect(!image.pixels.isOpaque)
    let data = try JPEGCoder().encode(image, as: .jpeg, options: Self.options(quality: 95))
    let decoded = try JPEGCoder().decode(data, options: DecodeOptions())
    #expect(Support.allOpaque(decoded.pixels))
    // Premultiplying by 128/255 and back loses about a bit per channel.
    #expect(Support.psnr(Support.rgb(decoded.pixels), rgb) >= 35)
    let centre = decoded.pixels[30, 20]
    #expect(abs(Int(centre[2]) - 200) <= 4, "\(centre)")
  }

  @Test func encodesTheFirstFrame() throws {
    let first = Self.source().image.pixels
    let second = PixelBuffer(width: 64, height: 48, straightRGBA: [UInt8](repeating: 255, count: 64 * 48 * 4))
    let animation = Image(frames: [ImageFrame(pixels: first), ImageFrame(pixels: second)])
    let data = try JPEGCoder().encode(animation, as: .jpeg, options: Self.options(quality: 95))
    let decoded = try JPEGCoder().decode(data, options: DecodeOptions())
    #expect(Support.psnr(Support.rgb(decoded.pixels), Self.source().rgb) >= 38)
  }

  @Test func throughTheRegistry() throws {
    #expect(JPEGCoder().canEncode(to: .jpeg))
    #expect(!JPEGCoder().canEncode(to: .png))
    #expect(CoderRegistry.shared.encoder(for: .jpeg) is JPEGCoder)
    let data = try CoderRegistry.shared.encode(Self.source().image, as: .jpeg)
    #expect(try CoderRegistry.shared.decode(data).pixelSize == PixelSize(width: 64, height: 48))
  }

  /// libjpeg failing after output has started (here: an APP1 segment over
  /// 64 KB) comes back as a status and a message, with nothing left
  /// allocated (the sanitizer build checks the freeing).
  @Test func libjpegErrorsComeBackAsMessages() throws {
    let pixels = [UInt8](repeating: 128, count: 16 * 16 * 3)
    let exif = [UInt8](repeating: 0, count: 70_000)
    pixels.withUnsafeBytes { raw in
      exif.withUnsafeBytes { exifRaw in
        var params = mp_jpeg_encode_params()
        params.pixels = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
        params.stride = 16 * 3
        params.width = 16
        params.height = 16
        params.input_format = MP_JPEG_INPUT_RGB
        params.quality = 80
        params.exif = exifRaw.baseAddress!.assumingMemoryBound(to: UInt8.self)
        params.exif_length = exifRaw.count
        var result = mp_jpeg_encode_result()
        let status = mp_jpeg_encode(&params, &result)
        #expect(status != MP_JPEG_OK)
        #expect(result.data == nil && result.size == 0)
        let message = withUnsafeBytes(of: &result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        #expect(message.contains("length"), "\(message)")
      }
    }
  }

  @Test func rejectsBadRequests() throws {
    let image = Self.source().image
    #expect(throws: MagpieError.self) { try JPEGCoder().encode(image, as: .jpeg, options: Self.options(quality: 101)) }
    #expect(throws: MagpieError.self) { try JPEGCoder().encode(image, as: .jpeg, options: Self.options(quality: -1)) }
    do {
      _ = try JPEGCoder().encode(image, as: .png, options: EncodeOptions())
      Issue.record("encoded PNG")
    } catch {
      #expect(error.code == .unsupportedFormat)
    }
    do {
      _ = try JPEGCoder().encode(image, as: .jpeg, options: Self.options(quality: 101))
    } catch {
      #expect(error.code == .invalidArgument)
    }
    let empty = Image(pixels: PixelBuffer(width: 0, height: 5))
    do {
      _ = try JPEGCoder().encode(empty, as: .jpeg, options: EncodeOptions())
      Issue.record("encoded an empty image")
    } catch {
      #expect(error.code == .invalidArgument)
    }
  }
}
