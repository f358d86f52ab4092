import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The response modifiers and data transformers one load runs on its
/// source's bytes, the manager's then the request's, and the identifiers
/// that make loads with different hooks different work.
struct ResponseHooks: Sendable {
  let modifiers: [ResponseModifier]
  let transformers: [DataTransformer]
  /// The identifiers, in order: part of the fetch and job keys.
  let key: [String]

  /// The hooks of `request` under a manager configured with `configuration`.
  init(_ request: ImageRequest, configuration: ImageManager.Configuration) {
    let managerModifiers = configuration.responseModifiers
    let managerTransformers = configuration.dataTransformers
    let requestModifiers = request.responseModifiers
    let requestTransformers = request.dataTransformers
    if managerModifiers.isEmpty && managerTransformers.isEmpty && requestModifiers.isEmpty
      && requestTransformers.isEmpty
    {
      modifiers = []
      transformers = []
      key = []
      return
    }
    modifiers = managerModifiers + requestModifiers
    transformers = managerTransformers + requestTransformers
    key = modifiers.map { "response:" + $0.identifier } + transformers.map { "data:" + $0.identifier }
  }

  /// `request` as it is sent: marked, when a transformer will make the
  /// image of its body, so that the loader does not refuse a body that
  /// is not an image yet (``ResponseValidator/opaqueBodyField``).
  func prepared(_ request: URLRequest) -> URLRequest {
    guard !transformers.isEmpty else { return request }
    var marked = request
    marked.setValue("1", forHTTPHeaderField: ResponseValidator.opaqueBodyField)
    return marked
  }

  /// Whether there is nothing to run.
  var isEmpty: Bool { key.isEmpty }

  /// Runs the modifiers on `response` (when there is one) and the
  /// transformers on `data` (unless it is a `304`'s empty body).
  func apply(to data: Data, response: HTTPURLResponse?) async throws(MagpieError) -> (Data, HTTPURLResponse?) {
    var response = response
    if let current = response {
      var modified = current
      for modifier in modifiers { modified = try await modifier.modify(modified) }
      response = modified
    }
    if response?.statusCode == 304 { return (data, response) }
    var data = data
    for transformer in transformers { data = try await transformer.transform(data, response: response) }
    return (data, response)
  }
}
