import Foundation
import Magpie
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension DataLoaderTests {
  /// Leaving a load stops it: the origin sees its connection close.
  @Suite("Cancellation")
  struct Cancellation {
    @Test("Cancelling the consuming task closes the connection", arguments: LoaderKind.allCases)
    func cancelTask(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/stall", .stall)
      let loader = kind.make(quickConfiguration(timeout: .seconds(60), resourceTimeout: .seconds(60)))
      let url = origin.url("/stall")
      let task = Task { await LoadOutcome.load(url, with: loader) }
      #expect(await origin.waitForRequests("/stall"))
      task.cancel()
      #expect(await origin.waitForClientClose("/stall"))
      let outcome = await task.value
      // A cancelled consumer's stream just ends; it never times out.
      #expect(outcome.error == nil || outcome.error?.code == .cancelled)
      #expect(outcome.elapsed < .seconds(30))
    }

    @Test("Cancelling mid-body closes the connection", arguments: LoaderKind.allCases)
    func cancelMidBody(kind: LoaderKind) async throws {
      // A whole body never arrives in part (DataLoaderWholeBodyTests
      // cancels that path mid-body).
      guard kind.streams else { return }
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/endless", .endless(prefix: pngLikeBytes(1000)))
      let loader = kind.make(quickConfiguration(timeout: .seconds(60), resourceTimeout: .seconds(60)))
      let url = origin.url("/endless")
      var received = 0
      for try await event in loader.load(URLRequest(url: url)) {
        guard case .data(_, let total, let expected) = event else { continue }
        #expect(expected == nil)
        received = Int(total)
        if total > 200_000 { break }
      }
      // Leaving the loop drops the stream.
      #expect(received > 200_000)
      if kind.closesEndlessBodyPromptly { #expect(await origin.waitForClientClose("/endless")) }
    }

    @Test("Dropping an unread stream closes the connection", arguments: LoaderKind.allCases)
    func dropStream(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/stall", .stall)
      let loader = kind.make(quickConfiguration(timeout: .seconds(60), resourceTimeout: .seconds(60)))
      do {
        let stream = loader.load(URLRequest(url: origin.url("/stall")))
        #expect(await origin.waitForRequests("/stall"))
        _ = stream
      }
      #expect(await origin.waitForClientClose("/stall"))
    }

    @Test("Releasing the loader ends its loads", arguments: LoaderKind.allCases)
    func releaseLoader(kind: LoaderKind) async throws {
      // WholeBodyLoader's call keeps its loader until it returns.
      guard kind.streams else { return }
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/stall", .stall)
      var loader: (any DataLoading)? = kind.make(
        quickConfiguration(timeout: .seconds(60), resourceTimeout: .seconds(60)))
      let stream = loader!.load(URLRequest(url: origin.url("/stall")))
      #expect(await origin.waitForRequests("/stall"))
      loader = nil
      var caught: MagpieError?
      do {
        for try await _ in stream {}
      } catch let error as MagpieError {
        caught = error
      }
      #expect(caught?.code == .cancelled)
      #expect(await origin.waitForClientClose("/stall"))
    }
  }
}
