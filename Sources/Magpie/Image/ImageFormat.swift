/// An encoded image format, as recognised from the bytes themselves.
///
/// Magpie never trusts a URL's extension or a `Content-Type` header: use
/// ``sniff(_:)`` on the data.
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
  /// JPEG (JFIF, EXIF), baseline or progressive.
  case jpeg
  /// PNG, still.
  case png
  /// Animated PNG: a PNG with an `acTL` chunk before its first `IDAT`.
  case apng
  /// GIF 87a/89a, still or animated.
  case gif
  /// WebP: lossy, lossless or animated.
  case webp
  /// AVIF (an ISO-BMFF `ftyp` with an AV1 image brand).
  case avif
  /// HEIC/HEIF (an ISO-BMFF `ftyp` with a HEVC image brand).
  case heic
  /// JPEG XL: a bare codestream (`FF 0A`) or the ISO-BMFF container whose
  /// first box is the `JXL ` signature.
  case jxl
  /// Windows bitmap.
  case bmp
  /// TIFF, either byte order.
  case tiff
  /// Windows icon or cursor (`.ico`, `.cur`).
  case ico
  /// SVG (XML whose root element is `svg`).
  case svg
  /// PDF (`%PDF-` first): its pages drawn as images.
  case pdf
  /// MP4 video (an ISO-BMFF `ftyp` with an MP4 brand): a frame as a poster.
  case mp4
  /// QuickTime video (`ftyp` brand `qt  `): a frame as a poster.
  case mov
  /// WebM or Matroska video (an EBML header): a frame as a poster.
  case webm
  /// Anything else.
  case unknown

  /// Whether the format is a video, whose images are its frames' posters.
  public var isVideo: Bool { self == .mp4 || self == .mov || self == .webm }

  /// Whether the format is drawn rather than stored as pixels (SVG, PDF),
  /// so it renders at whatever size is asked for.
  public var isVector: Bool { self == .svg || self == .pdf }

  /// The conventional file extension, without the dot.
  public var fileExtension: String {
    switch self {
    case .jpeg: "jpg"
    case .png, .apng: "png"
    case .unknown: "bin"
    default: rawValue
    }
  }

  /// The media type a server would send for this format.
  public var mimeType: String {
    switch self {
    case .jpeg: "image/jpeg"
    case .png: "image/png"
    case .apng: "image/apng"
    case .gif: "image/gif"
    case .webp: "image/webp"
    case .avif: "image/avif"
    case .heic: "image/heic"
    case .jxl: "image/jxl"
    case .bmp: "image/bmp"
    case .tiff: "image/tiff"
    case .ico: "image/vnd.microsoft.icon"
    case .svg: "image/svg+xml"
    case .pdf: "application/pdf"
    case .mp4: "video/mp4"
    case .mov: "video/quicktime"
    case .webm: "video/webm"
    case .unknown: "application/octet-stream"
    }
  }
}
