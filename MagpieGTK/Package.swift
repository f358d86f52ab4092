// swift-tools-version: 6.0
import PackageDescription

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
      name: "CGTK4", pkgConfig: "gtk4",
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
