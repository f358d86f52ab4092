import Foundation
import Testing

@testable import Magpie

/// EXIF and XMP survive a re-encode only when asked, with the orientation
/// reset once the pixels were turned; checked through the decoders' own
/// EXIF readers (libjpeg's saved APP1 markers, the PNG preamble's `eXIf`,
/// libwebp's demuxer), which share no code with the writers.
@Suite struct MetadataRoundTripTests {
  static let xmp = Data("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF/></x:xmpmeta>".utf8)

  /// orient6.jpg (EXIF orientation 6), decoded upright with its metadata
  /// kept, and an XMP packet added.
  private func source() throws -> Image {
    var options = DecodeOptions()
    options.keepsMetadata = true
    var image = try CoderRegistry.shared.decode(try TestPaths.fixture("jpeg/orient6.jpg"), options: options)
    #expect(image.orientation == .right)
    #expect(image.metadata?.exif != nil)
    image.metadata?.xmp = Self.xmp
    return image
  }

  @Test(arguments: [ImageFormat.jpeg, .png, .webp])
  func keptMetadataIsWrittenWithTheOrientationReset(_ format: ImageFormat) throws {
    let image = try source()
    var options = EncodeOptions()
    options.keepsMetadata = true
    let encoded = try CoderRegistry.shared.encode(image, as: format, options: options)
    let decoded = try CoderRegistry.shared.decode(encoded)
    // The EXIF is there (the decoder read an orientation tag) and says upright.
    #expect(decoded.orientation == .up)
    #expect(decoded.pixelSize == image.pixelSize)
    let written = ImageMetadata.read(from: encoded)
    #expect(written.xmp == Self.xmp)
    let exif = try #require(written.exif)
    #expect(exif.count == image.metadata?.exif?.count)
    #expect(exif.withUnsafeBytes { EXIFOrientationReader.orientation(inEXIF: $0) } == .up)
  }

  @Test(arguments: [ImageFormat.jpeg, .png, .webp])
  func metadataIsDroppedByDefault(_ format: ImageFormat) throws {
    let encoded = try CoderRegistry.shared.encode(try source(), as: format)
    #expect(ImageMetadata.read(from: encoded).isEmpty)
  }

  @Test func pixelsLeftAsStoredKeepTheirOrientationTag() throws {
    var options = DecodeOptions(appliesOrientation: false)
    options.keepsMetadata = true
    let image = try CoderRegistry.shared.decode(try TestPaths.fixture("jpeg/orient6.jpg"), options: options)
    var encode = EncodeOptions()
    encode.keepsMetadata = true
    let encoded = try CoderRegistry.shared.encode(image, as: .jpeg, options: encode)
    #expect(try CoderRegistry.shared.decode(encoded).orientation == .right)
  }

  @Test func processingKeepsTheMetadata() throws {
    let image = try source().processed(by: ImageProcessors.Downsampling(size: PixelSize(width: 16, height: 16)))
    #expect(image.metadata?.xmp == Self.xmp)
    var options = EncodeOptions()
    options.keepsMetadata = true
    let encoded = try CoderRegistry.shared.encode(image, as: .jpeg, options: options)
    #expect(ImageMetadata.read(from: encoded).xmp == Self.xmp)
  }

  @Test func anEXIFBlockTooLargeForAJPEGSegmentIsAnError() throws {
    var image = try source()
    image.metadata?.exif = Data(repeating: 0, count: 70_000)
    var options = EncodeOptions()
    options.keepsMetadata = true
    #expect {
      try CoderRegistry.shared.encode(image, as: .jpeg, options: options)
    } throws: { error in
      (error as? MagpieError)?.code == .encodingFailed && "\(error)".contains("70006 bytes")
    }
  }
}
