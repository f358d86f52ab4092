// swift-tools-version: 6.0
import Foundation
import PackageDescription

// Optional coders (AVIF, HEIC, JPEG XL) are library products of their own,
// built only where their C library's header is installed (Debian's -dev
// package) and not switched off with MAGPIE_WITHOUT (a comma-separated list
// of their keys, e.g. MAGPIE_WITHOUT=avif,jxl): a machine without them
// still builds the core and the rest. Code that uses one checks
// `#if canImport(MagpieAVIF)`.
let switchedOff = Set(
  (ProcessInfo.processInfo.environment["MAGPIE_WITHOUT"] ?? "").split(separator: ",").map {
    $0.trimmingCharacters(in: .whitespaces)
  })

/// Whether the optional coder `key` is built: its header `header` (under
/// /usr/include, or its multiarch folder, where Debian puts libheif's)
/// exists and MAGPIE_WITHOUT does not name it.
func builds(_ key: String, header: String) -> Bool {
  let multiarch = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/include")) ?? [])
    .filter { $0.hasSuffix("-linux-gnu") }.map { "/usr/include/\($0)/" }
  return !switchedOff.contains(key)
    && (["/usr/include/"] + multiarch).contains { FileManager.default.fileExists(atPath: $0 + header) }
}

/// The soname the -dev package's `lib<name>.so` link points to (e.g.
/// libavif.so.15), which the coder's loader opens at run time; nil where
/// the link is missing, and the loader tries `lib<name>.so` alone.
func soname(_ name: String) -> String? {
  let folders =
    ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? [])
    .filter { $0.hasSuffix("-linux-gnu") }.map { "/usr/lib/\($0)" } + ["/usr/lib", "/usr/local/lib"]
  for folder in folders {
    if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/lib\(name).so") {
      return (target as NSString).lastPathComponent
    }
  }
  return nil
}

/// The C target that opens an optional coder's library on first use (see
/// magpie_lazy.h): `name`, built against the soname of `library`.
func loader(_ name: String, library: String, define: String) -> Target {
  .target(
    name: name, dependencies: ["CMagpieCodecs"],
    cSettings: soname(library).map { [.define(define, to: "\"\($0)\"")] } ?? [])
}

/// One optional coder: its key, the header that says its library is there,
/// its Swift module, and that module's targets.
struct OptionalCoder {
  let key: String
  let header: String
  let module: String
  let targets: [Target]
}

let optionalCoders: [OptionalCoder] = [
  // AVIF through libavif (Debian libavif-dev; dav1d/aom behind it).
  OptionalCoder(
    key: "avif", header: "avif/avif.h", module: "MagpieAVIF",
    targets: [
      // Headers only: CAVIFLoader opens libavif on first use. No pkgConfig:
      // libavif.pc's -DAVIF_DLL is a flag SwiftPM prohibits (a warning on
      // every build); the header is in /usr/include anyway.
      .systemLibrary(name: "CAVIF", providers: [.apt(["libavif-dev"])]),
      loader("CAVIFLoader", library: "avif", define: "MP_AVIF_SONAME"),
      .target(name: "MagpieAVIF", dependencies: ["Magpie", "CAVIF", "CAVIFLoader"]),
    ]),
  // HEIC through libheif (Debian libheif-dev; HEVC through libde265).
  OptionalCoder(
    key: "heif", header: "libheif/heif.h", module: "MagpieHEIF",
    targets: [
      // Headers only (no pkg-config, whose -lheif would link it; the
      // multiarch include folder is searched anyway): CHEIFLoader opens
      // libheif on first use.
      .systemLibrary(name: "CHEIF", providers: [.apt(["libheif-dev"])]),
      .target(
        name: "CHEIFLoader", dependencies: ["CMagpieCodecs"],
        // libheif's soname, and libavcodec's and libde265's for the HEVC
        // plugins.
        cSettings: [("heif", "MP_HEIF_SONAME"), ("avcodec", "MP_AVCODEC_SONAME"), ("de265", "MP_DE265_SONAME")]
          .compactMap { library, define in
            soname(library).map { .define(define, to: "\"\($0)\"") }
          }),
      .target(name: "MagpieHEIF", dependencies: ["Magpie", "CHEIF", "CHEIFLoader"]),
    ]),
  // JPEG XL through libjxl (Debian libjxl-dev 0.7), decoding on the calling
  // thread (no libjxl_threads runner: decodes already run side by side).
  // Not through pkg-config: libjxl.pc's cflags carry -DHWY_SHARED_DEFINE,
  // a flag SwiftPM prohibits and warns about; the header is in
  // /usr/include, and CJXLLoader opens libjxl on first use.
  OptionalCoder(
    key: "jxl", header: "jxl/decode.h", module: "MagpieJXL",
    targets: [
      .systemLibrary(name: "CJXL", providers: [.apt(["libjxl-dev"])]),
      loader("CJXLLoader", library: "jxl", define: "MP_JXL_SONAME"),
      .target(name: "MagpieJXL", dependencies: ["Magpie", "CJXL", "CJXLLoader"]),
    ]),
  // SVG through librsvg (Debian librsvg2-dev), rendered with cairo. The
  // loader declares the few functions it calls and opens librsvg on first
  // use: its headers need GLib's and cairo's include folders, which only
  // pkg-config gives, with -pthread, a flag SwiftPM prohibits.
  OptionalCoder(
    key: "svg", header: "librsvg-2.0/librsvg/rsvg.h", module: "MagpieSVG",
    targets: [
      loader("CSVGLoader", library: "rsvg-2", define: "MP_SVG_SONAME"),
      .target(name: "MagpieSVG", dependencies: ["Magpie", "CSVGLoader"]),
    ]),
  // PDF pages through poppler-glib (Debian libpoppler-glib-dev) and cairo,
  // declared and opened on first use as librsvg is, for the same reason.
  OptionalCoder(
    key: "pdf", header: "poppler/glib/poppler.h", module: "MagpiePDF",
    targets: [
      loader("CPDFLoader", library: "poppler-glib", define: "MP_PDF_SONAME"),
      .target(name: "MagpiePDF", dependencies: ["Magpie", "CPDFLoader"]),
    ]),
  // TIFF through libtiff (Debian libtiff-dev 4.5: per-handle error
  // handlers and allocation limit). Headers only; CTIFFLoader opens
  // libtiff on first use.
  OptionalCoder(
    key: "tiff", header: "tiffio.h", module: "MagpieTIFF",
    targets: [
      .systemLibrary(name: "CTIFF", providers: [.apt(["libtiff-dev"])]),
      loader("CTIFFLoader", library: "tiff", define: "MP_TIFF_SONAME"),
      .target(name: "MagpieTIFF", dependencies: ["Magpie", "CTIFF", "CTIFFLoader"]),
    ]),
  // Poster frames of MP4, MOV, Matroska and WebM videos through FFmpeg
  // (Debian libavformat-dev, libavcodec-dev, libswscale-dev), opened on
  // first use; its headers are in the multiarch include folder.
  OptionalCoder(
    key: "video", header: "libavformat/avformat.h", module: "MagpieVideo",
    targets: [
      .target(
        name: "CVideoLoader", dependencies: ["CMagpieCodecs"],
        cSettings: [
          soname("avformat").map { .define("MP_AVFORMAT_SONAME", to: "\"\($0)\"") },
          soname("swscale").map { .define("MP_SWSCALE_SONAME", to: "\"\($0)\"") },
        ].compactMap { $0 }),
      .target(name: "MagpieVideo", dependencies: ["Magpie", "CVideoLoader"]),
    ]),
  // Not a coder: the shared cache tier on Redis through hiredis (Debian
  // libhiredis-dev), a product of its own so that only servers that use it
  // link it. Not through pkg-config: hiredis.pc's cflags carry
  // -D_FILE_OFFSET_BITS=64, a flag SwiftPM prohibits.
  OptionalCoder(
    key: "redis", header: "hiredis/hiredis.h", module: "MagpieRedis",
    targets: [
      .systemLibrary(name: "CHiredis", providers: [.apt(["libhiredis-dev"])]),
      .target(name: "MagpieRedis", dependencies: ["Magpie", "CHiredis", "CDeflate"]),
    ]),
  // Not a coder: `magpie serve`, the pipeline behind an HTTP port, on GNU
  // libmicrohttpd (Debian libmicrohttpd-dev): its epoll thread pool,
  // keep-alive and connection suspend/resume. CMagpieHTTPD holds the calls
  // Swift cannot make (MHD_start_daemon is variadic).
  OptionalCoder(
    key: "serve", header: "microhttpd.h", module: "MagpieServer",
    targets: [
      .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
      .target(name: "CMagpieHTTPD", dependencies: ["CMicroHTTPD"]),
      .target(
        name: "MagpieServer",
        dependencies: ["Magpie", "COpenSSL", "CMicroHTTPD", "CMagpieHTTPD"]
          + (builds("redis", header: "hiredis/hiredis.h") ? ["MagpieRedis"] : [])),
    ]),
].filter { builds($0.key, header: $0.header) }
let optionalModules = optionalCoders.map { Target.Dependency(stringLiteral: $0.module) }

// The libFuzzer driver (Scripts/fuzz.sh, `make fuzz`) only with MAGPIE_FUZZ=1:
// it links libFuzzer's runtime, which the ordinary build neither needs nor
// has. The harnesses it runs (MagpieFuzzHarnesses) are always built, so the
// tests replay every seed and regression input through them.
let fuzzTargets: [Target] =
  ProcessInfo.processInfo.environment["MAGPIE_FUZZ"] == "1"
  ? [.executableTarget(name: "magpie-fuzz", dependencies: ["MagpieFuzzHarnesses"], path: "Tests/Tools/Fuzz")] : []

// Codec libraries come from Debian's -dev packages through pkg-config; the
// package depends on no outside Swift package.
let package = Package(
  name: "Magpie",
  products: [
    .library(name: "Magpie", targets: ["Magpie"]),
    .executable(name: "magpie", targets: ["MagpieCLI"]),
  ] + optionalCoders.map { .library(name: $0.module, targets: [$0.module]) },
  targets: [
    .systemLibrary(
      name: "CJPEG", pkgConfig: "libjpeg",
      providers: [.apt(["libjpeg62-turbo-dev"])]),
    .systemLibrary(
      name: "CPNG", pkgConfig: "libpng16",
      providers: [.apt(["libpng-dev"])]),
    .systemLibrary(
      name: "CGIF", pkgConfig: "libgif",
      providers: [.apt(["libgif-dev"])]),
    .systemLibrary(
      name: "CWebP", pkgConfig: "libwebp",
      providers: [.apt(["libwebp-dev"])]),
    // Whole-buffer inflate for the PNG fast path (about twice zlib's speed).
    .systemLibrary(
      name: "CDeflate", pkgConfig: "libdeflate",
      providers: [.apt(["libdeflate-dev"])]),
    .systemLibrary(
      name: "COpenSSL", pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"])]),
    // Little CMS 2: ICC profiles and the conversion of tagged pixels to sRGB.
    .systemLibrary(
      name: "CLCMS2", pkgConfig: "lcms2",
      providers: [.apt(["liblcms2-dev"])]),
    // libcurl's multi interface behind CurlDataLoader (errors are return
    // codes, never longjmp; the shim only fixes the variadic setopt types).
    .systemLibrary(
      name: "CCurl", pkgConfig: "libcurl",
      providers: [.apt(["libcurl4-openssl-dev"])]),
    // Thin C wrappers for the libraries that report errors with longjmp
    // (libjpeg, libpng): every setjmp and every call that can longjmp stays in C.
    .target(
      name: "CMagpieCodecs",
      dependencies: ["CJPEG", "CPNG", "CDeflate", "CLCMS2"],
      linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16"), .linkedLibrary("lcms2")]),
    .target(
      name: "Magpie",
      dependencies: ["CMagpieCodecs", "CGIF", "CWebP", "COpenSSL", "CCurl", "CLCMS2"]),
    .executableTarget(
      name: "MagpieCLI",
      dependencies: ["Magpie"] + optionalModules),
    // A second process for the disk-cache tests; not a product.
    .executableTarget(
      name: "magpie-cache-probe",
      dependencies: ["Magpie"],
      path: "Tests/Tools/CacheProbe"),
    // The fuzz harnesses' bodies (no libFuzzer): `magpie-fuzz` and the
    // tests both run them.
    .target(
      name: "MagpieFuzzHarnesses",
      dependencies: ["Magpie"] + optionalModules),
    // Test-only JPEG writing the tests need and the product does not: scan
    // scripts, samplings and made-up coefficients through libjpeg's encoder.
    .target(
      name: "CMagpieTestSupport",
      path: "Tests/CMagpieTestSupport",
      linkerSettings: [.linkedLibrary("jpeg")]),
    .testTarget(
      name: "MagpieTests",
      dependencies: ["Magpie", "CMagpieCodecs", "CDeflate", "COpenSSL", "MagpieFuzzHarnesses", "CMagpieTestSupport"]
        + optionalModules,
      exclude: ["Fixtures"]),
  ] + optionalCoders.flatMap(\.targets) + fuzzTargets
)
