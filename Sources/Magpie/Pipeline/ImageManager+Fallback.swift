import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Alternative sources (``ImageRequest/alternativeSources``), tried when a
/// job's own source fails.
extension ImageManager {
  /// Tries `job`'s alternative sources in order after its source failed
  /// with `error`. Each is a load of its own through the front door (its
  /// own cache keys, shared work and stores), awaited on the job's task,
  /// so cancelling the job cancels it. The first that loads is the job's
  /// result; when all fail, the error is the last one's, its reason
  /// listing every source's failure in order.
  func fallBack(_ job: LoadJob, after error: MagpieError) async -> Result<ImageResult, MagpieError> {
    var failures = [(Self.describe(job.request.source), error)]
    for source in job.request.alternativeSources {
      var alternative = job.request
      alternative.source = source
      alternative.alternativeSources = []
      alternative.priority = job.priority
      do throws(MagpieError) {
        return .success(try await image(for: alternative))
      } catch {
        if error.code == .cancelled || Task.isCancelled { return .failure(error) }
        failures.append((Self.describe(source), error))
      }
    }
    var final = failures[failures.count - 1].1
    let each = failures.map { "\($0.0): \($0.1.code): \($0.1.reason)" }.joined(separator: "; ")
    final.reason = "every source failed (\(each))"
    return .failure(final)
  }

  /// A source as a job key tells it apart: its whole URL, or a
  /// provider's cache key.
  static func identity(of source: ImageRequest.Source) -> String {
    switch source {
    case .network(let request): request.url?.absoluteString ?? ""
    case .provider(let provider): "provider \(provider.cacheKey)"
    }
  }

  /// A source as errors name it: a URL without its password and query,
  /// or a provider's cache key.
  static func describe(_ source: ImageRequest.Source) -> String {
    switch source {
    case .network(let request): request.url.map(\.redactedDescription) ?? "a request without a URL"
    case .provider(let provider): "provider \(provider.cacheKey)"
    }
  }
}
