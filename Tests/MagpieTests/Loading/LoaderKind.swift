import Foundation
import Magpie
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Every data-loader test that opens connections, one at a time.
///
/// Serialized because FoundationNetworking's URLSession on Linux is not safe
/// against heavy socket churn in the same process: under parallel
/// timeouts and cancellations it was seen to wedge its internal queue in a
/// blocking `recv` on a descriptor that another socket had taken over
/// (swift-corelibs-foundation issues #4791 and #5412 describe the same
/// family of bugs). ``URLSessionDataLoader`` survives that (its own timers
/// still end every load), but a wedged session fails the test that uses it.
@Suite("Data loaders", .serialized)
enum DataLoaderTests {}

/// The data loaders under test; every behaviour test runs on each.
enum LoaderKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case urlSession
  case curl

  var testDescription: String { rawValue }

  func make(_ configuration: DataLoaderConfiguration = DataLoaderConfiguration()) -> any DataLoading {
    switch self {
    case .urlSession: URLSessionDataLoader(configuration: configuration)
    case .curl: CurlDataLoader(configuration: configuration)
    }
  }
}

/// A configuration for tests. The defaults are generous: on a loaded
/// machine (the tests run in parallel) only the tests about timeouts may
/// see one; they pass short limits of their own.
func quickConfiguration(
  timeout: Duration = .seconds(10), resourceTimeout: Duration = .seconds(30)
) -> DataLoaderConfiguration {
  DataLoaderConfiguration(timeout: timeout, resourceTimeout: resourceTimeout)
}

/// Everything one load delivered, how it ended and how long it took.
struct LoadOutcome: Sendable {
  var response: HTTPURLResponse?
  var body = Data()
  var progress: [(received: Int64, expected: Int64?)] = []
  var error: MagpieError?
  var otherError: String?
  var elapsed: Duration = .zero
  var events: [String] = []

  /// Runs `request` to the end through `loader`.
  static func load(_ request: URLRequest, with loader: any DataLoading) async -> LoadOutcome {
    var outcome = LoadOutcome()
    let clock = ContinuousClock()
    let start = clock.now
    do {
      for try await event in loader.load(request) {
        switch event {
        case .response(let response):
          outcome.events.append("response")
          outcome.response = response
        case .data(let chunk, let received, let expected):
          outcome.events.append("data")
          outcome.body.append(chunk)
          outcome.progress.append((received, expected))
        }
      }
    } catch let error as MagpieError {
      outcome.error = error
    } catch {
      outcome.otherError = "\(error)"
    }
    outcome.elapsed = clock.now - start
    return outcome
  }

  /// Runs a GET of `url`.
  static func load(_ url: URL, with loader: any DataLoading) async -> LoadOutcome {
    await load(URLRequest(url: url), with: loader)
  }
}

/// Bytes that sniff as PNG: the signature, then `count - 8` bytes of a
/// pattern (the loaders check the format, never decode).
func pngLikeBytes(_ count: Int, seed: UInt8 = 1) -> Data {
  var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
  data.append(contentsOf: (0..<max(0, count - 8)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
  return data
}
