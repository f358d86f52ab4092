/// A request as ``FaultOrigin`` received it.
struct FaultOriginRequest: Sendable {
  /// `GET`, `HEAD`, ...
  var method: String
  /// The request target: path and query.
  var target: String
  /// Header fields, names lowercased.
  var headers: [String: String]
  /// Which connection it came on (numbered from 1 in accept order).
  var connection: Int
}
