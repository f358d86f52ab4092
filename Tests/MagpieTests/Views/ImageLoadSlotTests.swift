import Foundation
import Testing

@testable import Magpie

/// The load slot as a value: only the last load begun is current.
@Suite struct ImageLoadSlotTests {
  @Test func onlyTheLastLoadBegunShows() {
    var slot = ImageLoadSlot()
    let first = slot.begin(url: URL(string: "https://a.example/1")!)
    let second = slot.begin(url: URL(string: "https://a.example/2")!)
    #expect(slot.url?.lastPathComponent == "2")
    #expect(slot.finish(first) == .stale)
    #expect(slot.isLoading)
    #expect(slot.finish(second) == .show)
    #expect(!slot.isLoading)
    #expect(slot.finish(second) == .stale)
  }

  @Test func aCancelledLoadIsStaleAndKeepsItsURL() {
    var slot = ImageLoadSlot()
    let token = slot.begin(url: URL(string: "https://a.example/1")!)
    let wasRunning = slot.cancel()
    let runningAgain = slot.cancel()
    #expect(wasRunning && !runningAgain)
    #expect(slot.finish(token) == .stale)
    #expect(slot.url?.lastPathComponent == "1")
    #expect(!slot.isCurrent(token))
  }
}
