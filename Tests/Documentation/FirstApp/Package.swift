// swift-tools-version:6.0
// The app the Getting Started article builds. `DocumentationSnippetTests`
// compiles this manifest; the article quotes the region below.
import PackageDescription

let package = Package(
  name: "Photos",
  // snippet.begin package-manifest
  dependencies: [
    .package(path: "../magpie")
  ],
  targets: [
    .executableTarget(
      name: "Photos",
      dependencies: [
        .product(name: "Magpie", package: "magpie")
      ])
  ]
  // snippet.end
)
