import Magpie

/// What one transform URL asks for, in imgproxy's option vocabulary
/// (see docs/serve.md for each option's URL form).
///
/// A value with every field at its default leaves the source's pixels as
/// they are, apart from the output format. ``canonicalString`` names the
/// value exactly: two URLs that spell the same options differently (an
/// option's long or short name, a preset, a different order) give one
/// canonical string, so they share one cache entry and one ETag.
public struct TransformOptions: Sendable, Hashable {
  /// `rs:`/`resize:`, `rt:`/`resizing_type:`, `s:`/`size:`, `w:`, `h:`, `el:`: how to fit
  /// the image into ``width`` × ``height``.
  public var resizingType: ResizingType = .fit
  /// The target width in CSS pixels (multiplied by ``devicePixelRatio``);
  /// 0 follows the height, keeping the aspect ratio.
  public var width = 0
  /// The target height in CSS pixels; 0 follows the width.
  public var height = 0
  /// `el:`/`enlarge:`: whether a source smaller than the target is
  /// enlarged. Default `false`: it is served at its own size.
  public var enlarges = false
  /// `ex:`/`extend:`, or `rs:`'s fifth argument: whether a result smaller
  /// than ``width`` × ``height`` is padded out to that size (centred, filled
  /// as ``padding`` is). Default `false`.
  public var extends = false
  /// `g:`/`gravity:`: which part of the image a crop (``ResizingType/fill``)
  /// keeps.
  public var gravity: Gravity = .center
  /// `q:`/`quality:`: lossy quality 1-100; `nil` (`q:0`, as imgproxy) uses
  /// the server's default.
  public var quality: Int? = nil
  /// `f:`/`format:`/`ext:`, or the path's `@EXT` / `.EXT`: the output
  /// format; `nil` negotiates one from the request's `Accept`.
  public var format: ImageFormat? = nil
  /// `dpr:`: multiplies ``width``, ``height`` and ``padding`` (above 0, at
  /// most 8).
  public var devicePixelRatio = 1.0
  /// `bl:`/`blur:`: a Gaussian blur's sigma in pixels; 0 is none.
  public var blurSigma = 0.0
  /// `sh:`/`sharpen:`: an unsharp mask's sigma in pixels; 0 is none.
  public var sharpenSigma = 0.0
  /// `pd:`/`padding:`: space added around the result, filled with
  /// ``background`` (transparent where the format has alpha and no
  /// background is given, white otherwise).
  public var padding = Padding()
  /// `bg:`/`background:`: a colour that transparent pixels are flattened
  /// onto, and that padding is filled with; `nil` (`bg:` with nothing
  /// after it, as imgproxy) keeps transparency.
  public var background: RGBAColor? = nil
  /// `rot:`/`rotate:`: a clockwise turn after the EXIF orientation, 0, 90,
  /// 180 or 270 degrees.
  public var rotation = 0
  /// `sm:`/`strip_metadata:`: drop EXIF and XMP from the result. Default
  /// `true`, as imgproxy does.
  public var stripsMetadata = true
  /// `kcr:`/`keep_copyright:`: when stripping, keep the copyright and
  /// artist fields of the EXIF. Default `true`, as imgproxy does.
  public var keepsCopyright = true
  /// `cc:`/`color_profile:`: which colour profile the result is in.
  public var colorProfile: ColorProfileOption = .sRGB

  /// Options that change nothing.
  public init() {}

  /// The effective target size in pixels: ``width`` and ``height`` times
  /// ``devicePixelRatio``, rounded.
  public var pixelWidth: Int { Int((Double(width) * devicePixelRatio).rounded()) }
  /// See ``pixelWidth``.
  public var pixelHeight: Int { Int((Double(height) * devicePixelRatio).rounded()) }
}
