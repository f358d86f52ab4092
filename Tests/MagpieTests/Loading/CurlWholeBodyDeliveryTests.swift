import Foundation
import Testing

@testable import Magpie

/// ``CurlWholeBodyDelivery`` resumes its caller exactly once, with what the
/// libcurl thread gathered or its error, whichever side comes first.
@Suite struct CurlWholeBodyDeliveryTests {
  private let head = CurlEvent.head(
    url: URL(string: "http://127.0.0.1/a.png")!, statusCode: 200, httpVersion: "HTTP/1.1", lines: [])

  private func waited(_ delivery: CurlWholeBodyDelivery, then body: () -> Void = {}) async throws -> [CurlEvent] {
    try await withUnsafeThrowingContinuation { continuation in
      delivery.wait(continuation)
      body()
    }
  }

  @Test func theEventsArriveAtTheEndWhenTheCallerWaitedFirst() async throws {
    let delivery = CurlWholeBodyDelivery()
    let events = try await waited(delivery) {
      delivery.append([head])
      delivery.append([.data(Data([1, 2, 3]), received: 3, expected: 3)])
      delivery.finish(nil)
    }
    #expect(events.count == 2)
    guard case .data(let body, _, _) = events.last else {
      Issue.record("no body")
      return
    }
    #expect(body == Data([1, 2, 3]))
  }

  @Test func anEndBeforeTheCallerWaitsIsKeptForIt() async throws {
    let delivery = CurlWholeBodyDelivery()
    delivery.append([head])
    delivery.finish(nil)
    // Later events and endings change nothing.
    delivery.append([head])
    delivery.finish(MagpieError(.network, "late"))
    #expect(try await waited(delivery).count == 1)
  }

  @Test func theFirstErrorWinsAndDropsTheEvents() async {
    let delivery = CurlWholeBodyDelivery()
    delivery.append([head])
    await #expect(throws: MagpieError.self) {
      try await waited(delivery) {
        delivery.finish(MagpieError(.cancelled, "the load was cancelled"))
        delivery.finish(nil)
      }
    }
  }
}
