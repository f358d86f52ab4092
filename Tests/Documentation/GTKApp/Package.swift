// swift-tools-version:6.0
// The app the "Loading Images into GTK Views" article builds, line for
// line: `NewUserAppTests` (MagpieGTK) writes the article's blocks into a
// clean folder beside a clone, builds them and runs the window.
// snippet.begin gtk-manifest
import PackageDescription

let package = Package(
  name: "Photos",
  dependencies: [
    .package(path: "../magpie"),
    .package(path: "../magpie/MagpieGTK"),
  ],
  targets: [
    .executableTarget(
      name: "Photos",
      dependencies: [
        .product(name: "Magpie", package: "magpie"),
        .product(name: "MagpieGTK", package: "MagpieGTK"),
      ])
  ]
)
// snippet.end
