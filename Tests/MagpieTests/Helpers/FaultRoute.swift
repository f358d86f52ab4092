import Foundation

/// How ``FaultOrigin`` answers requests for one path: correct answers and
/// the faults nginx cannot produce. Each fault is timed on the origin's own
/// threads; tests never sleep, they await the origin's events.
enum FaultRoute: Sendable {
  /// `200` with `body`, Content-Length and keep-alive; with an `etag`, a
  /// request whose `If-None-Match` matches gets `304 Not Modified`.
  case ok(Data, contentType: String = "image/png", etag: String? = nil)
  /// Reads the request and answers nothing until the client leaves.
  case stall
  /// Sends the head (announcing all of `body`) and `sent` bytes of it,
  /// then nothing until the client leaves.
  case stallMidBody(Data, sent: Int)
  /// Waits `delay` before answering like ``ok(_:contentType:etag:)``
  /// (sooner if the client leaves).
  case delayHeaders(Duration, Data)
  /// Announces all of `body`, sends `after` bytes, then resets the
  /// connection (TCP RST).
  case dropMidBody(Data, after: Int)
  /// Announces `declared` bytes, sends all of `body` (fewer), then closes
  /// cleanly (FIN): a wrong Content-Length.
  case shortBody(Data, declared: Int)
  /// `200` without Content-Length: `prefix`, then zeros until the client
  /// leaves.
  case endless(prefix: Data)
  /// A redirect to `location`.
  case redirect(status: Int, location: String)
  /// Any status, with extra headers and a small text body.
  case status(Int, headers: [String: String] = [:], body: String = "")
  /// `status` (with `Retry-After`) for the first `times` requests, then
  /// `200` with `body`.
  case failing(times: Int, status: Int, retryAfter: String?, then: Data)
  /// The head at once, then the body one byte every `interval`.
  case slowloris(Data, interval: Duration)
  /// The whole response, head included, one byte every `interval`.
  case slowHead(Data, interval: Duration)
  /// `200` with `Transfer-Encoding: chunked`: `body` in `pieces` chunks,
  /// then a trailer field when `trailer` is set.
  case chunked(Data, pieces: Int, trailer: Bool)
  /// `200` with an HTML page: what a misconfigured server sends instead of
  /// an image.
  case html(String)
  /// `200` with `fieldBytes` bytes of filler header fields (lines of
  /// about 1 KB), then `body`: a head too large to keep.
  case hugeHead(fieldBytes: Int, body: Data)
  /// `200` with `Content-Encoding: gzip` or `deflate` and no length: a
  /// compressed stream that inflates to a PNG signature and then zeros
  /// without end (see ``DeflateBomb``), until the client leaves.
  case bomb(encoding: String)
  /// `200` with `Transfer-Encoding: chunked`: `prefix`, then 64 KB chunks
  /// of zeros until the client leaves.
  case endlessChunked(prefix: Data)
  /// Announces `declared` bytes, sends all of `body` (more), then closes.
  case longBody(Data, declared: Int)
  /// A server that takes byte ranges: the first request gets `200` with
  /// all of `body` announced (`ETag`, `Accept-Ranges: bytes`) and
  /// `cutAt` bytes sent before the connection closes; later ones get
  /// `206` for `Range: bytes=N-` whose `If-Range` names the version now
  /// served, else `200` whole. With `changedTo`, later requests serve
  /// that version instead, under another ETag.
  case resumable(Data, etag: String, cutAt: Int, changedTo: Data? = nil)
  /// HTTP Digest access authentication (RFC 7616, MD5, `qop=auth`), which
  /// nginx has no module for in Debian: `401` with a challenge in `realm`
  /// unless the request's `Authorization` answers it for `user` and
  /// `password`, then `200` with `body`.
  case digest(realm: String, user: String, password: String, body: Data)
}
