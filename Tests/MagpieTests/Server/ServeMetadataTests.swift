import Foundation
import Magpie
import MagpieServer
import Testing

/// `strip_metadata` and `keep_copyright` over HTTP, with Pillow (Debian's
/// python3-pil) writing the source's EXIF and reading the results'.
@Suite("Serve metadata", .serialized)
struct ServeMetadataTests {
  /// The source's IFD0 fields: Artist, Make, Model, Copyright.
  static let fields = [315: "A. Photographer", 271: "CameraMaker", 272: "Model X", 33432: "Copyright 2026 Owner"]

  /// A 64x48 JPEG whose EXIF has ``fields``, written by Pillow.
  private static func origin() throws -> (NginxOrigin, TemporaryDirectory) {
    let root = try TemporaryDirectory()
    let entries = fields.map { "exif[\($0.key)] = '\($0.value)'" }.joined(separator: "; ")
    try ReferenceTool.pillow(
      "im = Image.new('RGB', (64, 48), (200, 100, 50)); exif = Image.Exif(); \(entries); "
        + "im.save(sys.argv[1], 'JPEG', exif=exif.tobytes())",
      [root.path("owned.jpg")])
    return (try NginxOrigin(serving: root.url), root)
  }

  /// The IFD0 fields Pillow reads in `data`, by tag.
  private static func exif(_ data: Data, format: ImageFormat) throws -> [Int: String] {
    let printed = try ReferenceTool.run(
      "python3",
      [
        "-c",
        "import sys, json; from PIL import Image; "
          + "print(json.dumps({str(k): str(v) for k, v in Image.open(sys.argv[1]).getexif().items()}))",
        "IN",
      ], input: data, inputName: "result.\(format.rawValue)"
    ).stdout
    let decoded = try JSONDecoder().decode([String: String].self, from: Data(printed.utf8))
    return Dictionary(uniqueKeysWithValues: decoded.map { (Int($0.key)!, $0.value) })
  }

  @Test(
    "stripping keeps the copyright and artist unless keep_copyright is off; strip_metadata:0 keeps all",
    arguments: [ImageFormat.jpeg, .webp, .png])
  func copyright(format: ImageFormat) async throws {
    let (origin, root) = try Self.origin()
    let harness = try ServeHarness(ServeHarness.configuration())
    let source = origin.url("/owned.jpg")
    var options = ServeHarness.fit(32, 32)
    let kept = try await harness.get(ServeHarness.path(options, source, format: format))
    #expect(kept.status == 200)
    #expect(try Self.exif(kept.body, format: format) == Self.fields.filter { [315, 33432].contains($0.key) })
    options.keepsCopyright = false
    let stripped = try await harness.get(ServeHarness.path(options, source, format: format))
    #expect(try Self.exif(stripped.body, format: format) == [:])
    options.stripsMetadata = false
    let whole = try await harness.get(ServeHarness.path(options, source, format: format))
    #expect(try Self.exif(whole.body, format: format).filter { Self.fields.keys.contains($0.key) } == Self.fields)
    await harness.stop()
    _ = root
  }
}
