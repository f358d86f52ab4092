#if canImport(MagpieJXL)
  import Foundation
  import Magpie
  import MagpieJXL
  import Testing

  /// Damaged and hostile JPEG XL input fails with a typed error, never a
  /// crash, and a huge declared size is refused before pixel memory exists.
  @Suite struct JXLHostileInputTests {
    private let codes: Set<MagpieError.Code> = [.truncatedData, .corruptData]

    /// A bare codestream whose SizeHeader declares `side` x `side` (18-bit
    /// height, 1:1 ratio) followed by all-default image metadata: enough
    /// for libjxl's basic info, and nothing else.
    private func declaring(side: Int) -> Data {
      var bits: [Int] = [0, 0, 1]  // not small; height selector 2 (18 bits)
      bits += (0..<18).map { (side - 1) >> $0 & 1 }
      bits += [1, 0, 0, 1]  // ratio 1 (square); metadata all_default
      var bytes: [UInt8] = [0xFF, 0x0A]
      for start in stride(from: 0, to: bits.count, by: 8) {
        bytes.append(UInt8(bits[start..<min(start + 8, bits.count)].enumerated().reduce(0) { $0 | $1.1 << $1.0 }))
      }
      return Data(bytes + [UInt8](repeating: 0, count: 64))
    }

    @Test func aHugeDeclaredSizeIsRefusedBeforeDecoding() throws {
      #expect {
        try JXLCoder().decode(declaring(side: 100_000), options: DecodeOptions())
      } throws: { ($0 as? MagpieError)?.code == .imageTooLarge }
    }

    @Test(arguments: ["lossless.jxl", "anim.jxl", "icc.jxl"])
    func everyTruncationFailsTyped(name: String) throws {
      let data = try ReferenceFixture.data("jxl", name)
      for length in stride(from: 0, to: data.count, by: max(1, data.count / Sanitizer.iterations(50))) {
        let options = DecodeOptions(allowsPartialImage: false)
        do {
          _ = try JXLCoder().decode(data.prefix(length), options: options)
          Issue.record("a \(length)-byte prefix decoded")
        } catch {
          #expect(codes.contains(error.code), "\(length) bytes: \(error)")
        }
        // With partial images allowed: a typed error or a partial image.
        if let image = try? JXLCoder().decode(data.prefix(length), options: DecodeOptions()) {
          #expect(image.isPartial, "\(length) bytes")
        }
      }
    }

    @Test func corruptBytesNeverCrash() throws {
      let data = try ReferenceFixture.data("jxl", "lossy.jxl")
      var state: UInt64 = 0x2545_F491_4F6C_DD1D
      for _ in 0..<Sanitizer.iterations(40) {
        var bytes = [UInt8](data)
        for _ in 0..<6 {
          state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
          bytes[2 + Int(state >> 33) % (bytes.count - 2)] ^= UInt8(truncatingIfNeeded: state >> 20) | 1
        }
        do { _ = try JXLCoder().decode(Data(bytes), options: DecodeOptions()) } catch {
          #expect(codes.union([.imageTooLarge]).contains(error.code), "\(error)")
        }
      }
    }
  }
#endif
