import CHiredis
import Dispatch
import Foundation
import Magpie
import Synchronization

/// One connection to the server, pipelined: any number of commands may be
/// in flight, their replies come back in order.
///
/// hiredis connects (blocking, with the connect timeout, on a dispatch
/// thread), sends `AUTH` and `SELECT`, and formats every command
/// (`redisFormatCommandArgv`); after that the socket is non-blocking. A
/// command is written by the task that sends it, outside the lock (one
/// writer at a time; commands sent meanwhile queue behind it and the
/// writer writes them too), so a send's system call never holds up the
/// loop matching replies, which cost a context switch per reply when the
/// lock was contended. Replies are read by the
/// pool's ``RedisEventLoop`` thread and parsed by hiredis's reader, each
/// waking its command's task. So a read costs no thread of its own and no
/// hand-off to one (what a blocking client costs per command). Commands
/// sent while connecting are queued and written once connected.
///
/// Any failure (refused, reset, a reply later than the command timeout)
/// breaks the connection and fails every command in flight; the pool then
/// opens a new one. `@unchecked Sendable`: all state is behind `state`,
/// except what the loop's thread alone reads (the read buffer, and the
/// context once registered).
final class RedisConnection: @unchecked Sendable {
  typealias Reply = UnsafeContinuation<Result<RedisReply, MagpieError>, Never>

  private struct Pending {
    var deadline: ContinuousClock.Instant
    var reply: Reply
  }

  private struct State: @unchecked Sendable {
    var context: UnsafeMutablePointer<redisContext>?
    var broken: MagpieError?
    /// Formatted commands not yet written.
    var outbound: [UInt8] = []
    var pending: [Pending] = []
    var head = 0
    /// A task (or the loop) is writing: others only queue.
    var writing = false
    /// The socket took less than it was given; the loop says when it
    /// takes more.
    var waitsForWritable = false
  }

  private let state = Lock(State())
  /// Mirrors of the state the pool routes by, readable without the lock
  /// (routing reads every connection's for every command).
  private let inFlightCount = Atomic<Int>(0)
  private let brokenFlag = Atomic<Bool>(false)
  /// The event loop thread's read buffer (only that thread touches it).
  private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
  /// The connected context as the loop's thread sees it: set once, before
  /// the socket is registered with the loop (whose lock orders the two).
  private nonisolated(unsafe) var loopContext: UnsafeMutablePointer<redisContext>?
  private let loop: RedisEventLoop
  private let timeout: Duration

  /// Starts connecting to `configuration`'s server; commands may be sent
  /// at once.
  init(_ configuration: RedisConfiguration, loop: RedisEventLoop) {
    self.loop = loop
    timeout = configuration.commandTimeout
    DispatchQueue.global(qos: .userInitiated).async { [self] in connect(configuration) }
  }

  deinit {
    if let context = state.withLock({ $0.context }) { redisFree(context) }
    readBuffer.deallocate()
  }

  /// Commands sent and not yet answered.
  var inFlight: Int { inFlightCount.load(ordering: .relaxed) }

  /// Whether the connection failed (the pool replaces it).
  var isBroken: Bool { brokenFlag.load(ordering: .relaxed) }

  /// When the oldest command in flight times out, if one is.
  var earliestDeadline: ContinuousClock.Instant? {
    state.withLock { $0.head < $0.pending.count ? $0.pending[$0.head].deadline : nil }
  }

  /// Sends one command (binary-safe arguments) and waits for its reply: a
  /// `-ERR` reply is a reply, a failed or late one an error.
  func send(_ arguments: [Data]) async -> Result<RedisReply, MagpieError> {
    guard let command = Self.format(arguments) else {
      return .failure(MagpieError(.invalidArgument, "redis: hiredis could not format the command"))
    }
    return await withUnsafeContinuation { reply in
      let deadline = ContinuousClock.now.advanced(by: timeout)
      let next: Result<[UInt8]?, MagpieError> = state.withLock { state in
        if let broken = state.broken { return .failure(broken) }
        state.outbound += command
        state.pending.append(Pending(deadline: deadline, reply: reply))
        inFlightCount.add(1, ordering: .relaxed)
        return .success(Self.takeWriting(&state))
      }
      switch next {
      case .failure(let refused): reply.resume(returning: .failure(refused))
      case .success(let bytes): if let bytes { write(bytes) }
      }
    }
  }

  /// The event loop saw the socket readable: reads what arrived and wakes
  /// the commands whose replies are complete. Only the loop's thread reads
  /// the socket and feeds hiredis's reader, so neither needs the lock; it
  /// is taken only to match replies with their commands.
  func readable() {
    guard let context = loopContext, !isBroken else { return }
    let fd = context.pointee.fd
    var failure: MagpieError?
    while true {
      let count = recv(fd, readBuffer.baseAddress, readBuffer.count, 0)
      if count == 0 {
        failure = MagpieError(.network, "redis: the server closed the connection")
        break
      }
      if count < 0 {
        if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
          failure = MagpieError(.network, "redis: reading failed: \(String(cString: strerror(errno)))")
        }
        break
      }
      _ = redisReaderFeed(context.pointee.reader, readBuffer.baseAddress!.assumingMemoryBound(to: CChar.self), count)
      if count < readBuffer.count { break }
    }
    var replies: [RedisReply] = []
    while true {
      var object: UnsafeMutableRawPointer?
      guard redisReaderGetReply(context.pointee.reader, &object) == REDIS_OK else {
        failure = MagpieError(.network, "redis: the server's reply could not be parsed")
        break
      }
      guard let object else { break }
      replies.append(RedisReply(taking: object))
    }
    let waiting: [Reply]? = state.withLock { state in
      guard state.pending.count - state.head >= replies.count else { return nil }
      let answered = state.pending[state.head..<(state.head + replies.count)].map(\.reply)
      state.head += replies.count
      inFlightCount.subtract(replies.count, ordering: .relaxed)
      if state.head > 64 && state.head * 2 > state.pending.count {
        state.pending.removeFirst(state.head)
        state.head = 0
      }
      return answered
    }
    guard let waiting else {
      fail(MagpieError(.network, "redis: a reply came that no command asked for"))
      return
    }
    for (reply, value) in zip(waiting, replies) { reply.resume(returning: .success(value)) }
    if let failure { fail(failure) }
  }

  /// The event loop saw the socket writable: writes what is queued.
  func writable() {
    let bytes = state.withLock { state -> [UInt8]? in
      state.waitsForWritable = false
      if let context = state.context { loop.watch(context.pointee.fd, writable: false) }
      return Self.takeWriting(&state)
    }
    if let bytes { write(bytes) }
  }

  /// Fails the connection when its oldest command is past its deadline.
  func expire(at now: ContinuousClock.Instant) {
    guard let deadline = earliestDeadline, deadline <= now else { return }
    fail(MagpieError(.timedOut, "redis: no reply within \(timeout.wholeMilliseconds) ms"))
  }

  /// Breaks the connection and fails every command in flight.
  func fail(_ error: MagpieError) {
    let (waiting, fd): ([Pending], Int32?) = state.withLock { state in
      guard state.broken == nil else { return ([], nil) }
      state.broken = error
      brokenFlag.store(true, ordering: .relaxed)
      inFlightCount.store(0, ordering: .relaxed)
      defer {
        state.pending.removeAll()
        state.head = 0
      }
      return (Array(state.pending[state.head...]), state.context?.pointee.fd)
    }
    if let fd { loop.unregister(fd) }
    for pending in waiting { pending.reply.resume(returning: .failure(error)) }
  }

  /// What the caller is to write, if it may: the queued bytes when
  /// connected and no one else is writing or waiting to (it then writes
  /// with ``write(_:)`` outside the lock, so a send's system call never
  /// holds up the loop matching replies).
  private static func takeWriting(_ state: inout State) -> [UInt8]? {
    guard state.context != nil, !state.writing, !state.waitsForWritable, !state.outbound.isEmpty else { return nil }
    state.writing = true
    defer { state.outbound = [] }
    return state.outbound
  }

  /// Writes `bytes` and whatever is queued meanwhile, until all is written
  /// (the writer's turn ends) or the socket is full (the rest goes back to
  /// the front of the queue and the loop watches for writability).
  private func write(_ bytes: [UInt8]) {
    var bytes = bytes
    while true {
      let written = bytes.withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if written < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
        let error = MagpieError(.network, "redis: writing failed: \(String(cString: strerror(errno)))")
        state.withLock { $0.writing = false }
        fail(error)
        return
      }
      let left = bytes[max(0, written)...]
      let more = state.withLock { state -> [UInt8]? in
        guard left.isEmpty else {
          state.outbound = Array(left) + state.outbound
          state.writing = false
          state.waitsForWritable = true
          loop.watch(fd, writable: true)
          return nil
        }
        guard !state.outbound.isEmpty, state.broken == nil else {
          state.writing = false
          return nil
        }
        defer { state.outbound = [] }
        return state.outbound
      }
      guard let more else { return }
      bytes = more
    }
  }

  /// The socket, once connected (only read after `state.context` is set).
  private var fd: Int32 { loopContext?.pointee.fd ?? -1 }

  private func connect(_ configuration: RedisConfiguration) {
    switch RedisHandshake.open(configuration) {
    case .failure(let error): fail(error)
    case .success(let opened):
      // Handed to the state: from here only used under its lock.
      nonisolated(unsafe) let context = opened
      let fd = context.pointee.fd
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      // Registered before any write can ask the loop for writability.
      let kept = state.withLock { state -> (Bool, [UInt8]?) in
        guard state.broken == nil else { return (false, nil) }
        loopContext = context
        guard loop.register(self, fd: fd) else {
          loopContext = nil
          return (false, nil)
        }
        state.context = context
        return (true, Self.takeWriting(&state))
      }
      switch kept {
      case (false, _):
        redisFree(context)
        fail(MagpieError(.cancelled, "redis: the storage was released while connecting"))
      case (true, let bytes): if let bytes { write(bytes) }
      }
    }
  }

  private static func format(_ arguments: [Data]) -> [UInt8]? {
    var target: UnsafeMutablePointer<CChar>?
    let count = RedisArguments.withPointers(arguments) { argv, lengths in
      redisFormatCommandArgv(&target, Int32(arguments.count), argv, lengths)
    }
    guard count > 0, let target else { return nil }
    defer { redisFreeCommand(target) }
    return [UInt8](UnsafeRawBufferPointer(start: target, count: Int(count)))
  }
}
