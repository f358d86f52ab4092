/// Sources whose last load failed for good (a 404, an undecodable body),
/// most recent first, so they are not requested again without
/// ``ImageLoadingOptions/retryFailed``. The oldest are forgotten, so a
/// long-running process does not keep every bad URL it ever met. Keyed by
/// source, whatever processors asked for it.
final class FailedSourceMemory: Sendable {
  /// How many failed sources are remembered.
  static let capacity = 4096

  private let failures = MemoryCache<String, MagpieError>(
    limits: .init(totalCost: .max, count: FailedSourceMemory.capacity, expiration: .never))

  /// The remembered failure of `source`, if any.
  func failure(of source: String) -> MagpieError? { failures.value(forKey: source) }

  /// Forgets `source` (a retry was asked for).
  func forget(_ source: String) { _ = failures.removeValue(forKey: source) }

  /// Forgets every source.
  func removeAll() { failures.removeAll() }

  /// Learns from a finished load of `source`: a success clears it, a
  /// permanent failure is remembered, anything else changes nothing.
  func record(_ result: Result<ImageResult, MagpieError>, of source: String) {
    switch result {
    case .success: forget(source)
    case .failure(let error) where Self.isPermanent(error): failures.setValue(error, forKey: source, cost: 1)
    case .failure: break
    }
  }

  /// Failures that will not go away by asking again. Decode failures count
  /// even when a processor met them (every chain gets the same bytes);
  /// ``MagpieError/Code/processingFailed`` is the chain's, not the source's.
  static func isPermanent(_ error: MagpieError) -> Bool {
    switch error.code {
    case .httpStatus:
      guard let status = error.statusCode else { return false }
      return (400..<500).contains(status) && status != 408 && status != 429
    case .invalidResponse, .corruptData, .unsupportedFormat, .imageTooLarge: return true
    case .processingFailed: return false
    default: return false
    }
  }
}
