import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Turns the caller's request into the one a loader sends: checks the URL,
/// runs the request modifiers in order and adds configured credentials.
enum RequestPreparation {
  /// The prepared request when every modifier is synchronous, or `nil` when
  /// one is `async` and ``prepare(_:configuration:)`` must run instead.
  static func prepareSynchronously(
    _ request: URLRequest, configuration: DataLoaderConfiguration
  ) -> Result<URLRequest, MagpieError>? {
    guard configuration.requestModifiers.allSatisfy(\.isSynchronous) else { return nil }
    var request = request
    for modifier in configuration.requestModifiers {
      guard case .sync(let change) = modifier.body else { continue }
      do {
        try change(&request)
      } catch {
        return .failure(failure(error))
      }
    }
    return finish(request, configuration: configuration)
  }

  /// The prepared request, running `async` modifiers too.
  static func prepare(_ request: URLRequest, configuration: DataLoaderConfiguration) async -> Result<
    URLRequest, MagpieError
  > {
    var request = request
    for modifier in configuration.requestModifiers {
      do {
        request = try await modifier.modify(request)
      } catch {
        return .failure(failure(error))
      }
    }
    return finish(request, configuration: configuration)
  }

  /// Checks the scheme and host, and adds credentials unless a modifier
  /// already set `Authorization`.
  static func finish(_ request: URLRequest, configuration: DataLoaderConfiguration) -> Result<
    URLRequest, MagpieError
  > {
    guard let url = request.url else {
      return .failure(MagpieError(.invalidArgument, "the request has no URL"))
    }
    let scheme = url.scheme?.lowercased()
    guard scheme == "http" || scheme == "https" else {
      return .failure(
        MagpieError(.invalidArgument, "\(url.redactedDescription) is not an http or https URL"))
    }
    guard let host = url.host, !host.isEmpty else {
      return .failure(MagpieError(.invalidArgument, "\(url.redactedDescription) has no host"))
    }
    var request = request
    addCredentials(to: &request, configuration: configuration)
    return .success(request)
  }

  /// Adds the configured credentials for the request's host, unless the
  /// request already carries an `Authorization` header.
  static func addCredentials(to request: inout URLRequest, configuration: DataLoaderConfiguration) {
    guard request.value(forHTTPHeaderField: "Authorization") == nil,
      let credentials = configuration.credentials(for: request.url)
    else { return }
    request.setValue(credentials.authorization, forHTTPHeaderField: "Authorization")
  }

  private static func failure(_ error: any Error) -> MagpieError {
    if let error = error as? MagpieError { return error }
    if error is CancellationError { return MagpieError(.cancelled, "the load was cancelled") }
    return MagpieError(.invalidArgument, "a request modifier failed", underlying: error)
  }
}
