import Foundation
import Testing

@testable import Magpie

/// `magpie bench` additions: `process:SPEC` and `thumb-batch`.
@Suite struct BenchProcessingCLITests {
  private func lines(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
      try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
  }

  @Test func processTasksTimeTheSpecOnEachImage() async throws {
    let dir = try TemporaryDirectory()
    let list = dir.path("list.txt")
    let photo = TestPaths.photo("statue").path
    try "\(photo)\n".write(toFile: list, atomically: true, encoding: .utf8)
    let result = try await CLIRunner.run(["bench", "process:resize(100x100,fill)|rotate(90)", list, "2", "1"])
    #expect(result.status == 0, "\(result.stderr)")
    let records = try lines(result.stdout)
    #expect(records.count == 2)
    #expect(records[1]["path"] as? String == photo)
    #expect((records[1]["ms"] as? [Double])?.count == 2)
    #expect(records[1]["out"] as? [Int] == [100, 100])
    let bad = try await CLIRunner.run(["bench", "process:sharpen(1)", list, "1", "0"])
    #expect(bad.status == 2)
  }

  @Test func thumbBatchTimesTheWholeList() async throws {
    let dir = try TemporaryDirectory()
    let list = dir.path("list.txt")
    let paths = ["door", "garden", "birds"].map { TestPaths.photo($0).path }
    try (paths.joined(separator: "\n") + "\n").write(toFile: list, atomically: true, encoding: .utf8)
    let result = try await CLIRunner.run(["bench", "thumb-batch", list, "2", "0"])
    #expect(result.status == 0, "\(result.stderr)")
    let records = try lines(result.stdout)
    #expect(records.count == 2)
    #expect(records[1]["path"] as? String == list)
    #expect(records[1]["out"] as? [Int] == [3, 0])
    #expect((records[1]["ms"] as? [Double])?.count == 2)
  }
}
