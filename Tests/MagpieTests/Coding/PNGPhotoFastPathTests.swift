import Foundation
import Testing

@testable import Magpie

/// Whole photographs through the PNG fast path: every one must take it and
/// decode exactly as libpng alone does (see ``PNGFastPathTests``).
@Suite struct PNGPhotoFastPathTests {
  /// Decodes each PNG in `folder` both ways through the coder and expects
  /// the fast path and libpng's pixels; returns how many it read.
  private func expectFastAndAlike(in folder: URL) throws -> Int {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }
    for name in names.sorted() {
      let data = try Data(contentsOf: folder.appendingPathComponent(name))
      #expect(PNGFastPathTests.expectSameOutcome(data, name).usedFastPath, "\(name)")
      // The coder's switch reaches the reader.
      var libpngOnly = PNGCoder()
      libpngOnly.usesFastPath = false
      let options = DecodeOptions()
      #expect(try PNGCoder().decode(data, options: options).pixels == libpngOnly.decode(data, options: options).pixels)
    }
    return names.count
  }

  /// The generated photos (Pillow-written, rows filtered Sub, Up, Average
  /// and Paeth), so that a clone tests photo-sized images too.
  @Test func generatedPhotosMatchLibpng() throws {
    #expect(try expectFastAndAlike(in: TestPaths.photos) >= 4)
  }

  // The Kodak files as their own encoder wrote them: skipped where absent.
  @Test(.enabled(if: TestPaths.kodak != nil, "\(TestPaths.missing("kodak"))"))
  func kodakPhotosMatchLibpng() throws {
    #expect(try expectFastAndAlike(in: try #require(TestPaths.kodak)) >= 4)
  }
}
