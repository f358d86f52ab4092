#if canImport(MagpieHEIF)
  import Foundation
  import Magpie
  import MagpieHEIF
  import Testing

  /// Damaged and hostile HEIC input fails with a typed error, never a crash,
  /// and a huge declared size is refused before pixel memory is taken.
  @Suite struct HEIFHostileInputTests {
    private let codes: Set<MagpieError.Code> = [.truncatedData, .corruptData, .unsupportedFormat]

    /// `data` with every `ispe` box declaring `width` x `height`.
    private func declaring(_ width: UInt32, _ height: UInt32, in data: Data) -> Data {
      var bytes = [UInt8](data)
      let tag = Array("ispe".utf8)
      var i = 0
      while i + 16 <= bytes.count {
        if Array(bytes[i..<(i + 4)]) == tag {
          // type, version/flags, then width and height, big-endian.
          for (k, value) in [width, height].enumerated() {
            for b in 0..<4 { bytes[i + 8 + k * 4 + b] = UInt8(truncatingIfNeeded: value >> (24 - 8 * b)) }
          }
        }
        i += 1
      }
      return Data(bytes)
    }

    @Test func hugeDeclaredSizesAreRefusedBeforeDecoding() throws {
      let data = try ReferenceFixture.data("heif", "8bit.heic")
      // 100000 on a side: over libheif's own 32768-pixel security limit.
      #expect {
        try HEIFCoder().decode(declaring(100_000, 100_000, in: data), options: DecodeOptions())
      } throws: { ($0 as? MagpieError)?.code == .imageTooLarge }
      // 30000 x 30000 passes libheif's limit; Magpie's 100-megapixel limit stops it.
      #expect {
        try HEIFCoder().decode(declaring(30_000, 30_000, in: data), options: DecodeOptions())
      } throws: { ($0 as? MagpieError)?.code == .imageTooLarge }
    }

    @Test func everyTruncationFailsWithATypedError() throws {
      let data = try ReferenceFixture.data("heif", "alpha.heic")
      for length in stride(from: 0, to: data.count, by: max(1, data.count / Sanitizer.iterations(60))) {
        do {
          _ = try HEIFCoder().decode(data.prefix(length), options: DecodeOptions())
          Issue.record("a \(length)-byte prefix decoded")
        } catch {
          #expect(codes.contains(error.code), "\(length) bytes: \(error)")
        }
      }
    }

    @Test func truncatedInfoFailsWithATypedError() throws {
      let data = try ReferenceFixture.data("heif", "8bit.heic")
      #expect(throws: MagpieError.self) { try HEIFCoder().info(of: data.prefix(40)) }
    }

    @Test func corruptBytesNeverCrash() throws {
      let data = try ReferenceFixture.data("heif", "8bit.heic")
      var state: UInt64 = 0x9E37_79B9_7F4A_7C15
      for _ in 0..<Sanitizer.iterations(40) {
        var bytes = [UInt8](data)
        for _ in 0..<8 {
          state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
          bytes[Int(state >> 33) % bytes.count] ^= UInt8(truncatingIfNeeded: state >> 20) | 1
        }
        do { _ = try HEIFCoder().decode(Data(bytes), options: DecodeOptions()) } catch {
          #expect(codes.union([.imageTooLarge]).contains(error.code), "\(error)")
        }
      }
    }
  }
#endif
