import CAVIF
import CAVIFLoader
import Foundation
import Magpie

/// One libavif decoder over its own copy of the encoded bytes (libavif
/// keeps pointers into them between calls), parsed but not decoded: what
/// the container says is read when it is made, pixels only on request.
final class AVIFDecoding {
  /// What the container says: sizes, clean aperture, orientation, alpha,
  /// ICC profile and frame durations.
  let header: AVIFHeader
  /// How many frames the file holds (1 for a still).
  var frameCount: Int { header.durations.count }

  private let decoder: UnsafeMutablePointer<avifDecoder>
  private let bytes: UnsafeMutableRawBufferPointer

  /// The size of each frame after the clean aperture, before orientation.
  var croppedSize: PixelSize { header.crop?.size ?? header.storedSize }

  /// Parses `data`: libavif reads the container (no AV1 decoding) with its
  /// size limit set to `maxPixelCount`, then the declared size is checked
  /// against it too, before any pixel memory is taken. With
  /// `checksCodedSize` (for decoding; `info` reads the container alone),
  /// a declared size larger than the AV1 data codes is refused too.
  init(data: Data, maxPixelCount: Int, checksCodedSize: Bool = true) throws(MagpieError) {
    guard mp_avif_library_open() != 0 else {
      let why = lazyLibraryMessage { mp_avif_library_error($0, $1) }
      throw MagpieError(.unsupportedFormat, "avif: libavif could not be loaded: \(why)")
    }
    guard let decoder = avifDecoderCreate() else {
      throw MagpieError(.imageTooLarge, "libavif could not create a decoder")
    }
    self.decoder = decoder
    bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
    data.copyBytes(to: bytes.bindMemory(to: UInt8.self), count: data.count)
    // dav1d decodes tiles and rows on several threads; a photo decodes
    // much faster on all of them.
    decoder.pointee.maxThreads = Int32(min(ProcessInfo.processInfo.activeProcessorCount, 8))
    // libavif takes no limit above its default (16384 x 16384 pixels:
    // larger is "not implemented"), nor 0.
    let ceiling = 16384 * 16384
    decoder.pointee.imageSizeLimit = UInt32(max(1, min(maxPixelCount, ceiling)))
    decoder.pointee.ignoreExif = 1
    decoder.pointee.ignoreXMP = 1
    do throws(MagpieError) {
      let base = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: UInt8.self)
      try AVIFStatus.check(avifDecoderSetIOMemory(decoder, base, data.count), "reading the avif")
      header = try AVIFHeader(parsing: decoder, maxPixelCount: maxPixelCount)
    } catch {
      // deinit does not run for an object that never finished initialising.
      avifDecoderDestroy(decoder)
      bytes.deallocate()
      throw error
    }
    // Every property is set from here: a throw runs deinit, which frees.
    guard checksCodedSize else { return }
    try Self.checkCodedSize(
      decoder, bytes: UnsafeRawBufferPointer(start: bytes.baseAddress, count: data.count), declared: header.storedSize)
  }

  deinit {
    avifDecoderDestroy(decoder)
    bytes.deallocate()
  }

  /// Frame `index` as straight RGBA8 after the clean aperture, not yet
  /// turned upright. libavif decodes forward from the frame it is at when
  /// that is before `index`, else from the nearest keyframe before it
  /// (`avifDecoderNthImage`).
  func frame(at index: Int) throws(MagpieError) -> PixelBuffer {
    let result = avifDecoderNthImage(decoder, UInt32(index))
    try AVIFStatus.check(result, "decoding frame \(index)", diag: diagnostic())
    let image = decoder.pointee.image!
    // The AV1 payload may disagree with the container; trust only what fits.
    let decoded = PixelSize(width: Int(image.pointee.width), height: Int(image.pointee.height))
    guard decoded == header.storedSize else {
      throw MagpieError(
        .corruptData, "avif frame \(index) is \(decoded), not the \(header.storedSize) the container declares")
    }
    return try AVIFPixels.rgba(of: image, hasAlpha: header.hasAlpha, crop: header.crop)
  }

  /// Refuses a container that declares a larger image than the first
  /// frame's AV1 sequence header can code (libavif would upscale the
  /// frame to the declared size; see ``AV1SequenceHeader``). Frame data
  /// libavif read during the parse (an `idat` box) or cannot be located is
  /// left to libavif.
  private static func checkCodedSize(
    _ decoder: UnsafeMutablePointer<avifDecoder>, bytes: UnsafeRawBufferPointer, declared: PixelSize
  ) throws(MagpieError) {
    var extent = avifExtent()
    guard avifDecoderNthImageMaxExtent(decoder, 0, &extent) == AVIF_RESULT_OK, extent.size > 0,
      extent.offset < UInt64(bytes.count)
    else { return }
    let start = Int(extent.offset)
    let end = start + min(extent.size, bytes.count - start)
    guard let coded = AV1SequenceHeader(scanning: UnsafeRawBufferPointer(rebasing: bytes[start..<end])) else {
      return
    }
    let bound = coded.maxFrameSize
    guard declared.width > bound.width || declared.height > bound.height else { return }
    throw MagpieError(
      .corruptData, "the avif container declares \(declared) but its AV1 data codes frames of at most \(bound)")
  }

  private func diagnostic() -> String { AVIFStatus.text(&decoder.pointee.diag) }
}
