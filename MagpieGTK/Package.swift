// swift-tools-version: 6.0
import Foundation
import PackageDescription

// GTK's pkg-config file names its dependencies' flags, and SwiftPM warns
// on every build about those it drops (`-pthread`, `-msse2`...). SwiftPM
// also takes a .pc file's absolute path in place of a name, so the
// manifest asks pkg-config for GTK's include paths and libraries and
// writes them into a .pc file of its own, with nothing to drop. Without
// pkg-config (or GTK) it names gtk4 as usual, which says what to install.
func gtkPkgConfig() -> String {
  func pkgConfig(_ arguments: [String]) -> String? {
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
    return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
  guard let includes = pkgConfig(["--cflags-only-I", "gtk4"]), let libraries = pkgConfig(["--libs", "gtk4"]) else {
    return "gtk4"
  }
  let file = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent(".gtk4-flags.pc")
  let contents = "Name: gtk4-flags\nDescription: GTK 4\nVersion: 4\nCflags: \(includes)\nLibs: \(libraries)\n"
  if (try? String(contentsOf: file, encoding: .utf8)) != contents {
    guard (try? contents.write(to: file, atomically: true, encoding: .utf8)) != nil else { return "gtk4" }
  }
  return file.path
}

// The GTK 4 binding lives in its own package so the core builds without GTK;
// it takes the core from the repository root by path.
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
