import Foundation

extension CoderRegistry {
  /// What each image `data` holds side by side is (an icon's entries, largest
  /// first), from the headers; `nil` when its coder is not a
  /// ``MultiImageCoder`` (one image, or one animation).
  public func subimages(in data: Data) throws(MagpieError) -> [SubimageInfo]? {
    guard let coder = decoder(for: data) as? any MultiImageCoder else { return nil }
    return try coder.subimages(in: data)
  }

  /// Every image `data` holds side by side, each decoded and colour
  /// managed as ``decode(_:options:)`` does; a file of one image (or one
  /// animation) gives that image alone. Their declared sizes together are
  /// checked against ``DecodeOptions/maxTotalByteCount`` before any is
  /// decoded.
  public func decodeSubimages(_ data: Data, options: DecodeOptions = DecodeOptions()) throws(MagpieError) -> [Image] {
    guard let coder = decoder(for: data) as? any MultiImageCoder else { return [try decode(data, options: options)] }
    let subimages = try coder.subimages(in: data)
    var total = 0
    for subimage in subimages {
      let (bytes, overflow) = subimage.size.pixelCount.multipliedReportingOverflow(by: PixelBuffer.bytesPerPixel)
      total = overflow ? .max : total.addingReportingOverflow(bytes).overflow ? .max : total + bytes
    }
    if subimages.count > 1 && total > options.maxTotalByteCount {
      throw MagpieError(
        .imageTooLarge,
        "\(subimages.count) \(ImageFormat.sniff(data).rawValue) images need \(total) bytes, over the "
          + "\(options.maxTotalByteCount)-byte limit for all frames (DecodeOptions.maxTotalByteCount)")
    }
    var images: [Image] = []
    for index in subimages.indices {
      var image = try coder.decodeSubimage(at: index, in: data, options: options)
      SRGBConversion.apply(to: &image, options: options)
      images.append(image)
    }
    return images
  }
}
