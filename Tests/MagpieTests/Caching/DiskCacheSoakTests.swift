import Foundation
import Testing

@testable import Magpie

/// `MAGPIE_SOAK_SECONDS`, when set (outside the suite type: its own
/// attribute cannot refer to it).
private let configuredSoakSeconds = ProcessInfo.processInfo.environment["MAGPIE_SOAK_SECONDS"].flatMap(Double.init)

/// Four `magpie-cache-probe soak` processes share one folder for a bounded
/// time: random gets, sets, removes and cleans over 48 keys, under a size
/// limit small enough that cleans evict. Every value names its key and
/// generation and is derived from them, so each process checks every hit on
/// its own; the cache must never hand one a torn or wrong value, nor find a
/// damaged file to discard.
///
/// Runs only when `MAGPIE_SOAK_SECONDS` says for how long: `make test` runs
/// it for 60 seconds after the rest of the suite, alone, since four busy
/// processes beside the whole parallel suite starved its timing-sensitive
/// tests on two cores (`make soak` runs it by itself).
@Suite(
  .enabled(if: configuredSoakSeconds != nil, "the soak runs alone: make test or make soak"),
  .timeLimit(Sanitizer.timeLimit(minutes: 3)))
struct DiskCacheSoakTests {
  static var seconds: Double { configuredSoakSeconds ?? 60 }

  @Test func fourProcessesSharingAFolderNeverReadATornOrWrongValue() throws {
    let dir = try TemporaryDirectory()
    let folder = dir.path("soak")
    let probes = try (1...4).map { seed in
      try ProbeProcess.start(ProbeProcess.executable, ["soak", folder, "\(seed)", "\(Self.seconds)", "48"])
    }
    var totals: [String: Int] = [:]
    for (index, probe) in probes.enumerated() {
      let (status, output) = probe.finish()
      #expect(status == 0, "\(output)")
      let line = output.split(separator: "\n").last.map(String.init) ?? ""
      let report = try #require(try ProbeProcess.report(output) as? [String: Int])
      print("soak process \(index + 1), \(Self.seconds) s: \(line)")
      #expect(report["bad_reads"] == 0, "\(line)")
      #expect(report["discarded"] == 0, "\(line)")
      #expect(report["errors"] == 0, "\(line)")
      #expect(report["hits"] ?? 0 > 0, "\(line)")
      totals.merge(report, uniquingKeysWith: +)
    }
    // Every kind of operation happened, and the size limit made cleans evict.
    for kind in ["sets", "removes", "cleans", "evicted"] { #expect(totals[kind] ?? 0 > 0, "\(totals)") }
    // What is left is whole entries only.
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) where !name.hasPrefix(".") {
      #expect(throws: Never.self) {
        try DiskCacheEntry.parse(Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
      }
    }
  }
}
