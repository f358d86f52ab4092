import Foundation
import Magpie

extension TIFFCoder: MultiImageCoder {
  /// Every page, in order, its size upright; pages of any size, where
  /// ``decode(_:options:)`` keeps as frames only those of the first page's.
  public func subimages(in data: Data) throws(MagpieError) -> [SubimageInfo] {
    let options = DecodeOptions()
    return try TIFFFile.with(data, options: options) { file throws(MagpieError) -> [SubimageInfo] in
      let layout = try TIFFLayout(
        file, pageLimit: options.frameCountToRefuse, findsReductions: false, deadline: options.startDeadline())
      try options.checkFrameCount(layout.pages.count, format: "tiff")
      return layout.pages.map { SubimageInfo(size: $0.orientation.displayedSize(of: $0.size), bitsPerPixel: 0) }
    }
  }

  /// Decodes page `index` of ``subimages(in:)`` alone, at its own size.
  public func decodeSubimage(at index: Int, in data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    let deadline = options.startDeadline()
    var image = try TIFFFile.with(data, options: options) { file throws(MagpieError) -> Image in
      let layout = try TIFFLayout(
        file, pageLimit: min(index + 1, options.frameCountToRefuse), findsReductions: false, deadline: deadline)
      guard layout.pages.indices.contains(index) else {
        throw MagpieError(.invalidArgument, "tiff has \(layout.pages.count) pages, no page \(index)")
      }
      let page = layout.pages[index]
      try options.checkPixelLimit(decoded: page.size, declared: page.size)
      try file.select(page.location)
      let profile = page.colorProfile(file)
      let (pixels, partial) = try TIFFRaster.decode(file, page, options: options, deadline: deadline)
      let turn = options.appliesOrientation ? page.orientation : .up
      var image = Image(
        frames: [ImageFrame(pixels: pixels.applying(turn))], format: .tiff, orientation: page.orientation,
        isPartial: partial)
      image.colorProfile = profile
      return image
    }
    image.scale = options.scale
    if options.keepsOriginalData { image.originalData = data }
    return image
  }
}
