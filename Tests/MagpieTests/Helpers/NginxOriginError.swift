/// Why a ``NginxOrigin`` could not start or answer.
struct NginxOriginError: Error, CustomStringConvertible {
  var reason: String
  var description: String { reason }
}
