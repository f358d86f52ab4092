import Foundation
import Synchronization

@testable import Magpie

/// An ``ImageDataStoring`` in a dictionary: the "remote" tier the tests
/// register behind memory and disk. Records what it was asked, can make
/// every read throw, and can hold writes until released, so a test sees
/// whether a load waited for them.
final class InMemoryStorage: ImageDataStoring {
  private struct State {
    var entries: [String: (data: Data, metadata: Data?)] = [:]
    var reads: [String] = []
    var readFailure: MagpieError?
    var holdsWrites = false
    var heldWrites: [CheckedContinuation<Void, Never>] = []
    var heldWriteWaiters: [CheckedContinuation<Void, Never>] = []
  }

  let name: String
  private let state = Lock(State())

  init(name: String = "remote") { self.name = name }

  func data(forKey key: String) async throws(MagpieError) -> Data? {
    let (data, failure) = state.withLock { state in
      state.reads.append(key)
      return (state.entries[key]?.data, state.readFailure)
    }
    if let failure { throw failure }
    return data
  }

  func metadata(forKey key: String) async throws(MagpieError) -> Data? {
    let (metadata, failure) = state.withLock { ($0.entries[key]?.metadata, $0.readFailure) }
    if let failure { throw failure }
    return metadata
  }

  func storeData(_ data: Data, forKey key: String, metadata: Data?) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let (held, waiters) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
        guard state.holdsWrites else { return (false, []) }
        state.heldWrites.append(continuation)
        defer { state.heldWriteWaiters = [] }
        return (true, state.heldWriteWaiters)
      }
      if !held { continuation.resume() }
      for waiter in waiters { waiter.resume() }
    }
    state.withLock { $0.entries[key] = (data, metadata) }
  }

  func removeData(forKey key: String) async {
    _ = state.withLock { $0.entries.removeValue(forKey: key) }
  }

  func containsData(forKey key: String) async -> Bool {
    state.withLock { $0.entries[key] != nil }
  }

  func removeAll() async {
    state.withLock { $0.entries.removeAll() }
  }

  /// Puts an entry in directly, as if another process had stored it.
  func seed(_ data: Data, forKey key: String, metadata: Data? = nil) {
    state.withLock { $0.entries[key] = (data, metadata) }
  }

  /// The bytes stored under `key`, read without recording a read.
  func stored(_ key: String) -> Data? { state.withLock { $0.entries[key]?.data } }

  /// The metadata stored under `key`, read without recording a read.
  func storedMetadata(_ key: String) -> Data? { state.withLock { $0.entries[key]?.metadata } }

  /// The keys read so far, in order.
  var reads: [String] { state.withLock { $0.reads } }

  /// Makes every read throw `error` (or, with `nil`, succeed again).
  func failReads(with error: MagpieError?) { state.withLock { $0.readFailure = error } }

  /// Holds every write from now on until ``releaseWrites()``.
  func holdWrites() { state.withLock { $0.holdsWrites = true } }

  /// Lets held writes, and later ones, through.
  func releaseWrites() {
    let held = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.holdsWrites = false
      defer { state.heldWrites = [] }
      return state.heldWrites
    }
    for continuation in held { continuation.resume() }
  }

  /// Returns once a write is held (at once if one is).
  func heldWrite() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let now = state.withLock { state -> Bool in
        if state.heldWrites.isEmpty { state.heldWriteWaiters.append(continuation) }
        return !state.heldWrites.isEmpty
      }
      if now { continuation.resume() }
    }
  }

  /// How many writes are held now.
  var heldWriteCount: Int { state.withLock { $0.heldWrites.count } }
}
