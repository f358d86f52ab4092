#if canImport(MagpieJXL)
  import Foundation
  @testable import Magpie
  import MagpieJXL
  import Testing

  /// With ``EncodeOptions/keepsMetadata``, JXLCoder writes the EXIF and
  /// XMP as `Exif` and `xml ` boxes of the container, which `jxlinfo -v`
  /// lists and whose contents are read back here box by box.
  @Suite struct JXLMetadataEncodeTests {
    static let xmp = Data("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF/></x:xmpmeta>".utf8)

    /// orient6.jpg decoded upright with its metadata, and an XMP packet.
    static func source() throws -> Image {
      var options = DecodeOptions()
      options.keepsMetadata = true
      var image = try CoderRegistry.shared.decode(try TestPaths.fixture("jpeg/orient6.jpg"), options: options)
      image.metadata?.xmp = xmp
      return image
    }

    /// The contents of every top-level box of type `type` in `data`.
    static func boxes(_ type: String, in data: Data) -> [Data] {
      let bytes = [UInt8](data)
      var found: [Data] = []
      var offset = 0
      while offset + 8 <= bytes.count {
        var size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        var header = 8
        if size == 1, offset + 16 <= bytes.count {
          size = bytes[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) }
          header = 16
        } else if size == 0 {
          size = bytes.count - offset
        }
        guard size >= header, offset + size <= bytes.count else { break }
        if String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self) == type {
          found.append(Data(bytes[offset + header..<offset + size]))
        }
        offset += size
      }
      return found
    }

    @Test func keptMetadataIsWrittenAsBoxes() throws {
      let image = try Self.source()
      let exif = try #require(image.metadata?.exifToWrite)
      var options = EncodeOptions(quality: 80)
      options.keepsMetadata = true
      let encoded = try JXLCoder().encode(image, as: .jxl, options: options)
      let info = try ReferenceTool.run("jxlinfo", ["-v", "IN"], input: encoded, inputName: "in.jxl").stdout
      #expect(info.contains("box: type: \"Exif\""), "\(info)")
      #expect(info.contains("box: type: \"xml \""), "\(info)")
      #expect(Self.boxes("Exif", in: encoded) == [Data(count: 4) + exif])
      #expect(Self.boxes("xml ", in: encoded) == [Self.xmp])
      let pixels = try ReferenceTool.decodeToPNG("djxl", encoded, inputName: "in.jxl")
      #expect(pixels.pixelSize == image.pixelSize)
    }

    @Test func metadataIsDroppedByDefault() throws {
      let encoded = try JXLCoder().encode(try Self.source(), as: .jxl, options: EncodeOptions(quality: 80))
      let info = try ReferenceTool.run("jxlinfo", ["-v", "IN"], input: encoded, inputName: "in.jxl").stdout
      #expect(!info.contains("Exif") && !info.contains("xml "), "\(info)")
    }
  }
#endif
