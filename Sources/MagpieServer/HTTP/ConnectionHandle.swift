import CMicroHTTPD

/// An MHD connection pointer carried into the task that answers it. MHD
/// keeps the connection alive while it is suspended, and the only call
/// made on it from that task is `MHD_resume_connection`, which MHD allows
/// from any thread.
struct ConnectionHandle: @unchecked Sendable {
  let pointer: OpaquePointer

  /// Lets MHD go on with the connection: it calls the access handler again.
  func resume() { MHD_resume_connection(pointer) }
}
