import Foundation

/// Decodes Windows icons (`.ico`) and cursors (`.cur`), in the core.
///
/// Every entry in the directory is read, PNG entries through the PNG coder
/// and BMP entries (32-bit alpha, or 1 to 24 bits with the AND mask making
/// pixels transparent) through the BMP decoder. ``decode(_:options:)``
/// gives one entry: the smallest that covers ``DecodeOptions/targetSize``
/// without enlarging (the most bits per pixel among equals), or the largest
/// when there is no target or none covers it. Every entry, largest first,
/// is reachable through ``MultiImageCoder`` (and `magpie decode` writes
/// them all). A cursor's hotspot is in ``Image/metadata``
/// (``ImageMetadata/cursorHotspot``) and ``SubimageInfo/hotspot``.
///
/// Limits: a directory of more than ``DecodeOptions/maxFrameCount`` entries
/// is refused before its entries are read; each entry is checked against
/// the pixel limit by its own decoder before its pixels are allocated.
public struct ICOCoder: MultiImageCoder {
  /// Creates the coder.
  public init() {}

  /// True for icon and cursor data.
  public func canDecode(_ data: Data, format: ImageFormat) -> Bool { format == .ico }

  /// Decodes the entry `options` want (see the type's description).
  public func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    try PinnedBytes.with(data) { (b) throws(MagpieError) -> Image in
      let directory = try ICODirectory(b, maxEntries: options.maxFrameCount)
      return try decode(directory.preferredIndex(for: options), of: directory, in: b, data: data, options: options)
    }
  }

  /// The largest entry's size; the entry count as frames.
  public func info(of data: Data) throws(MagpieError) -> ImageInfo {
    try PinnedBytes.with(data) { (b) throws(MagpieError) -> ImageInfo in
      let directory = try ICODirectory(b, maxEntries: DecodeOptions().maxFrameCount)
      let count = directory.entries.count
      return ImageInfo(
        format: .ico, size: directory.entries[0].size, frameCount: count,
        frameDurations: Array(repeating: .zero, count: count), byteCount: b.count)
    }
  }

  /// Every usable entry, largest first.
  public func subimages(in data: Data) throws(MagpieError) -> [SubimageInfo] {
    try PinnedBytes.with(data) { (b) throws(MagpieError) -> [SubimageInfo] in
      try ICODirectory(b, maxEntries: DecodeOptions().maxFrameCount).entries.map(\.info)
    }
  }

  /// Decodes entry `index` of ``subimages(in:)``.
  public func decodeSubimage(at index: Int, in data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    try PinnedBytes.with(data) { (b) throws(MagpieError) -> Image in
      let directory = try ICODirectory(b, maxEntries: options.maxFrameCount)
      guard directory.entries.indices.contains(index) else {
        throw MagpieError(.invalidArgument, "ico has \(directory.entries.count) entries, no entry \(index)")
      }
      return try decode(index, of: directory, in: b, data: data, options: options)
    }
  }

  private func decode(
    _ index: Int, of directory: ICODirectory, in b: UnsafeRawBufferPointer, data: Data, options: DecodeOptions
  ) throws(MagpieError) -> Image {
    let entry = directory.entries[index]
    let result = try ICOEntryDecoder.decode(entry, in: b, options: options)
    var image = Image(
      frames: [ImageFrame(pixels: result.pixels)], format: .ico, scale: options.scale, isPartial: result.isPartial)
    if let hotspot = entry.hotspot { image.metadata = ImageMetadata(cursorHotspot: hotspot) }
    if options.keepsOriginalData { image.originalData = data }
    return image
  }
}
