import Foundation

extension ImageResult {
  /// A result's fields, shared by its copies until one changes
  /// (``ImageResult`` copies it first then).
  ///
  /// `@unchecked Sendable`: a storage is changed only through a result that
  /// holds the only reference to it (`isKnownUniquelyReferenced`), so a
  /// shared one is never written: value semantics, as `Array`'s.
  final class Storage: @unchecked Sendable {
    var image: Image
    var cacheType: CacheType
    var request: ImageRequest
    var data: Data?
    var metrics: ImageTaskMetrics

    init(image: Image, cacheType: CacheType, request: ImageRequest, data: Data?, metrics: ImageTaskMetrics) {
      self.image = image
      self.cacheType = cacheType
      self.request = request
      self.data = data
      self.metrics = metrics
    }

    /// An unshared copy.
    func copy() -> Storage {
      Storage(image: image, cacheType: cacheType, request: request, data: data, metrics: metrics)
    }
  }
}
