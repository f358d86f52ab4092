import Testing

@testable import MagpieServer

@Suite("InFlightTable")
struct InFlightTableTests {
  @Test("counts requests, and a drain refuses new ones and ends with the last")
  func drainRules() {
    var table = InFlightTable()
    #expect(table.begin() == .accept)
    #expect(table.begin() == .accept)
    #expect(table.drain() == false)
    #expect(table.begin() == .refuse)
    #expect(table.count == 2)
    #expect(table.end() == false)
    #expect(table.end() == true)
    #expect(table.count == 0)
  }

  @Test("a drain with nothing in flight has nothing to wait for; ends never go below zero")
  func idleDrain() {
    var table = InFlightTable()
    #expect(table.end() == false)
    #expect(table.count == 0)
    #expect(table.drain() == true)
  }
}
