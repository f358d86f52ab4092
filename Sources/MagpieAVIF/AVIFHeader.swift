import CAVIF
import Foundation
import Magpie

/// What a parsed AVIF container says about its image, read before any AV1
/// data is decoded.
struct AVIFHeader {
  /// The stored size the container declares (before the clean aperture).
  var storedSize: PixelSize
  /// The clean aperture, `nil` when the file has none.
  var crop: AVIFCrop?
  /// How the cropped pixels turn upright.
  var orientation: ImageOrientation
  /// Whether there is an alpha plane.
  var hasAlpha: Bool
  /// The embedded ICC profile, if any.
  var colorProfile: ColorProfile?
  /// Each frame's duration in milliseconds; `[0]` for a still.
  var durations: [Int]

  /// Parses the container `decoder` reads (libavif's `avifDecoderParse`,
  /// its size limit set to `maxPixelCount`) and checks the declared size
  /// against `maxPixelCount` before anything is decoded.
  init(parsing decoder: UnsafeMutablePointer<avifDecoder>, maxPixelCount: Int) throws(MagpieError) {
    try AVIFStatus.check(
      avifDecoderParse(decoder), "parsing the avif container", diag: AVIFStatus.text(&decoder.pointee.diag))
    guard let image = decoder.pointee.image else { throw MagpieError(.corruptData, "avif holds no image") }
    storedSize = PixelSize(width: Int(image.pointee.width), height: Int(image.pointee.height))
    try DecodeOptions(maxPixelCount: maxPixelCount).checkPixelLimit(decoded: storedSize, declared: storedSize)
    crop = try AVIFCrop.of(image)
    orientation = AVIFOrientation.of(image.pointee)
    hasAlpha = decoder.pointee.alphaPresent != 0
    let icc = image.pointee.icc
    if icc.size > 0, let bytes = icc.data { colorProfile = ColorProfile(iccData: Data(bytes: bytes, count: icc.size)) }
    let frameCount = Int(decoder.pointee.imageCount)
    guard frameCount >= 1 else { throw MagpieError(.corruptData, "avif holds no image") }
    guard frameCount > 1 else {
      durations = [0]
      return
    }
    // libavif has read the sample table already, bounded by its image
    // count limit, so this array is no larger than what it holds.
    durations = []
    durations.reserveCapacity(frameCount)
    for index in 0..<frameCount {
      var timing = avifImageTiming()
      try AVIFStatus.check(avifDecoderNthImageTiming(decoder, UInt32(index), &timing), "reading frame timing")
      let ms = timing.timescale > 0 ? Double(timing.durationInTimescales) * 1000 / Double(timing.timescale) : 0
      durations.append(Int(min(ms.rounded(), Double(Int32.max))))
    }
  }
}
