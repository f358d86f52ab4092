import Foundation
import Magpie
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

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
