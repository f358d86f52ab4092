/// How to decode: at what size, within what limits, and what to keep.
public struct DecodeOptions: Sendable {
  /// How a decode-time target size is matched.
  public enum ContentMode: Sendable {
    /// The image will be shown fitted inside the target size.
    case aspectFit
    /// The image will be shown covering the target size (and cropped).
    case aspectFill
  }

  /// The size the image will be shown at, in pixels, upright. When set,
  /// decoders that can shrink while decoding (JPEG DCT scaling, WebP scaling)
  /// decode at the smallest size that still covers it; the result is never
  /// smaller than what `contentMode` needs and is not the exact target size.
  ///
  /// Pixels come out with straight alpha, exactly as stored, except when the
  /// stored image is larger than the target needs: such pixels are going to
  /// be resampled, which needs premultiplied colour, so the still PNG
  /// decoder premultiplies while each row is in cache instead of leaving a
  /// second pass to the resampler. (WebP shrinks inside libwebp to the
  /// final size and stays straight.) ``PixelBuffer/alphaRepresentation``
  /// says which.
  public var targetSize: PixelSize?
  /// How `targetSize` is matched.
  public var contentMode: ContentMode
  /// The most pixels one decoded frame may have; a larger image is an
  /// ``MagpieError/Code/imageTooLarge`` error naming its size. Checked
  /// against the size after decode-time downsampling.
  public var maxPixelCount: Int
  /// The most bytes all decoded frames of an animation may take together
  /// (default 256 MiB); bounds what a small hostile file can make a decoder
  /// allocate. GIF, APNG and animated WebP check it against the frame count
  /// and canvas their headers declare before any pixel memory is taken (one
  /// frame with `firstFrameOnly`). A still image, or one frame, is bounded
  /// by ``maxPixelCount`` alone. JPEG caps a multi-scan file's coefficient
  /// memory with it too (about 3 bytes a pixel for 4:2:0 colour, so a
  /// progressive photo over about 89 megapixels needs a higher limit).
  public var maxTotalByteCount: Int
  /// Decode only the first frame of an animation.
  public var firstFrameOnly: Bool
  /// Turn pixels upright as the EXIF orientation says (default `true`).
  public var appliesOrientation: Bool
  /// Keep the encoded bytes in ``Image/originalData``.
  public var keepsOriginalData: Bool
  /// The display scale given to the decoded image.
  public var scale: Double
  /// Return what could be decoded of a damaged image, flagged
  /// ``Image/isPartial``, instead of failing (default `true`). JPEG: a
  /// truncated file, the rest filled in by libjpeg. GIF: damage after the
  /// first frame (data cut short, corrupt LZW data, a bad record) ends the
  /// animation there, keeping the frames before it and the damaged frame as
  /// far as it decoded, as Firefox does; a damaged first frame fails either
  /// way. With `false` such images fail with the damage's error
  /// (``MagpieError/Code/truncatedData`` or ``MagpieError/Code/corruptData``).
  public var allowsPartialImage: Bool
  /// Decode an animation's poster frame only and carry the rest as an
  /// ``Image/animation`` whose frames are decoded while it plays (through
  /// the format's frame source), instead of every frame up front. Costs
  /// one canvas and the frame buffer's budget, not all frames, so
  /// ``maxTotalByteCount`` does not apply. Still images, formats without a
  /// frame source and `firstFrameOnly` decode as usual. Default `false`.
  public var decodesFramesOnDemand = false
  /// Keep the file's EXIF and XMP in ``Image/metadata`` (default `false`),
  /// for an encode that writes them again (``EncodeOptions/keepsMetadata``).
  public var keepsMetadata = false
  /// What to do with an embedded colour profile: convert to sRGB (default)
  /// or keep the stored values and the profile. Conversion happens in
  /// ``CoderRegistry/decode(_:options:)`` and the other paths out of the
  /// coders, so a coder only attaches the profile it read. A CMYK JPEG's
  /// profile is used while decoding and never attached (preserving gives
  /// the naive inversion, which the profile does not describe).
  public var colorManagement = ColorManagement.convertToSRGB
  /// The budget of the frame buffer an on-demand animation plays from
  /// (see ``AnimationFrameBuffer``).
  public var frameBufferBudget = AnimationFrameBuffer.defaultBudget
  /// The most frames an animation may have or declare (default
  /// ``defaultMaxFrameCount``); more is a ``MagpieError/Code/limitExceeded``
  /// error naming the count, raised from the headers before any frame is
  /// decoded, by the eager decode and the frame sources of every animated
  /// format. With ``firstFrameOnly`` only the first frame is read and the
  /// limit does not apply.
  public var maxFrameCount = DecodeOptions.defaultMaxFrameCount
  /// The longest one image's decode may take (default
  /// ``defaultDecodeTimeLimit``; `nil` for no limit). Longer is a
  /// ``MagpieError/Code/limitExceeded`` error naming the time. Checked
  /// cooperatively at frame boundaries and between bands of rows where
  /// Magpie drives the decoder (GIF's LZW, PNG and APNG rows and frames,
  /// JPEG's scanline loop), and between frames where a library decodes a
  /// whole frame at once (WebP, AVIF, JPEG XL, HEIC). A frame source
  /// applies it to each ``ImageFrameSource/frame(at:)`` call.
  public var decodeTimeLimit: Duration? = DecodeOptions.defaultDecodeTimeLimit
  /// For a video, the time of the frame to make the image of (the first
  /// frame at or after it; the last frame past the end); `nil` or zero,
  /// the first frame.
  public var posterTime: Duration?
  /// The clock ``decodeTimeLimit`` is measured on; tests put a virtual one
  /// here.
  package var decodeClock = DecodeClock.continuous

  /// Full-size decode of every frame, 100-megapixel limit, 256 MiB for all
  /// frames together, orientation applied.
  public init(
    targetSize: PixelSize? = nil, contentMode: ContentMode = .aspectFit,
    maxPixelCount: Int = 100_000_000, maxTotalByteCount: Int = 256 << 20,
    firstFrameOnly: Bool = false, appliesOrientation: Bool = true, keepsOriginalData: Bool = false,
    scale: Double = 1, allowsPartialImage: Bool = true
  ) {
    self.targetSize = targetSize
    self.contentMode = contentMode
    self.maxPixelCount = maxPixelCount
    self.maxTotalByteCount = maxTotalByteCount
    self.firstFrameOnly = firstFrameOnly
    self.appliesOrientation = appliesOrientation
    self.keepsOriginalData = keepsOriginalData
    self.scale = scale
    self.allowsPartialImage = allowsPartialImage
  }

  /// The smallest stored size that still covers the target once shown
  /// upright, for a source of `stored` pixels tagged with `orientation`.
  /// `nil` when no target is set.
  public func requiredStoredSize(for stored: PixelSize, orientation: ImageOrientation) -> PixelSize? {
    guard let targetSize, targetSize.width > 0, targetSize.height > 0 else { return nil }
    let displayed = orientation.displayedSize(of: stored)
    let needed =
      switch contentMode {
      case .aspectFit: displayed.fitting(in: targetSize)
      case .aspectFill: displayed.filling(targetSize)
      }
    return orientation.swapsDimensions ? needed.transposed : needed
  }

  /// Whether a source of `stored` pixels tagged with `orientation` is larger
  /// than the target needs on either axis, so that it will be resampled.
  public func downsamples(_ stored: PixelSize, orientation: ImageOrientation) -> Bool {
    guard let needed = requiredStoredSize(for: stored, orientation: orientation) else { return false }
    return needed.width < stored.width || needed.height < stored.height
  }

  /// The largest of `denominators` by which a decoder may shrink `stored`
  /// (rounding up, as libjpeg and libwebp do) and still cover the target;
  /// 1 when no target is set.
  public func shrinkDenominator(
    for stored: PixelSize, orientation: ImageOrientation, choices denominators: [Int] = [2, 4, 8]
  ) -> Int {
    guard let needed = requiredStoredSize(for: stored, orientation: orientation) else { return 1 }
    var best = 1
    for d in denominators where d > best {
      let w = (stored.width + d - 1) / d
      let h = (stored.height + d - 1) / d
      if w >= needed.width && h >= needed.height { best = d }
    }
    return best
  }

  /// Throws ``MagpieError/Code/imageTooLarge`` when a frame of `decoded`
  /// pixels exceeds the limit; `declared` is the size the file claims.
  public func checkPixelLimit(decoded: PixelSize, declared: PixelSize) throws(MagpieError) {
    guard decoded.width > 0, decoded.height > 0 else {
      throw MagpieError(.corruptData, "image declares an empty size \(declared)")
    }
    if decoded.pixelCount > maxPixelCount {
      let note = decoded == declared ? "" : " (\(decoded) after downsampling)"
      throw MagpieError(
        .imageTooLarge,
        "\(declared) is \(declared.pixelCount) pixels\(note), over the limit of \(maxPixelCount)")
    }
  }

  /// Throws ``MagpieError/Code/imageTooLarge`` when `frameCount` frames of a
  /// `canvas`-sized RGBA8 animation in `format` (a word for the message,
  /// such as "gif") would take more than ``maxTotalByteCount`` bytes. Called
  /// with what the headers declare, before any frame is allocated.
  package func checkAnimationByteLimit(format: String, frameCount: Int, canvas: PixelSize) throws(MagpieError) {
    // One frame is a still: the pixel limit has bounded it already.
    if frameCount <= 1 { return }
    let (frameBytes, frameOverflow) = canvas.pixelCount.multipliedReportingOverflow(by: PixelBuffer.bytesPerPixel)
    let (total, overflow) = frameBytes.multipliedReportingOverflow(by: frameCount)
    let overflows = frameOverflow || overflow
    if !overflows && total <= maxTotalByteCount { return }
    let needs = overflows ? "more than \(Int.max)" : "\(total)"
    throw MagpieError(
      .imageTooLarge,
      "\(format) animation of \(frameCount) frames of \(canvas) needs \(needs) bytes, over the "
        + "\(maxTotalByteCount)-byte limit for all frames (DecodeOptions.maxTotalByteCount)")
  }
}

/// What decoding does with an image's colour profile.
public enum ColorManagement: Sendable, Hashable {
  /// Convert tagged pixels to sRGB (the default): a Display P3 or Adobe RGB
  /// photo shows as its author saw it. Untagged and sRGB-tagged images are
  /// left as decoded, at no cost.
  case convertToSRGB
  /// Keep the pixels' values as stored and carry the profile in
  /// ``Image/colorProfile``.
  case preserve
}
