import Foundation

/// This process's resident memory by who mapped it, from
/// `/proc/self/smaps`: what the gallery's baseline is made of (see
/// docs/views.md).
enum MemoryBreakdown {
  /// Resident bytes per kind: `gl` (Mesa's driver and LLVM), `gtk` (GTK,
  /// GLib, cairo, pango, X11 and the fonts), `swift` (the runtime and
  /// Foundation), `magpie` (the binary and the codec and network
  /// libraries it links), `heap` (malloc and anonymous memory: everyone's)
  /// and `other`.
  static func current() -> [String: Int] {
    // Read to the end: procfs files say they are empty, and a read sized
    // by that stops after the first page.
    guard let data = FileHandle(forReadingAtPath: "/proc/self/smaps")?.readDataToEndOfFile() else { return [:] }
    let text = String(decoding: data, as: UTF8.self)
    var totals: [String: Int] = [:]
    var kind = "heap"
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      if let first = fields.first, first.contains("-"), !first.hasSuffix(":") {
        kind = fields.count > 5 ? Self.kind(of: String(fields[5])) : "heap"
      } else if fields.first == "Rss:", fields.count > 1, let kilobytes = Int(fields[1]) {
        totals[kind, default: 0] += kilobytes << 10
      }
    }
    return totals
  }

  private static let glLibraries = [
    "libLLVM", "_dri.so", "libgallium", "libGL", "libEGL", "libglapi", "libgbm", "libdrm", "libz3",
  ]
  private static let magpieLibraries = [
    "MagpieGallery", "libjpeg", "libpng", "libwebp", "libgif", "libcurl", "libcrypto", "libssl", "libdeflate",
    "liblcms", "libz.", "libnghttp", "libssh", "libheif", "libavif", "libde265", "libjxl",
  ]
  private static let gtkLibraries = [
    "libgtk", "libgdk", "libglib", "libgio", "libgobject", "libgmodule", "libcairo", "libpango", "libharfbuzz",
    "libpixman", "libfreetype", "libfontconfig", "libX", "libxcb", "libgraphene", "libepoxy", "libfribidi",
    "libthai", "libxkb", "libwayland", "libgraphite", "libtiff",
  ]
  private static let swiftLibraries = ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocks"]

  private static func kind(of path: String) -> String {
    let name = (path as NSString).lastPathComponent
    if path.hasPrefix("[") || path.hasPrefix("/SYSV") || path.hasPrefix("/memfd:") { return "heap" }
    if glLibraries.contains(where: name.contains) { return "gl" }
    if path.hasPrefix("/opt/swift") || swiftLibraries.contains(where: name.hasPrefix) { return "swift" }
    if magpieLibraries.contains(where: name.hasPrefix) { return "magpie" }
    if gtkLibraries.contains(where: name.hasPrefix) || path.hasPrefix("/usr/share/fonts")
      || path.contains("/gtk-4.0/") || path.hasPrefix("/var/cache/fontconfig")
    {
      return "gtk"
    }
    return "other"
  }
}
