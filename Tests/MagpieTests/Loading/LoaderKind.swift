import Foundation
import Magpie
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The data loaders under test; every behaviour test runs on each.
enum LoaderKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case urlSession
  case curl
  /// ``CurlDataLoader/data(for:)``, the body collected on libcurl's thread,
  /// seen through ``WholeBodyLoader``'s stream.
  case curlWholeBody

  var testDescription: String { rawValue }

  func make(_ configuration: DataLoaderConfiguration = DataLoaderConfiguration()) -> any DataLoading {
    switch self {
    case .urlSession: URLSessionDataLoader(configuration: configuration)
    case .curl: CurlDataLoader(configuration: configuration)
    case .curlWholeBody: WholeBodyLoader(CurlDataLoader(configuration: configuration))
    }
  }

  /// Whether the body arrives as it streams in (one event per chunk), not
  /// as one event at the end.
  var streams: Bool { self != .curlWholeBody }

  /// Whether libcurl does the transfer.
  var isCurl: Bool { self != .urlSession }

  /// Whether the origin can wait for this loader to close an endless
  /// body's connection after a cancel: the curl loaders, which own their
  /// sockets. Not FoundationNetworking's URLSession: its task is cancelled
  /// and its stream ended, but it has kept the connection open for over
  /// 240 s under ThreadSanitizer, and past 30 s in a loaded plain run
  /// (one of two full runs on 2026-12-06), as if never.
  var closesEndlessBodyPromptly: Bool { isCurl }
}

/// A configuration for tests. The defaults are generous: on a loaded
/// machine (the tests run in parallel) only the tests about timeouts may
/// see one; they pass short limits of their own.
func quickConfiguration(
  timeout: Duration = .seconds(10), resourceTimeout: Duration = .seconds(30)
) -> DataLoaderConfiguration {
  DataLoaderConfiguration(timeout: timeout, resourceTimeout: resourceTimeout)
}
