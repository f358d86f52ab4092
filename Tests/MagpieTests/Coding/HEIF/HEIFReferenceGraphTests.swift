#if canImport(MagpieHEIF)
  import Foundation
  import Magpie
  import MagpieHEIF
  import Testing

  /// HEIC files whose item references libheif 1.15 would follow forever, or
  /// multiply into unbounded work, are refused before libheif decodes
  /// (HEIFItemReferences); real files are not.
  @Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct HEIFReferenceGraphTests {
    /// A `from` item's references of `type` (`dimg`, `auxl`) to `to`.
    struct Reference {
      var type: String
      var from: UInt32
      var to: [UInt32]
    }

    private func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
      let size = UInt32(8 + payload.count)
      return withUnsafeBytes(of: size.bigEndian, Array.init) + Array(type.utf8) + payload
    }

    private func bigEndian(_ value: UInt32, bytes: Int) -> [UInt8] {
      (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32(bytes - 1 - $0))) }
    }

    /// A file of `ftyp` and a `meta` holding only `iref` (version 1: 32-bit
    /// item IDs); nothing libheif could decode, which the check runs before.
    private func file(_ references: [Reference], version: UInt8 = 0) -> Data {
      let idSize = version == 0 ? 2 : 4
      let entries = references.flatMap { reference in
        box(
          reference.type,
          bigEndian(reference.from, bytes: idSize) + bigEndian(UInt32(reference.to.count), bytes: 2)
            + reference.to.flatMap { bigEndian($0, bytes: idSize) })
      }
      let iref = box("iref", [version, 0, 0, 0] + entries)
      let hdlr = box("hdlr", [UInt8](repeating: 0, count: 8) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
      let meta = box("meta", [0, 0, 0, 0] + hdlr + iref)
      return Data(box("ftyp", Array("heicmif1heic".utf8)) + meta)
    }

    private func decodeError(_ data: Data) -> MagpieError? {
      do {
        _ = try HEIFCoder().decode(data, options: DecodeOptions())
        return nil
      } catch { return error }
    }

    @Test func theFuzzedFileIsRefusedAsACycle() throws {
      // A grid (2) whose alpha (4) is a grid of 2 again: libheif 1.15 hung
      // on it, libde265 crashed without libheif's threads.
      let name = "heif-timeout-e179ffd22ea3cd3be3774a42497858db1ebc47cc"
      let data = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("fuzz/heif/\(name)"))
      let error = try #require(decodeError(data))
      #expect(error.code == .corruptData)
      #expect(error.reason.contains("lead back to itself"), "\(error)")
    }

    @Test func cyclesThroughGridsAndAlphaAreCorrupt() throws {
      let cycles: [[Reference]] = [
        [Reference(type: "dimg", from: 1, to: [1])],
        [Reference(type: "dimg", from: 1, to: [2]), Reference(type: "dimg", from: 2, to: [1])],
        [
          Reference(type: "dimg", from: 2, to: [1]), Reference(type: "auxl", from: 3, to: [2]),
          Reference(type: "dimg", from: 3, to: [2]),
        ],
      ]
      for (index, references) in cycles.enumerated() {
        for version: UInt8 in [0, 1] {
          let error = decodeError(file(references, version: version))
          #expect(error?.code == .corruptData, "cycle \(index), iref version \(version): \(String(describing: error))")
        }
      }
    }

    @Test func nestingIsBoundedAndNeedsNoDeepStack() throws {
      func chain(_ length: UInt32) -> [Reference] {
        (1..<length).map { Reference(type: "dimg", from: $0, to: [$0 + 1]) }
      }
      // Eight levels pass the check (and then fail in libheif, being no image).
      #expect(decodeError(file(chain(8)))?.code != .limitExceeded)
      #expect(decodeError(file(chain(9)))?.code == .limitExceeded)
      // A long chain is walked without recursion.
      #expect(decodeError(file(chain(60_000), version: 1))?.code == .limitExceeded)
    }

    @Test func sharedInputsCannotMultiplyTheWork() throws {
      // A grid of 200 uses of a grid of 200 tiles: 40,201 decodes.
      let references = [
        Reference(type: "dimg", from: 1, to: Array(repeating: 2, count: 200)),
        Reference(type: "dimg", from: 2, to: Array(repeating: 3, count: 200)),
      ]
      let error = decodeError(file(references))
      #expect(error?.code == .limitExceeded)
      #expect(error?.reason.contains("16384") == true, "\(String(describing: error))")
      // One level of 200 tiles is an ordinary grid.
      #expect(decodeError(file(Array(references.prefix(1))))?.code != .limitExceeded)
    }

    @Test(arguments: HEIFDecodeTests.stills + ["premultiplied.heic"])
    func realFilesPassTheCheck(name: String) throws {
      _ = try HEIFCoder().decode(ReferenceFixture.data("heif", name), options: DecodeOptions())
    }
  }
#endif
