import Foundation

/// Where a loader keeps the cookies servers set, when it keeps them at all
/// (``DataLoaderConfiguration/cookieJar``; off by default, so that a
/// cookie one image host sets never reaches another). With a jar, a cookie
/// a response sets is sent with later requests it matches (by domain, path,
/// expiry and `Secure`, libcurl's cookie engine), across every load of
/// that loader.
///
/// ``CurlDataLoader`` honours both; ``URLSessionDataLoader`` honours
/// neither and refuses its loads when one is set.
public enum CookieJar: Sendable, Equatable {
  /// In memory, for the loader's life.
  case memory
  /// In a Netscape-format cookie file: read when the loader's transfers
  /// start, written back after each transfer ends.
  case file(URL)
}
