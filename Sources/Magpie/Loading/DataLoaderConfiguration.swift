import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// How a data loader (``URLSessionDataLoader``, ``CurlDataLoader``) fetches,
/// checks and limits a transfer. Every loader honours every setting, except
/// where a setting's comment says otherwise.
///
/// Timeouts come in two kinds, both enforced by the loader itself with
/// millisecond precision:
/// - ``timeout`` is an **idle** limit: the longest wait for the connection,
///   the response head, or the next body bytes. A server that stops sending
///   is cut off this long after its last byte.
/// - ``resourceTimeout`` is a **total** limit on the whole load, redirects
///   included. It is what stops a slowloris server that trickles bytes just
///   often enough to keep the idle limit from firing.
public struct DataLoaderConfiguration: Sendable {
  /// The idle limit (default 15 s). A request whose `timeoutInterval` is
  /// shorter uses that instead, so one request can ask for less.
  public var timeout: Duration
  /// The total limit for one load, from start to last byte (default 60 s).
  public var resourceTimeout: Duration
  /// The largest body accepted, in bytes (default 64 MB). A larger announced
  /// Content-Length fails before any body is read; a body that grows past it
  /// cancels the transfer. Both end in ``MagpieError/Code/invalidResponse``.
  public var maximumBodySize: Int64
  /// The most bytes a response head may take, all its lines together
  /// (default 64 KiB; a `1xx` head before it counts too, and so do the
  /// trailer fields of a chunked body). A larger head fails with
  /// ``MagpieError/Code/invalidResponse`` naming this limit.
  /// ``CurlDataLoader`` checks it line by line as the head arrives;
  /// ``URLSessionDataLoader`` only sees a whole head, which
  /// FoundationNetworking's libcurl has already bounded (100 KiB a line,
  /// 300 KiB in all), so it checks the head's size when it arrives.
  public var maximumHeaderSize: Int
  /// How many redirects one load follows (default 10); one more fails with
  /// ``MagpieError/Code/invalidResponse``.
  public var maximumRedirects: Int
  /// Asked before each redirect is followed: follow it, follow a changed
  /// request, or refuse it (the load then fails with
  /// ``MagpieError/Code/httpStatus`` and the redirect's status). `nil`
  /// follows every redirect up to ``maximumRedirects``.
  public var redirectHandler: (@Sendable (HTTPRedirect) async -> RedirectDecision)?
  /// Changes made to every request before it is sent, in order.
  public var requestModifiers: [RequestModifier]
  /// Credentials sent with requests to their hosts (the first that matches),
  /// up front rather than after a 401. A redirect to another host drops the
  /// `Authorization` header of the previous one.
  public var credentials: [HTTPCredentials]
  /// Hosts whose TLS certificates are not checked. Empty by default: every
  /// certificate is verified against the system's trust store.
  /// ``CurlDataLoader`` honours it; ``URLSessionDataLoader`` cannot on Linux
  /// (FoundationNetworking offers no server-trust hook) and refuses every
  /// load while it is set.
  public var hostsAllowingInvalidCertificates: Set<String>
  /// Certificate authorities, a client certificate, pinned keys and the
  /// lowest TLS version (see ``TLSConfiguration``); the system's defaults
  /// unless set.
  public var tls: TLSConfiguration
  /// Where cookies servers set are kept and sent back from (see
  /// ``CookieJar``); `nil` (the default) keeps none.
  public var cookieJar: CookieJar?
  /// Asked for a login when a server answers `401` with a challenge and
  /// the loader has none for that host and port yet: return one to try
  /// again (once per download), `nil` to fail with the 401. The login is
  /// kept for the host, and libcurl answers each later challenge from it
  /// in the scheme the server asks for (Basic, Digest, Negotiate where
  /// built in). Through ``ImageDownloader``; ``CurlDataLoader`` only.
  /// `nil` by default: a 401 fails.
  public var challengeHandler: (@Sendable (HTTPAuthenticationChallenge) async -> HTTPLogin?)?
  /// Asked with every address the loader is about to connect to, after
  /// DNS, redirects included: 4 bytes for IPv4, 16 for IPv6. Returning
  /// `false` refuses the connection, and the load fails with
  /// ``MagpieError/Code/network`` naming the address and this setting.
  /// Checking at connect time is what stops DNS rebinding: a host that
  /// resolves to a public address when it is checked and to a private
  /// one when it is fetched. ``CurlDataLoader`` only. `nil` by default.
  public var addressFilter: (@Sendable (_ address: [UInt8]) -> Bool)? = nil
  /// Whether a 2xx body must sniff as an image format (default `true`): an
  /// HTML error page sent with 200 then fails with
  /// ``MagpieError/Code/invalidResponse``.
  public var requiresImageContent: Bool
  /// At most this many connections to one host at a time (default 6).
  public var maximumConnectionsPerHost: Int

  /// The defaults: 15 s idle and 60 s total timeouts, a 64 MB body cap, a
  /// 64 KiB head cap, 10 redirects, image content required, certificates always checked.
  public init(
    timeout: Duration = .seconds(15), resourceTimeout: Duration = .seconds(60),
    maximumBodySize: Int64 = 64 << 20, maximumRedirects: Int = 10,
    redirectHandler: (@Sendable (HTTPRedirect) async -> RedirectDecision)? = nil,
    requestModifiers: [RequestModifier] = [], credentials: [HTTPCredentials] = [],
    hostsAllowingInvalidCertificates: Set<String> = [], requiresImageContent: Bool = true,
    maximumConnectionsPerHost: Int = 6, maximumHeaderSize: Int = 64 << 10, tls: TLSConfiguration = TLSConfiguration(),
    cookieJar: CookieJar? = nil
  ) {
    self.tls = tls
    self.cookieJar = cookieJar
    self.timeout = timeout
    self.resourceTimeout = resourceTimeout
    self.maximumBodySize = maximumBodySize
    self.maximumRedirects = maximumRedirects
    self.redirectHandler = redirectHandler
    self.requestModifiers = requestModifiers
    self.credentials = credentials
    self.hostsAllowingInvalidCertificates = hostsAllowingInvalidCertificates
    self.requiresImageContent = requiresImageContent
    self.maximumConnectionsPerHost = maximumConnectionsPerHost
    self.maximumHeaderSize = maximumHeaderSize
  }

  /// The idle limit for `request`: ``timeout``, or the request's own
  /// `timeoutInterval` when that is shorter.
  func idleTimeout(for request: URLRequest) -> Duration {
    let own = request.timeoutInterval
    guard own > 0, own.isFinite, Duration.seconds(own) < timeout else { return timeout }
    return .seconds(own)
  }

  /// The credentials for `url`'s host, if any are configured.
  func credentials(for url: URL?) -> HTTPCredentials? {
    guard let host = url?.host?.lowercased() else { return nil }
    return credentials.first { $0.host == nil || $0.host?.lowercased() == host }
  }
}
