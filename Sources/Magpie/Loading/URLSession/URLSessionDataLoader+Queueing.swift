import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The URLSession loader in the downloader's line the way the curl loader
/// is: a queued load starts on the thread that frees its slot (the
/// session's delegate queue, as the transfer before it ends), its body
/// collects there, and its end is reported from there. No task waits for
/// the slot or reads the body.
extension URLSessionDataLoader: QueueingDataLoader {
  func enqueueLoad(
    of request: URLRequest, in slot: TransferQueue.Slot, progress: @escaping @Sendable (Int64, Int64?) -> Void,
    completion: @escaping @Sendable (Result<(Data, HTTPURLResponse), MagpieError>) -> Void
  ) -> @Sendable () -> Void {
    let body = BodySink(progress: progress)
    let output = URLSessionLoadOutput(
      yield: { body.take($0) },
      end: { error in
        // The next transfer in the line starts here, then this one's
        // outcome goes on.
        slot.release()
        completion(body.finish(error))
      })
    let transfer = URLSessionTransfer(
      request: request, configuration: configuration, output: output, registry: delegate, control: control)
    slot.enqueue { [self] in begin(transfer, request) }
    return { transfer.cancel() }
  }
}
