/// The one error Magpie throws: what failed (`code`), why (`reason`), and the
/// lower-level error that caused it, when there is one.
///
/// New failure kinds are new `Code` values, so the type can grow without
/// breaking `switch`es in user code. Compare codes with `==`:
///
/// ```swift
/// do { _ = try registry.decode(data) }
/// catch where error.code == .imageTooLarge { ... }
/// ```
public struct MagpieError: Error, Sendable, CustomStringConvertible {
  /// What kind of failure this is.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private let name: String

    private init(_ name: String) { self.name = name }

    /// The bytes are not in any format a registered coder understands.
    public static let unsupportedFormat = Code("unsupported format")
    /// The bytes claim a known format but break its rules.
    public static let corruptData = Code("corrupt data")
    /// The bytes end before the image does.
    public static let truncatedData = Code("truncated data")
    /// The image declares more pixels than the configured limit allows.
    public static let imageTooLarge = Code("image too large")
    /// A limit other than an image's size was reached: more frames than
    /// ``DecodeOptions/maxFrameCount``, a decode longer than
    /// ``DecodeOptions/decodeTimeLimit``, or a `file://` or `data:` source
    /// over ``ImageManager/Configuration/maximumLocalSourceBytes``. The
    /// reason names the limit, its value and what the source had (pixels
    /// and bytes over their limits stay ``imageTooLarge``).
    public static let limitExceeded = Code("limit exceeded")
    /// An encoder refused or failed to produce bytes.
    public static let encodingFailed = Code("encoding failed")
    /// A caller passed a value outside what the API accepts.
    public static let invalidArgument = Code("invalid argument")
    /// Reading or writing a file failed.
    public static let fileSystem = Code("file system")
    /// The work was cancelled before it finished.
    public static let cancelled = Code("cancelled")
    /// The transport failed: no connection, a reset, a TLS failure, or a
    /// server that stopped answering.
    public static let network = Code("network")
    /// The request ran past its timeout.
    public static let timedOut = Code("timed out")
    /// The server answered with a status other than success;
    /// ``MagpieError/statusCode`` holds it.
    public static let httpStatus = Code("HTTP status")
    /// The server answered 2xx, but not with an image (an HTML error page,
    /// a wrong Content-Length, a body over the size cap, a redirect loop).
    public static let invalidResponse = Code("invalid response")
    /// A processor could not produce an image.
    public static let processingFailed = Code("processing failed")
    /// The image is not in the cache and the request allowed no other source.
    public static let notCached = Code("not cached")

    /// The code's name, e.g. `"corrupt data"`.
    public var description: String { name }
  }

  /// Which rule of the loader's configuration refused the work, for
  /// failures that are a refusal rather than a fault: a caller tells the
  /// limit it set from the source's own failure by this, not by the
  /// reason's words. The code stays what it is (``Code/invalidResponse``
  /// for a body over the cap, ``Code/network`` for a refused address,
  /// ``Code/httpStatus`` for a refused redirect).
  public struct Refusal: Hashable, Sendable, CustomStringConvertible {
    private let name: String

    private init(_ name: String) { self.name = name }

    /// The body is larger than ``DataLoaderConfiguration/maximumBodySize``,
    /// announced or as it arrived.
    public static let maximumBodySize = Refusal("maximumBodySize")
    /// ``DataLoaderConfiguration/addressFilter`` refused the address the
    /// loader was about to connect to.
    public static let addressFilter = Refusal("addressFilter")
    /// ``DataLoaderConfiguration/redirectHandler`` refused a redirect.
    public static let redirectHandler = Refusal("redirectHandler")
    /// A redirect pointed outside http and https, which is always refused.
    public static let redirectScheme = Refusal("redirectScheme")

    /// The rule's name, e.g. `"maximumBodySize"`.
    public var description: String { name }
  }

  /// What kind of failure this is.
  public var code: Code
  /// Why it failed, in words meant for a log line or a terminal.
  public var reason: String
  /// The lower-level error behind this one, if any.
  public var underlying: (any Error & Sendable)?
  /// The HTTP status, for ``Code/httpStatus`` errors.
  public var statusCode: Int?
  /// How long the server asked to wait before retrying (`Retry-After`).
  public var retryAfter: Duration?
  /// The ``ImageProcessor/identifier`` of the processor that threw this
  /// error, when one did: a processor's own failure
  /// (``Code/processingFailed``) or a decode failure (``Code/corruptData``,
  /// ``Code/imageTooLarge``...) met while it decoded the bytes it was
  /// given, which keeps its code. Set by the processor itself, or else by
  /// the chain or pipeline that ran it; `nil` for failures outside any
  /// processor.
  public var processor: String?
  /// The loader's rule that refused the work, when it was a refusal.
  public var refusal: Refusal?

  /// Creates an error of the given kind with a human-readable reason.
  public init(
    _ code: Code, _ reason: String, underlying: (any Error & Sendable)? = nil, statusCode: Int? = nil,
    retryAfter: Duration? = nil, processor: String? = nil, refusal: Refusal? = nil
  ) {
    self.code = code
    self.reason = reason
    self.underlying = underlying
    self.statusCode = statusCode
    self.retryAfter = retryAfter
    self.processor = processor
    self.refusal = refusal
  }

  /// This error with ``processor`` set to `identifier` unless a processor
  /// (an inner one of a chain) already claimed it.
  func raised(by identifier: String) -> MagpieError {
    var error = self
    if error.processor == nil, !identifier.isEmpty { error.processor = identifier }
    return error
  }

  /// `"<code>: <reason>"`, plus the processor when the reason does not
  /// already name it and the underlying error when there is one.
  public var description: String {
    var text = "\(code): \(reason)"
    if let processor, !reason.contains(processor) {
      text += " (in processor \(processor))"
    }
    if let underlying {
      text += " (\(underlying))"
    }
    return text
  }
}
