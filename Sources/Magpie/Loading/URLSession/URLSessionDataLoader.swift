import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A ``DataLoading`` over `URLSession` (FoundationNetworking on Linux).
///
/// Bytes stream in through a data delegate (`didReceive data`), with
/// progress. Prefer ``CurlDataLoader`` on Linux: it is several times faster
/// and honours every setting. This loader exists for code that must go
/// through `URLSession` (a custom `URLSessionConfiguration`, proxies set
/// there, Apple platforms).
///
/// What FoundationNetworking on Linux does and does not do, and what this
/// loader does about it:
/// - Delegate callbacks for the response, the data and completion work,
///   but the response disposition is ignored (a transfer cannot be paused
///   or turned away there): a failed check cancels the task instead.
/// - Timeouts are whole seconds and idle only (the timer restarts with
///   every chunk); a slowloris server is never cut off. The loader runs its
///   own idle and total timers (millisecond precision) and leaves
///   FoundationNetworking's only as a backstop.
/// - Redirects reach `willPerformHTTPRedirection`, behind a fixed limit of
///   20, with every header of the first request copied to the next host,
///   `Authorization` included. The loader counts against
///   ``DataLoaderConfiguration/maximumRedirects`` and builds the next
///   request itself (``HTTPRedirect/proposedRequest``). Its completion
///   handler traps if it is called after the task was cancelled; the loader
///   never does that.
/// - Credentials: answered challenges are not relied on; configured
///   ``HTTPCredentials`` are sent up front.
/// - There is no server-trust challenge: certificates are always verified,
///   so ``DataLoaderConfiguration/hostsAllowingInvalidCertificates`` is not
///   honoured here.
/// - A clean close before Content-Length arrives as an unknown error; the
///   loader reports it as the short body it is.
/// - A chunked body with a trailer field makes FoundationNetworking stop
///   the process ("Transfer completed, but there's no response", a
///   `fatalError` in its own code); nothing outside it can prevent that.
/// - Under many parallel cancellations and timeouts in one process, its
///   internal queue was seen to wedge in a blocking `recv` on a descriptor
///   another socket had taken over (swift-corelibs-foundation #4791 and
///   #5412 are of this family). `resume()` and `cancel()` wait on that
///   queue, so the loader calls them on its own queue: a wedged session
///   never blocks the caller or a Swift concurrency thread, and the
///   loader's timers still end every load.
///
/// - Compressed bodies: FoundationNetworking asks for gzip, deflate and
///   more and inflates them on its own queue, which a gzip bomb kept busy
///   long after the body cap cancelled the task (the cancel never got
///   through). The loader therefore sends `Accept-Encoding: identity`
///   (unless the request sets its own) and refuses a body sent with a
///   `Content-Encoding` anyway, at its head, as ``CurlDataLoader`` does.
/// - The response head reaches the loader whole, so
///   ``DataLoaderConfiguration/maximumHeaderSize`` is checked once it has
///   arrived (FoundationNetworking's libcurl bounds it before that).
///
/// The session has no `URLCache` and no cookie storage: caching is the
/// image cache's job, and cookies set by one image host must not reach
/// another.
public final class URLSessionDataLoader: DataLoading {
  /// The settings every load uses.
  public let configuration: DataLoaderConfiguration
  let session: URLSession
  let delegate: URLSessionLoaderDelegate
  let control = DispatchQueue(label: "magpie.urlsession-loader.control")
  /// Where the session's delegate runs. An `OperationQueue` of its own on
  /// Linux runs on GCD's global pool, which a dozen blocked jobs anywhere
  /// in the process exhaust: every URLSession load then stalls until they
  /// end. A serial queue of its own always gets a thread. (The operation
  /// queue holds it unowned, so the loader keeps it.)
  let delegateDispatchQueue = DispatchQueue(label: "magpie.urlsession-loader.delegate")
  /// Why every load fails, when the configuration asks for what
  /// FoundationNetworking cannot do on Linux (skipping certificate
  /// checks, TLS settings, a cookie jar): refused, never ignored.
  let refusal: MagpieError?

  /// A loader with `configuration`, on a session made from
  /// `sessionConfiguration` (copied; its cache is turned off).
  public init(
    configuration: DataLoaderConfiguration = DataLoaderConfiguration(),
    sessionConfiguration: URLSessionConfiguration = .default
  ) {
    self.configuration = configuration
    refusal = Self.refusal(for: configuration)
    let settings = sessionConfiguration.copy() as? URLSessionConfiguration ?? .default
    settings.urlCache = nil
    settings.requestCachePolicy = .reloadIgnoringLocalCacheData
    settings.httpMaximumConnectionsPerHost = configuration.maximumConnectionsPerHost
    // No cookie jar: a cookie one image host sets must never ride along to
    // another (the session's jar keys cookies by host, not port or origin).
    // A request that needs one sends it as a header, which a redirect to
    // another origin drops.
    settings.httpCookieStorage = nil
    settings.httpShouldSetCookies = false
    settings.httpCookieAcceptPolicy = .never
    // Our own timers enforce the limits; these only back them up.
    let backstop = Double(configuration.resourceTimeout.components.seconds) + 5
    settings.timeoutIntervalForRequest = backstop
    settings.timeoutIntervalForResource = backstop
    let queue = OperationQueue()
    queue.name = "magpie.urlsession-loader"
    queue.maxConcurrentOperationCount = 1
    queue.underlyingQueue = delegateDispatchQueue
    delegate = URLSessionLoaderDelegate()
    session = URLSession(configuration: settings, delegate: delegate, delegateQueue: queue)
  }

  deinit {
    let session = session
    control.async { session.invalidateAndCancel() }
  }

  /// Starts loading `request`; see ``DataLoading``.
  public func load(_ request: URLRequest) -> AsyncThrowingStream<DataLoadingEvent, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: DataLoadingEvent.self)
    let transfer = URLSessionTransfer(
      request: request, configuration: configuration, output: URLSessionLoadOutput(stream: continuation),
      registry: delegate, control: control)
    continuation.onTermination = { termination in
      if case .cancelled = termination { transfer.cancel() }
    }
    begin(transfer, request)
    return stream
  }

  /// The settings of `configuration` this loader cannot honour, as the
  /// error its loads fail with; `nil` when it honours them all.
  static func refusal(for configuration: DataLoaderConfiguration) -> MagpieError? {
    var settings: [String] = []
    if !configuration.hostsAllowingInvalidCertificates.isEmpty { settings.append("hostsAllowingInvalidCertificates") }
    settings += configuration.tls.changedSettings.map { "tls." + $0 }
    if configuration.cookieJar != nil { settings.append("cookieJar") }
    if configuration.challengeHandler != nil { settings.append("challengeHandler") }
    if configuration.addressFilter != nil { settings.append("addressFilter") }
    guard !settings.isEmpty else { return nil }
    return MagpieError(
      .invalidArgument,
      "URLSessionDataLoader cannot honour \(settings.joined(separator: ", ")) on Linux (FoundationNetworking has "
        + "no hook for it) and loads nothing rather than ignore it; CurlDataLoader honours it")
  }

  /// Prepares `request` (its modifiers) and sends it through `transfer`.
  func begin(_ transfer: URLSessionTransfer, _ request: URLRequest) {
    if let refusal { return transfer.start(.failure(refusal), session: session) }
    if let prepared = RequestPreparation.prepareSynchronously(request, configuration: configuration) {
      transfer.start(prepared, session: session)
    } else {
      let configuration = configuration
      let session = session
      transfer.setPreparation(
        Task {
          let prepared = await RequestPreparation.prepare(request, configuration: configuration)
          transfer.start(prepared, session: session)
        })
    }
  }
}
