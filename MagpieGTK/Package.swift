// swift-tools-version: 6.0
import Foundation
import PackageDescription

// GTK's pkg-config file names its dependencies' flags, and SwiftPM warns
// on every build about those it drops (`-pthread`, `-msse2`...). SwiftPM
// also takes a .pc file's absolute path in place of a name, so
// Sources/CGTK4/gtk4-magpie.pc lists GTK's include directories and
// libraries on Debian and Ubuntu with nothing to drop. The manifest names
// it when pkg-config's answer for gtk4 is covered by it, and gtk4
// otherwise (another distribution: the warning, and a build that works).
// It only reads: SwiftPM caches a manifest's result, so a file the
// manifest wrote could be missing from a fresh clone at the same path.
func gtkPkgConfig() -> String {
  func pkgConfig(_ arguments: [String]) -> [String]? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["pkg-config"] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
  }
  let file = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("Sources/CGTK4/gtk4-magpie.pc")
  guard let includes = pkgConfig(["--cflags-only-I", "gtk4"]), let libraries = pkgConfig(["--libs", "gtk4"]),
    let contents = try? String(contentsOf: file, encoding: .utf8)
  else { return "gtk4" }
  let listed = Set(
    contents.split(separator: "\n").filter { $0.hasPrefix("Cflags:") || $0.hasPrefix("Libs:") }
      .flatMap { $0.split(separator: " ").dropFirst().map(String.init) })
  return Set(includes + libraries).isSubset(of: listed) ? file.path : "gtk4"
}

let package = Package(
  name: "MagpieGTK",
  products: [
    .library(name: "MagpieGTK", targets: ["MagpieGTK"]),
    .executable(name: "MagpieGallery", targets: ["MagpieGallery"]),
  ],
  dependencies: [
    .package(name: "Magpie", path: "..")
  ],
  targets: [
    .systemLibrary(
      name: "CGTK4", pkgConfig: gtkPkgConfig(),
      providers: [.apt(["libgtk-4-dev"])]),
    // What Swift cannot call well: GObject casts and macros, signal
    // connections with typed callbacks, and the GSource that drains the
    // main dispatch queue.
    .target(
      name: "CMagpieGTK",
      dependencies: ["CGTK4"],
      linkerSettings: [.linkedLibrary("dispatch")]),
    .target(
      name: "MagpieGTK",
      dependencies: ["CGTK4", "CMagpieGTK", .product(name: "Magpie", package: "Magpie")]),
    .executableTarget(
      name: "MagpieGallery",
      dependencies: ["MagpieGTK", "CGTK4", .product(name: "Magpie", package: "Magpie")]),
    // The example app the READMEs show, built and run by the tests.
    .executableTarget(
      name: "magpie-gtk-example",
      dependencies: ["MagpieGTK", .product(name: "Magpie", package: "Magpie")],
      path: "Examples/PhotoGrid"),
    // The child process the tests drive: GTK needs the main thread, which
    // the test runner keeps for itself.
    .executableTarget(
      name: "magpie-gtk-probe",
      dependencies: ["MagpieGTK", "CGTK4", .product(name: "Magpie", package: "Magpie")]),
    .testTarget(
      name: "MagpieGTKTests",
      dependencies: ["MagpieGTK", "CGTK4", .product(name: "Magpie", package: "Magpie")]),
  ]
)
