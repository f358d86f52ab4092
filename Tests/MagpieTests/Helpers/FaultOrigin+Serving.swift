import Foundation
import Magpie

#if canImport(Glibc)
  import Glibc
#endif

extension FaultOrigin {
  func acceptLoop() {
    while true {
      let descriptor = accept(listener, nil, nil)
      if descriptor < 0 {
        // After stop() shut it down (under the lock, once), the listener is
        // this thread's to close; any other failure is retried.
        if state.withLock(\.stopped) {
          close(listener)
          return
        }
        var none = pollfd(fd: -1, events: 0, revents: 0)
        _ = poll(&none, 0, 10)
        continue
      }
      let number = state.withLock { state -> Int? in
        guard !state.stopped else { return nil }
        state.connections += 1
        state.descriptors.insert(descriptor)
        return state.connections
      }
      guard let number else {
        close(descriptor)
        continue
      }
      let thread = Thread { [self] in serve(descriptor, number: number) }
      thread.name = "fault-origin.connection"
      thread.start()
    }
  }

  private func serve(_ descriptor: Int32, number: Int) {
    let socket = FaultSocket(descriptor: descriptor, isStopped: { [self] in state.withLock(\.stopped) })
    var paths: Set<String> = []
    var clientClosed = false
    var closedHere = false
    while let head = socket.readHead() {
      let path = Self.path(of: head.target)
      paths.insert(path)
      let (route, servedBefore) = state.withLock { state -> (FaultRoute?, Int) in
        state.requests.append(
          FaultOriginRequest(method: head.method, target: head.target, headers: head.headers, connection: number))
        let served = state.served[path] ?? 0
        state.served[path] = served + 1
        signal(&state)
        return (state.routes[path], served)
      }
      switch answer(head, route: route, servedBefore: servedBefore, on: socket) {
      case .keepAlive:
        if head.headers["connection"]?.lowercased() == "close" {
          socket.finish()
          closedHere = true
        }
      case .clientClosed:
        clientClosed = true
      case .closedByOrigin:
        closedHere = true
      }
      if clientClosed || closedHere { break }
    }
    state.withLock { state in
      // readHead returned nil (the client closed), or the client left
      // mid-answer, unless the origin itself stopped or closed.
      clientClosed = clientClosed || (!closedHere && !state.stopped)
      state.descriptors.remove(descriptor)
      close(descriptor)
      if clientClosed {
        for path in paths { state.closes[path, default: 0] += 1 }
        signal(&state)
      }
    }
  }
}
