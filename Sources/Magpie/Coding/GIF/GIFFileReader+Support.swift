import CGIF
import Foundation

extension GIFFileReader {
  /// The error for giflib's `code` while doing `what` (truncation when the
  /// data ran short).
  static func error(code: Int32, ranShort: Bool, while what: String) -> MagpieError {
    if ranShort {
      return MagpieError(.truncatedData, "gif data ends early while \(what)")
    }
    let message = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
    return MagpieError(.corruptData, "gif is damaged while \(what): \(message)")
  }

  /// Adds an ICC extension's data block to `profile` in place; past
  /// ``ColorTransformBuilder/maxProfileByteCount`` the profile is dropped.
  static func append(_ block: UnsafePointer<GifByteType>, count: Int, toProfile profile: inout Data?) {
    guard let size = profile?.count else { return }
    if size + count <= ColorTransformBuilder.maxProfileByteCount {
      profile?.append(block, count: count)
    } else {
      profile = nil
    }
  }
}
