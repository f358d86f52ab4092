/// The start of an image's rows, handed to the threads that convert
/// disjoint bands of them.
///
/// `@unchecked Sendable`: each thread writes only its own rows, and the
/// caller waits for every band before the buffer is used again.
struct RowBase: @unchecked Sendable {
  /// The first row's first byte.
  let pointer: UnsafeMutableRawPointer

  /// Rows starting at `pointer`.
  init(_ pointer: UnsafeMutableRawPointer) {
    self.pointer = pointer
  }
}
