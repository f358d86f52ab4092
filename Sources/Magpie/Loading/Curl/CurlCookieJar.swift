import CCurl
import Foundation

/// One loader's ``CookieJar`` in libcurl: a cookie share every easy handle
/// of the loader joins (locked by a mutex, for the loader's threads), and
/// the jar's file, if any, read as transfers start and written as they end.
///
/// `@unchecked Sendable`: the share is locked by libcurl through its own
/// mutex; the pointers never change after `init`.
final class CurlCookieJar: @unchecked Sendable {
  private let share: UnsafeMutableRawPointer
  private let lock: UnsafeMutableRawPointer
  /// The jar's file, for a ``CookieJar/file(_:)`` jar.
  let file: String?

  /// The jar `jar` asks for; `nil` when libcurl cannot make a share.
  init?(_ jar: CookieJar) {
    var lock: UnsafeMutableRawPointer?
    guard let share = magpie_cookie_share_new(&lock), let lock else { return nil }
    self.share = share
    self.lock = lock
    if case .file(let url) = jar { file = url.path } else { file = nil }
  }

  deinit {
    magpie_cookie_share_free(share, lock)
  }

  /// Joins `easy` to the jar: cookies from the share, and from the file.
  func attach(to easy: UnsafeMutableRawPointer) -> CURLcode {
    var code = magpie_curl_setopt_share(easy, share)
    // "" turns the cookie engine on without reading a file.
    if code == CURLE_OK { code = magpie_curl_setopt_string(easy, CURLOPT_COOKIEFILE, file ?? "") }
    if code == CURLE_OK, let file { code = magpie_curl_setopt_string(easy, CURLOPT_COOKIEJAR, file) }
    return code
  }

  /// After a transfer ended: writes the jar's file, if any, and takes
  /// `easy` out of the share, so that no idle handle refers to it (the
  /// share is freed with the jar, which the transfers keep alive) and its
  /// list of files to read does not grow with each reuse.
  func detach(_ easy: UnsafeMutableRawPointer) {
    if file != nil { _ = magpie_curl_setopt_string(easy, CURLOPT_COOKIELIST, "FLUSH") }
    _ = magpie_curl_setopt_string(easy, CURLOPT_COOKIEJAR, nil)
    _ = magpie_curl_setopt_string(easy, CURLOPT_COOKIEFILE, nil)
    _ = magpie_curl_setopt_share(easy, nil)
  }
}
