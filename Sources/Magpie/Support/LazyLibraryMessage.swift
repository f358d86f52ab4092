/// Why a C library opened on first use (`magpie_lazy.h`) could not be
/// opened, as `copy` (one of the loaders' `mp_*_library_error` functions)
/// writes it into a buffer. The loaders hand out copies, taken under the
/// library's lock, because the message itself may be rewritten at any time
/// by another thread that meets a failure.
package func lazyLibraryMessage(_ copy: (UnsafeMutablePointer<CChar>, Int) -> Void) -> String {
  withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
    let start = buffer.baseAddress!
    start.initialize(to: 0)
    copy(start, buffer.count)
    return String(cString: start)
  }
}
