@testable import Magpie

/// Disk-write failures the manager reported.
final class WriteFailures: Sendable {
  private let errors = Lock<[MagpieError]>([])
  func record(_ error: MagpieError) { errors.withLock { $0.append(error) } }
  var recorded: [MagpieError] { errors.withLock { $0 } }
}
