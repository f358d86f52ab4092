import CCurl
import Foundation

/// Translates libcurl's result codes into ``MagpieError``s.
enum CurlErrorMapping {
  /// The Magpie error for a transfer that ended with `code`; `detail` is
  /// libcurl's error buffer for it (may be empty).
  static func error(_ code: CURLcode, detail: String, url: URL?) -> MagpieError {
    let target = url.redactedDescription(or: "the request")
    let why = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    switch code {
    case CURLE_OPERATION_TIMEDOUT:
      return MagpieError(.timedOut, "\(target) did not answer in time: \(why)")
    case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
      return MagpieError(.network, "could not connect to \(target): \(why)")
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
      return MagpieError(
        .network, "the TLS connection to \(target) failed its checks: its public key is not one of the pinned keys")
    case CURLE_SSL_CERTPROBLEM:
      return MagpieError(.network, "the TLS client certificate or key for \(target) could not be used: \(why)")
    case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CIPHER,
      CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
      CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED:
      return MagpieError(.network, "the TLS connection to \(target) failed its checks: \(why)")
    case CURLE_GOT_NOTHING:
      return MagpieError(.network, "\(target) closed the connection without answering")
    case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3, CURLE_QUIC_CONNECT_ERROR:
      return MagpieError(.network, "the connection to \(target) failed: \(why)")
    case CURLE_PARTIAL_FILE:
      return MagpieError(.invalidResponse, "\(target) ended the body before its Content-Length: \(why)")
    case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING, CURLE_FILESIZE_EXCEEDED, CURLE_RANGE_ERROR:
      return MagpieError(.invalidResponse, "\(target) sent a response that is not valid HTTP: \(why)")
    case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
      return MagpieError(.invalidArgument, "\(target) is not a URL this loader can fetch: \(why)")
    default:
      return MagpieError(.network, "loading \(target) failed: \(why) (libcurl error \(code.rawValue))")
    }
  }
}
