import Foundation

/// The coders Magpie asks, in order: coders you register (newest first),
/// then the built-in JPEG, PNG/APNG, GIF, WebP, BMP and ICO coders.
///
/// This is SDImageCodersManager's rule: a registered coder can take over a
/// format from a built-in one, or add a format Magpie lacks, without any
/// change to Magpie.
public final class CoderRegistry: Sendable {
  /// The registry the rest of Magpie uses unless given another.
  public static let shared = CoderRegistry()

  /// The coders Magpie ships, asked after every registered coder.
  public static var builtInCoders: [any ImageCoder] {
    [JPEGCoder(), PNGCoder(), GIFCoder(), WebPCoder(), BMPCoder(), ICOCoder()]
  }

  private let builtIn: [any ImageCoder]
  private let registered = Lock<[any ImageCoder]>([])

  /// A registry with the built-in coders (or the ones given) and none registered.
  public init(builtIn: [any ImageCoder] = CoderRegistry.builtInCoders) {
    self.builtIn = builtIn
  }

  /// Adds `coder` ahead of every coder already here.
  public func register(_ coder: any ImageCoder) {
    registered.withLock { $0.insert(coder, at: 0) }
  }

  /// Removes every registered coder of type `type`.
  public func unregister<C: ImageCoder>(_ type: C.Type) {
    registered.withLock { $0.removeAll { $0 is C } }
  }

  /// Every coder in the order they are asked.
  public var coders: [any ImageCoder] {
    registered.withLock { $0 } + builtIn
  }

  /// The first coder that decodes `data`, or `nil`.
  public func decoder(for data: Data) -> (any ImageCoder)? {
    let format = ImageFormat.sniff(data)
    return coders.first { $0.canDecode(data, format: format) }
  }

  /// The first coder that encodes `format`, or `nil`.
  public func encoder(for format: ImageFormat) -> (any ImageCoder)? {
    coders.first { $0.canEncode(to: format) }
  }

  /// Decodes `data` with the first coder that takes it; with
  /// ``DecodeOptions/decodesFramesOnDemand``, an animation the coder has a
  /// frame source for becomes its poster frame and an ``Image/animation``
  /// (one whose headers or poster do not read decodes as usual, so damage
  /// is reported, or kept as a partial image, the same way).
  ///
  /// A coder only attaches the colour profile it read
  /// (``Image/colorProfile``); here the pixels are converted to sRGB as
  /// ``DecodeOptions/colorManagement`` asks, so every coder gets colour
  /// management.
  public func decode(_ data: Data, options: DecodeOptions = DecodeOptions()) throws(MagpieError) -> Image {
    do throws(MagpieError) {
      return try decodeUnlogged(data, options: options)
    } catch {
      MagpieLogging.log(
        error.code == .cancelled ? .debug : .notice, "decoder", "decoding \(data.count) bytes failed: \(error)",
        metadata: ["format": ImageFormat.sniff(data).rawValue])
      throw error
    }
  }

  private func decodeUnlogged(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    let coder = try requireDecoder(for: data)
    var image: Image
    if let animation = onDemandAnimation(data, coder: coder, options: options) {
      // Its frames are converted as they are decoded.
      image = animation
    } else {
      image = try coder.decode(data, options: options)
      SRGBConversion.apply(to: &image, options: options)
    }
    if options.keepsMetadata {
      // What the coder set (a hotspot, a video's details) stays.
      let set = image.metadata
      image.metadata = ImageMetadata.read(from: data, isOrientationApplied: options.appliesOrientation)
      image.metadata?.cursorHotspot = set?.cursorHotspot
      image.metadata?.video = set?.video
    }
    return image
  }

  /// `data` as an on-demand animation (see ``decode(_:options:)``), or
  /// `nil` when the options do not ask for one or it is not one.
  func onDemandAnimation(_ data: Data, coder: (any ImageCoder)? = nil, options: DecodeOptions) -> Image? {
    guard options.decodesFramesOnDemand, !options.firstFrameOnly, let coder = coder ?? decoder(for: data),
      let source = try? coder.frameSource(for: data, options: options),
      let animation = try? AnimatedImage(
        data: data, source: source, registry: self, options: options, budget: options.frameBufferBudget,
        monitor: .shared)
    else { return nil }
    var image = Image(animation: animation, scale: options.scale)
    // Frames are converted as they are decoded; only preserved colour carries the profile.
    if options.colorManagement == .preserve { image.colorProfile = source.colorProfile }
    if options.keepsOriginalData { image.originalData = data }
    return image
  }

  /// Reads `data`'s headers with the first coder that takes it.
  public func info(of data: Data) throws(MagpieError) -> ImageInfo {
    try requireDecoder(for: data).info(of: data)
  }

  /// A frame source for the animation in `data` from the first coder that
  /// takes it (see ``ImageCoder/frameSource(for:options:)``), or `nil` for
  /// a still image or a coder without one.
  public func frameSource(
    for data: Data, options: DecodeOptions = DecodeOptions()
  ) throws(MagpieError) -> (any ImageFrameSource)? {
    try requireDecoder(for: data).frameSource(for: data, options: options)
  }

  /// Encodes `image` as `format` with the first coder that writes it.
  public func encode(
    _ image: Image, as format: ImageFormat, options: EncodeOptions = EncodeOptions()
  ) throws(MagpieError) -> Data {
    guard let coder = encoder(for: format) else {
      throw MagpieError(.unsupportedFormat, "no coder encodes \(format.rawValue)")
    }
    let prepared = MetadataEmbedder.preparing(image, options: options)
    let encoded = try coder.encode(prepared, as: format, options: options)
    return try MetadataEmbedder.embed(in: encoded, image: prepared, format: format, options: options)
  }

  private func requireDecoder(for data: Data) throws(MagpieError) -> any ImageCoder {
    if let coder = decoder(for: data) { return coder }
    if data.isEmpty { throw MagpieError(.unsupportedFormat, "the data is empty") }
    let format = ImageFormat.sniff(data)
    if format == .unknown {
      throw MagpieError(.unsupportedFormat, "the bytes are not a known image format")
    }
    throw MagpieError(.unsupportedFormat, "no coder decodes \(format.rawValue)")
  }
}
