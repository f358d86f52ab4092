import Magpie

extension TransformProcessor {
  /// The unsharp mask's strength: 100 % of the difference from the blur,
  /// no threshold (Pillow's `UnsharpMask(sigma, 100, 0)`). imgproxy's
  /// libvips `sharpen` works on LAB lightness with its own curve; a plain
  /// unsharp mask is what the reference tools can check.
  static let sharpenPercent = 100

  /// One frame through the steps after decoding: resize, turn, crop, blur,
  /// sharpen, flatten and pad. A step that changes nothing is skipped, so
  /// untouched pixels keep their straight alpha.
  func transformed(_ source: PixelBuffer, geometry: TransformGeometry) -> PixelBuffer {
    var pixels = source
    if pixels.size != geometry.scaledSize {
      pixels = Resampler.resample(pixels, to: geometry.scaledSize, kernel: .lanczos3, colorSpace: .sRGB)
    }
    pixels = pixels.rotated(quarterTurns: geometry.quarterTurns)
    if geometry.crops {
      let size = geometry.cropSize
      let origin = geometry.cropOrigin(for: options.gravity) ?? SmartCrop.origin(of: size, in: pixels)
      pixels = pixels.cropped(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }
    if options.blurSigma > 0 {
      pixels = GaussianBlur.blur(pixels, sigma: options.blurSigma)
    }
    if options.sharpenSigma > 0 {
      let mask = ImageProcessors.Sharpen(radius: options.sharpenSigma, percent: Self.sharpenPercent, threshold: 0)
      pixels = mask.sharpened(pixels)
    }
    return framed(pixels, geometry: geometry)
  }

  /// `pixels` flattened onto the background (where it has one and the
  /// pixels are not opaque) inside the extension and the padding, which
  /// are filled with the background or left transparent.
  private func framed(_ pixels: PixelBuffer, geometry: TransformGeometry) -> PixelBuffer {
    let padding = geometry.padding
    let flattens = options.background != nil && !pixels.isOpaque
    let extends = geometry.extendedSize != geometry.cropSize
    guard flattens || extends || !padding.isEmpty else { return pixels }
    let origin = geometry.extensionOrigin
    return pixels.placed(
      on: geometry.resultSize, atX: padding.left + origin.x, y: padding.top + origin.y,
      background: options.background?.premultiplied)
  }

  /// `transform(...)`: every field of ``options``, each spelled one way,
  /// so equal options give equal identifiers and different ones never
  /// meet. Fields that do not change pixels (format, quality, metadata,
  /// colour profile) are named too: the identifier names the whole
  /// request, and costs nothing more to name it whole.
  public var identifier: String {
    let o = options
    let number = ProcessorIdentifier.number
    let gravity =
      switch o.gravity {
      case .smart: "sm"
      case .anchor(let anchor, let x, let y): "\(anchor.rawValue):\(number(x)):\(number(y))"
      case .focusPoint(let x, let y): "fp:\(number(x)):\(number(y))"
      }
    let p = o.padding
    let fields = [
      "rt=\(o.resizingType.rawValue)", "s=\(o.width)x\(o.height)", "el=\(o.enlarges ? 1 : 0)",
      "ex=\(o.extends ? 1 : 0)", "g=\(gravity)",
      "dpr=\(number(o.devicePixelRatio))", "bl=\(number(o.blurSigma))", "sh=\(number(o.sharpenSigma))",
      "pd=\(p.top):\(p.right):\(p.bottom):\(p.left)", "bg=\(o.background.map(\.description) ?? "none")",
      "rot=\(o.rotation)", "q=\(o.quality.map(String.init) ?? "auto")", "f=\(o.format?.rawValue ?? "auto")",
      "sm=\(o.stripsMetadata ? 1 : 0)", "kcr=\(o.keepsCopyright ? 1 : 0)", "cc=\(o.colorProfile.rawValue)",
    ]
    return "transform(\(fields.joined(separator: ";")))"
  }
}
