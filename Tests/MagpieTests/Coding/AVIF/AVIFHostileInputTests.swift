#if canImport(MagpieAVIF)
  import Foundation
  import Magpie
  import MagpieAVIF
  import Testing

  /// Truncated, corrupt and oversized AVIFs fail with typed errors, never a
  /// crash, and sizes are refused before any pixel memory is taken.
  @Suite struct AVIFHostileInputTests {
    let coder = AVIFCoder()
    static let damageCodes: Set<MagpieError.Code> = [.truncatedData, .corruptData, .unsupportedFormat]

    /// Where the first box of type `type` starts (its size field), if any.
    static func offset(of type: String, in bytes: [UInt8]) -> Int? {
      let tag = Array(type.utf8)
      guard bytes.count >= 8 else { return nil }
      for i in 4..<(bytes.count - 4) where Array(bytes[i..<(i + 4)]) == tag { return i - 4 }
      return nil
    }

    /// `bytes` with every `ispe` box declaring `width` x `height`.
    static func declaring(width: UInt32, height: UInt32, in bytes: [UInt8]) -> [UInt8] {
      var bytes = bytes
      let tag = Array("ispe".utf8)
      for i in 4..<(bytes.count - 16) where Array(bytes[i..<(i + 4)]) == tag {
        // ispe: type, version and flags, then width and height, big-endian.
        for (k, value) in [width, height].enumerated() {
          for b in 0..<4 { bytes[i + 8 + k * 4 + b] = UInt8((value >> (24 - 8 * UInt32(b))) & 0xFF) }
        }
      }
      return bytes
    }

    private func expect(_ code: MagpieError.Code, _ body: () throws(MagpieError) -> Void) {
      do {
        try body()
        Issue.record("did not fail")
      } catch {
        #expect(error.code == code, "\(error)")
        #expect(!error.reason.isEmpty)
      }
    }

    @Test(arguments: ["d8_420.avif", "alpha_d10_420.avif", "clap_irot1_imir1.avif", "sequence.avifs"])
    func everyTruncationFailsWithATypedError(name: String) throws {
      let data = try AVIFFixtures.data(name)
      let step = max(1, data.count / Sanitizer.iterations(300))
      for length in stride(from: 0, to: data.count, by: step) {
        let cut = data.prefix(length)
        do {
          let image = try coder.decode(cut, options: DecodeOptions(allowsPartialImage: false))
          Issue.record("\(name) cut to \(length) bytes decoded \(image.pixelSize)")
        } catch {
          #expect(Self.damageCodes.contains(error.code), "\(name) at \(length): \(error)")
        }
        do { _ = try coder.info(of: cut) } catch { #expect(Self.damageCodes.contains(error.code), "\(error)") }
      }
    }

    @Test(arguments: ["d8_444.avif", "alpha_premultiplied.avif", "sequence.avifs"])
    func flippedBytesNeverCrash(name: String) throws {
      let original = [UInt8](try AVIFFixtures.data(name))
      var random = SplitMix64(seed: 0xA71F ^ UInt64(original.count))
      let options = DecodeOptions(maxPixelCount: 1 << 20, maxTotalByteCount: 32 << 20)
      let codes = Self.damageCodes.union([.imageTooLarge])
      for _ in 0..<Sanitizer.iterations(150) {
        var bytes = original
        for _ in 0..<Int.random(in: 1...4, using: &random) {
          let at = Int.random(in: 0..<bytes.count, using: &random)
          bytes[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
        }
        do {
          let image = try coder.decode(Data(bytes), options: options)
          #expect(image.frames.allSatisfy { $0.pixels.size == image.pixelSize })
        } catch {
          #expect(codes.contains(error.code), "\(error)")
        }
      }
    }

    @Test func aFileDeclaring100000By100000IsRefusedBeforeDecoding() throws {
      let huge = Data(
        Self.declaring(width: 100_000, height: 100_000, in: [UInt8](try AVIFFixtures.data("d8_420.avif"))))
      expect(.imageTooLarge) { () throws(MagpieError) in _ = try coder.decode(huge, options: DecodeOptions()) }
      expect(.imageTooLarge) { () throws(MagpieError) in _ = try coder.frameSource(for: huge, options: DecodeOptions())
      }
      expect(.imageTooLarge) { () throws(MagpieError) in _ = try coder.info(of: huge) }
    }

    @Test func aDeclaredSizeOverThePixelLimitIsRefused() throws {
      // 15000 x 15000 is inside libavif's own limits but over the default
      // 100-megapixel limit.
      let big = Data(Self.declaring(width: 15_000, height: 15_000, in: [UInt8](try AVIFFixtures.data("d8_420.avif"))))
      expect(.imageTooLarge) { () throws(MagpieError) in _ = try coder.decode(big, options: DecodeOptions()) }
      // info decodes nothing, so it reports what is declared.
      #expect(try coder.info(of: big).size == PixelSize(width: 15_000, height: 15_000))
      let small = try AVIFFixtures.data("d8_420.avif")
      expect(.imageTooLarge) { () throws(MagpieError) in
        _ = try coder.decode(small, options: DecodeOptions(maxPixelCount: 64 * 48 - 1))
      }
      #expect(try coder.decode(small, options: DecodeOptions(maxPixelCount: 64 * 48)).pixelSize.pixelCount == 3072)
    }

    @Test func aSequenceOverTheByteLimitIsRefusedUnlessOneFrameIsAsked() throws {
      let data = try AVIFFixtures.data("sequence.avifs")
      let limit = 5 * 64 * 48 * 4 - 1
      expect(.imageTooLarge) { () throws(MagpieError) in
        _ = try coder.decode(data, options: DecodeOptions(maxTotalByteCount: limit))
      }
      let first = try coder.decode(data, options: DecodeOptions(maxTotalByteCount: limit, firstFrameOnly: true))
      #expect(first.frames.count == 1)
      #expect(try coder.decode(data, options: DecodeOptions(maxTotalByteCount: limit + 1)).frames.count == 5)
    }

    @Test func aSequenceDamagedAfterItsFirstFrameKeepsTheFramesBefore() throws {
      var bytes = [UInt8](try AVIFFixtures.data("sequence.avifs"))
      // Zero the last quarter: the last frames' AV1 data.
      for i in (bytes.count * 3 / 4)..<bytes.count { bytes[i] = 0 }
      let partial = try coder.decode(Data(bytes), options: DecodeOptions())
      #expect(partial.isPartial)
      #expect(partial.frames.count >= 1 && partial.frames.count < 5)
      let expected = try AVIFFixtures.reference("sequence.avifs")
      #expect(AVIFFixtures.straight(partial.frames[0].pixels) == expected[0])
      do {
        _ = try coder.decode(Data(bytes), options: DecodeOptions(allowsPartialImage: false))
        Issue.record("decoded a damaged sequence whole")
      } catch {
        #expect(Self.damageCodes.contains(error.code), "\(error)")
      }
    }

    @Test func notAnAVIFIsATypedError() {
      for bytes in [Data(), Data("not an image".utf8), Data(repeating: 0, count: 64)] {
        expect(.corruptData) { () throws(MagpieError) in _ = try coder.decode(bytes, options: DecodeOptions()) }
      }
    }
  }

#endif
