// swift-tools-version: 6.0
import PackageDescription

// Codec libraries come from Debian's -dev packages through pkg-config; the
// package depends on no outside Swift package.
let package = Package(
  name: "Magpie",
  products: [
    .library(name: "Magpie", targets: ["Magpie"]),
    .executable(name: "magpie", targets: ["MagpieCLI"]),
  ],
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
    // libcurl's multi interface behind CurlDataLoader (errors are return
    // codes, never longjmp; the shim only fixes the variadic setopt types).
    .systemLibrary(
      name: "CCurl", pkgConfig: "libcurl",
      providers: [.apt(["libcurl4-openssl-dev"])]),
    // Thin C wrappers for the libraries that report errors with longjmp
    // (libjpeg, libpng): every setjmp and every call that can longjmp stays in C.
    .target(
      name: "CMagpieCodecs",
      dependencies: ["CJPEG", "CPNG", "CDeflate"],
      linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16")]),
    .target(
      name: "Magpie",
      dependencies: ["CMagpieCodecs", "CGIF", "CWebP", "COpenSSL", "CCurl"]),
    .executableTarget(
      name: "MagpieCLI",
      dependencies: ["Magpie"]),
    // A second process for the disk-cache tests; not a product.
    .executableTarget(
      name: "magpie-cache-probe",
      dependencies: ["Magpie"],
      path: "Tests/Tools/CacheProbe"),
    .testTarget(
      name: "MagpieTests",
      dependencies: ["Magpie", "CMagpieCodecs"],
      exclude: ["Fixtures"]),
  ]
)
