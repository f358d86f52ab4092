import CGTK4
import Foundation
import Magpie
import MagpieGTK

/// One recycled grid cell: a picture the factory binds to an item's URL
/// and unbinds when the item scrolls away, as a UITableView cell is reused.
@MainActor
final class GalleryCell {
  /// The side of a cell, in pixels.
  static let side: Int32 = 120
  /// Shown while a load runs: flat grey.
  static let placeholder = Image(pixels: solid(128, 128, 128))
  /// Shown when a load failed: flat red.
  static let errorImage = Image(pixels: solid(200, 40, 60))

  let view = PictureView()
  /// The URL bound now, or `nil` while unbound.
  private(set) var url: URL?
  /// Whether the last load gave an animated image.
  private(set) var isAnimated = false
  private let stats: GalleryStats
  private let manager: ImageManager

  init(stats: GalleryStats, manager: ImageManager) {
    self.stats = stats
    self.manager = manager
    gtk_widget_set_size_request(view.widget, Self.side, Self.side)
    view.magpie.transition = .fade(.milliseconds(120))
    view.magpie.failureImage = Self.errorImage
  }

  /// Loads `url` (a new item scrolled in); with `loading` false only
  /// shows the placeholder and keeps the URL for ``load()``.
  func bind(_ url: URL, loading: Bool = true) {
    self.url = url
    isAnimated = false
    guard loading else {
      view.display(Self.placeholder)
      return
    }
    stats.loading += 1
    stats.changed()
    view.magpie.setImage(
      with: Self.request(url), placeholder: Self.placeholder, manager: manager,
      completion: { [weak self] result in self?.finished(result) })
  }

  /// The request a cell makes: the URL, with animations decoding their
  /// frames while they play, into a bounded buffer, not all at once. The
  /// picture asks for its own size (size-aware loads): the image cut to
  /// the cell as the picture covers it (JPEG and WebP shrink while
  /// decoding), so a bound cell and the memory cache hold cell-sized
  /// pixels, not the photo's.
  static func request(_ url: URL) -> ImageRequest {
    ImageRequest(url: url, options: [.decodeFramesOnDemand])
  }

  /// Loads the URL bound without loading.
  func load() {
    if let url { bind(url) }
  }

  /// Cancels the load (the item scrolled away); the completion reports it.
  func unbind() {
    view.magpie.cancelImageLoad()
    url = nil
  }

  private func finished(_ result: Result<ImageResult, MagpieError>) {
    stats.loading -= 1
    switch result {
    case .success(let loaded):
      isAnimated = loaded.image.isAnimated
      switch loaded.cacheType {
      case .memory: stats.memory += 1
      case .disk: stats.disk += 1
      default: stats.network += 1
      }
    case .failure(let error) where error.code == .cancelled:
      break
    case .failure:
      stats.failed += 1  // the binding shows the failure image
    }
    stats.changed()
  }

  private static func solid(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> PixelBuffer {
    PixelBuffer(width: 4, height: 4, straightRGBA: Array(repeating: [red, green, blue, 255], count: 16).flatMap { $0 })
  }
}
