import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A ``DataLoading`` over `URLSession` (FoundationNetworking on Linux).
///
/// Bytes stream in through a data delegate, with progress. Redirects,
/// timeouts, response checks, the body cap and credentials follow
/// ``DataLoaderConfiguration``, implemented here rather than left to
/// FoundationNetworking, which on Linux has whole-second, idle-only
/// timeouts, a fixed limit of 20 redirects that keeps headers across hosts,
/// and no server-trust hook: ``DataLoaderConfiguration/hostsAllowingInvalidCertificates``
/// is not honoured (certificates are always checked). Use ``CurlDataLoader``
/// where that matters, or for speed.
///
/// The session has no `URLCache`: caching is the image cache's job.
public final class URLSessionDataLoader: DataLoading {
  /// The settings every load uses.
  public let configuration: DataLoaderConfiguration
  private let session: URLSession
  private let delegate: URLSessionLoaderDelegate
  private let control = DispatchQueue(label: "magpie.urlsession-loader.control")

  /// A loader with `configuration`, on a session made from
  /// `sessionConfiguration` (copied; its cache is turned off).
  public init(
    configuration: DataLoaderConfiguration = DataLoaderConfiguration(),
    sessionConfiguration: URLSessionConfiguration = .default
  ) {
    self.configuration = configuration
    let settings = sessionConfiguration.copy() as? URLSessionConfiguration ?? .default
    settings.urlCache = nil
    settings.requestCachePolicy = .reloadIgnoringLocalCacheData
    settings.httpMaximumConnectionsPerHost = configuration.maximumConnectionsPerHost
    // Our own timers enforce the limits; these only back them up.
    let backstop = Double(configuration.resourceTimeout.components.seconds) + 5
    settings.timeoutIntervalForRequest = backstop
    settings.timeoutIntervalForResource = backstop
    let queue = OperationQueue()
    queue.name = "magpie.urlsession-loader"
    queue.maxConcurrentOperationCount = 1
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
      request: request, configuration: configuration, continuation: continuation, registry: delegate,
      control: control)
    continuation.onTermination = { termination in
      if case .cancelled = termination { transfer.cancel() }
    }
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
    return stream
  }
}
