import CCurl
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A ``DataLoading`` over libcurl's multi interface: a thread per core (up
/// to two, see `CurlDriverBalance`) drives the loader's transfers, each
/// thread its own, reusing connections, with bytes delivered as they
/// arrive. It honours every ``DataLoaderConfiguration`` setting,
/// including ``DataLoaderConfiguration/hostsAllowingInvalidCertificates``,
/// and is several times faster than ``URLSessionDataLoader`` on Linux.
///
/// It asks for no compression (images are compressed already) and decodes
/// none: a body sent with a `Content-Encoding` anyway is refused with
/// ``MagpieError/Code/invalidResponse``, so a decompression bomb is never
/// inflated.
///
/// Releasing the loader cancels its loads still running (their streams end
/// with ``MagpieError/Code/cancelled``).
public final class CurlDataLoader: DataLoading, QueueingDataLoader {
  /// The settings every load uses.
  public let configuration: DataLoaderConfiguration
  private let drivers: [CurlMultiDriver]
  private let balance: Lock<CurlDriverBalance>
  /// The cookie jar every transfer joins, when the configuration keeps one.
  private let cookies: CurlCookieJar?
  /// The logins the challenge handler gave, when there is one.
  let logins: CurlLogins?

  /// A loader with `configuration`. If libcurl cannot start, every load
  /// fails with ``MagpieError/Code/network``.
  public convenience init(configuration: DataLoaderConfiguration = DataLoaderConfiguration()) {
    self.init(configuration: configuration, idlePoll: .seconds(5))
  }

  /// A loader whose threads, with nothing to wait for, still look at
  /// their commands every `idlePoll`: a safety net for a lost wake-up.
  /// Tests make it long, so that a lost wake-up hangs rather than costs
  /// seconds that only a timed test would see.
  init(configuration: DataLoaderConfiguration, idlePoll: Duration) {
    self.configuration = configuration
    cookies = configuration.cookieJar.flatMap(CurlCookieJar.init)
    logins = configuration.challengeHandler.map(CurlLogins.init)
    let shares = CurlDriverBalance.shares(
      maximumConnectionsPerHost: configuration.maximumConnectionsPerHost,
      cores: ProcessInfo.processInfo.activeProcessorCount)
    var drivers: [CurlMultiDriver] = []
    for connections in shares {
      guard let driver = try? CurlMultiDriver(maximumConnectionsPerHost: connections, idlePoll: idlePoll) else { break }
      drivers.append(driver)
    }
    self.drivers = drivers
    // When a thread could not start, the ones that did take every transfer.
    balance = Lock(CurlDriverBalance(connectionsPerHost: Array(shares.prefix(drivers.count))))
  }

  deinit {
    for driver in drivers { driver.shutdown() }
  }

  /// libcurl's version line, e.g. `"libcurl/7.88.1 OpenSSL/3.0.19 ..."`.
  public static var libcurlVersion: String {
    String(cString: curl_version())
  }

  /// Starts loading `request`; see ``DataLoading``.
  public func load(_ request: URLRequest) -> AsyncThrowingStream<DataLoadingEvent, any Error> {
    let (events, continuation) = AsyncThrowingStream.makeStream(of: [CurlEvent].self)
    let transfer = CurlTransfer(
      configuration: configuration, output: .stream(continuation), cookies: cookies, logins: logins)
    let load = streaming(transfer, continuation)
    let reader = CurlEventReader(events)
    // The public stream reads the raw one: dropping it drops the raw
    // stream's iterator, which cancels the transfer like a cancelled task.
    let stream = AsyncThrowingStream<DataLoadingEvent, any Error>(unfolding: { try await reader.next() })
    begin(request, load)
    return stream
  }

  /// Loads `request`'s whole body; see ``DataLoading/data(for:progress:)``.
  /// The libcurl thread writes the body straight into one buffer (reserved
  /// from Content-Length) and wakes the caller at the end, and for
  /// `progress` at most every 50 ms on the way.
  public func data(
    for request: URLRequest, progress: ((_ received: Int64, _ expected: Int64?) -> Void)?
  ) async throws(MagpieError) -> (Data, HTTPURLResponse) {
    let (events, continuation) = AsyncThrowingStream.makeStream(of: [CurlEvent].self)
    let transfer = CurlTransfer(
      configuration: configuration, output: .stream(continuation), collectsBody: true,
      reportsProgress: progress != nil, cookies: cookies, logins: logins)
    begin(request, streaming(transfer, continuation))
    return try await DataLoadingEvents.collect(
      CurlEventReader(events).next, onData: DataLoadingEvents.reporting(progress))
  }

  /// Queues a whole-body load in `slot`'s line; see ``QueueingDataLoader``.
  /// When its turn comes (as a rule on the libcurl thread whose transfer
  /// just ended) it goes to a thread at once, and its end is reported on
  /// the libcurl thread: no task is woken for it.
  func enqueueLoad(
    of request: URLRequest, in slot: TransferQueue.Slot, progress: @escaping @Sendable (Int64, Int64?) -> Void,
    completion: @escaping @Sendable (Result<(Data, HTTPURLResponse), MagpieError>) -> Void
  ) -> @Sendable () -> Void {
    let body = BodySink(progress: progress)
    let handle = Lock<CurlLoad?>(nil)
    let transfer = CurlTransfer(
      configuration: configuration,
      output: .sink(
        events: { events in for event in events { body.take(event.dataLoadingEvent) } },
        end: { error in
          // Taken out: the load holds this closure through its transfer.
          handle.withLock { handle in
            defer { handle = nil }
            return handle
          }?.ended(cancelled: false)
          completion(body.finish(error))
        }), collectsBody: true, reportsProgress: true, cookies: cookies, logins: logins)
    let load = CurlLoad(transfer, slot: slot, balance: balance, drivers: drivers)
    handle.withLock { $0 = load }
    slot.enqueue { [self] in begin(request, load) }
    return { load.cancel() }
  }

  /// A load whose stream's end does its bookkeeping.
  private func streaming(_ transfer: CurlTransfer, _ continuation: CurlTransfer.Continuation) -> CurlLoad {
    let load = CurlLoad(transfer, slot: nil, balance: balance, drivers: drivers)
    continuation.onTermination = { termination in
      if case .cancelled = termination { load.ended(cancelled: true) } else { load.ended(cancelled: false) }
    }
    return load
  }

  /// Hands the load to a libcurl thread once `request` is prepared;
  /// nothing if it has already ended.
  private func begin(_ request: URLRequest, _ load: CurlLoad) {
    let transfer = load.transfer
    guard !drivers.isEmpty else {
      transfer.finish(MagpieError(.network, "libcurl could not start"))
      return
    }
    guard let driver = load.assign() else { return }
    if let prepared = RequestPreparation.prepareSynchronously(request, configuration: configuration) {
      Self.submit(prepared, transfer: transfer, driver: driver)
    } else {
      let configuration = configuration
      transfer.setPreparation(
        Task {
          let prepared = await RequestPreparation.prepare(request, configuration: configuration)
          Self.submit(prepared, transfer: transfer, driver: driver)
        })
    }
  }

  private static func submit(
    _ prepared: Result<URLRequest, MagpieError>, transfer: CurlTransfer, driver: CurlMultiDriver
  ) {
    switch prepared {
    case .failure(let error):
      transfer.finish(error)
    case .success(let request):
      if !driver.send(.start(transfer, request)) {
        transfer.finish(MagpieError(.cancelled, "the loader was released while loading"))
      }
    }
  }
}
