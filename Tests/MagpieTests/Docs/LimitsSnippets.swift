import Foundation
import Magpie

/// The code the Limits and Hostile Input article quotes, compiled with the
/// tests.
enum LimitsSnippets {
  /// The article's manager for untrusted images: tighter decode and loader
  /// limits than the defaults.
  static func strictManager() throws -> ImageManager {
    // snippet.begin strict-limits
    var limits = DecodeOptions(maxPixelCount: 24_000_000, maxTotalByteCount: 128 << 20)
    limits.maxFrameCount = 1_000
    limits.decodeTimeLimit = .seconds(5)
    let loader = DataLoaderConfiguration(
      timeout: .seconds(10), resourceTimeout: .seconds(30), maximumBodySize: 16 << 20, maximumRedirects: 5)
    var configuration = try ImageManager.Configuration.standard(namespace: "uploads", loader: loader)
    configuration.decodeLimits = limits
    configuration.maximumLocalSourceBytes = 16 << 20
    let manager = ImageManager(configuration: configuration)
    // snippet.end
    return manager
  }

  /// The article's refusals, told apart by code and by rule.
  static func describeFailure(_ manager: ImageManager, _ url: URL) async {
    // snippet.begin refusal-codes
    do {
      _ = try await manager.image(for: ImageRequest(url: url))
    } catch {
      switch error.code {
      case .imageTooLarge, .limitExceeded: print("over a limit: \(error.reason)")
      case .invalidResponse where error.refusal == .maximumBodySize: print("the body is over maximumBodySize")
      case .timedOut: print("too slow: \(error.reason)")
      default: print("failed: \(error)")
      }
    }
    // snippet.end
  }
}
