import Foundation
import Testing

@testable import Magpie

/// The disk cache shared by separate processes, killed writers, a full disk
/// and a read-only folder: nothing torn, nothing lost, errors reported.
@Suite(.timeLimit(Sanitizer.timeLimit(minutes: 2))) struct DiskCacheProcessTests {
  private func json(_ text: String) throws -> [String: Any] { try ProbeProcess.report(text) }

  @Test func twoProcessesWritingTheSameKeysNeverSeeATornFile() throws {
    let dir = try TemporaryDirectory()
    let folder = dir.path("shared")
    let first = try ProbeProcess.start(ProbeProcess.executable, ["hammer", folder, "1", "600"])
    let second = try ProbeProcess.start(ProbeProcess.executable, ["hammer", folder, "2", "600"])
    for (status, output) in [first.finish(), second.finish()] {
      #expect(status == 0)
      let report = try json(output)
      #expect(report["torn"] as? Int == 0, "\(output)")
      #expect(report["errors"] as? Int == 0, "\(output)")
      #expect((report["hits"] as? Int ?? 0) > 0, "\(output)")
      #expect((report["writes"] as? Int ?? 0) > 0, "\(output)")
    }
    // Every file left is a valid entry holding a complete PNG, and no
    // temporary file survived.
    let names = try FileManager.default.contentsOfDirectory(atPath: folder)
    #expect(!names.contains { $0.hasPrefix(".tmp-") })
    for name in names {
      let entry = try DiskCacheEntry.parse(Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
      #expect((try? CoderRegistry.shared.decode(entry)) != nil, "\(name) is not a whole image")
    }
  }

  /// Blocks until the kernel reports `pid` stopped (state `T` in
  /// `/proc/PID/stat`) or gone.
  private func waitUntilStopped(_ pid: pid_t) {
    while let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) {
      // "pid (comm) S ...": the state follows the last ')'.
      guard let close = stat.lastIndex(of: ")") else { return }
      let state = stat[stat.index(close, offsetBy: 2)]
      if state == "T" || state == "t" || state == "Z" { return }
    }
  }

  @Test func aWriterKilledMidWriteLeavesNoFileUnderTheRealName() throws {
    let dir = try TemporaryDirectory()
    let folder = dir.path("killed")
    let cache = try DiskCache(configuration: .init(directory: URL(fileURLWithPath: folder)))
    func temporaries() -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(".tmp-") }
    }
    var killedMidWrite = false
    for run in 0..<5 where !killedMidWrite {
      let key = "big-\(run)"
      let size = 96 << 20
      let probe = try ProbeProcess.start(ProbeProcess.executable, ["write-big", folder, key, "\(size)"])
      let pid = probe.process.processIdentifier
      #expect(probe.waitForLine("writing"))
      // Freeze the writer, look, let it run a little further, until it is
      // caught between creating its temporary file and renaming it.
      while true {
        kill(pid, SIGSTOP)
        waitUntilStopped(pid)
        let written = FileManager.default.fileExists(atPath: cache.fileURL(forKey: key).path)
        if !temporaries().isEmpty && !written {
          killedMidWrite = true
          break
        }
        if written || !probe.process.isRunning { break }
        kill(pid, SIGCONT)
      }
      kill(pid, SIGKILL)
      _ = probe.finish()
      // Under the real name: nothing, or (had the write finished) the whole
      // value, never a part.
      if let data = try cache.data(forKey: key) {
        #expect(data.count == 16 + size)
      }
    }
    #expect(killedMidWrite)
    #expect(!temporaries().isEmpty)
    // A later clean removes crash leftovers once they are old.
    let later = try DiskCache(
      configuration: .init(
        directory: URL(fileURLWithPath: folder), now: { Date().addingTimeInterval(2 * 3600) }))
    try later.clean()
    #expect(temporaries().isEmpty)
  }

  @Test func aWriterKilledAtARandomPointLeavesOnlyWholeEntries() throws {
    let dir = try TemporaryDirectory()
    let folder = dir.path("loop")
    let bytes = 8 << 20
    var random = SystemRandomNumberGenerator()
    let killAfter = Int.random(in: 1...6, using: &random)
    let probe = try ProbeProcess.start(ProbeProcess.executable, ["write-loop", folder, "\(bytes)"])
    // Killed as soon as it announces entry `killAfter`: somewhere in that
    // entry's write, with the earlier ones complete.
    #expect(probe.waitForLine("writing loop-\(killAfter)"), "killed after \(killAfter)")
    kill(probe.process.processIdentifier, SIGKILL)
    _ = probe.finish()
    #expect(probe.process.terminationReason == .uncaughtSignal)

    // Under every real name: a complete, valid entry with the whole value.
    let names = try FileManager.default.contentsOfDirectory(atPath: folder)
    for name in names where !name.hasPrefix(".") {
      let payload = try DiskCacheEntry.parse(Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
      #expect(payload.count == 16 + bytes, "\(name)")
    }
    let cache = try DiskCache(
      configuration: .init(directory: URL(fileURLWithPath: folder), maximumEntrySize: 16 + bytes))
    for index in 0..<killAfter { #expect(try cache.data(forKey: "loop-\(index)")?.count == 16 + bytes) }
    #expect(try cache.count() >= killAfter && cache.count() <= killAfter + 1)
    #expect(cache.corruptEntriesDiscarded == 0)
    // A new cache over the folder works, and a clean removes the dead
    // writer's leftover temporary file, if it left one.
    try cache.store(Data("after".utf8), forKey: "after")
    #expect(try cache.data(forKey: "after") == Data("after".utf8))
    try cache.clean()
    #expect(try !FileManager.default.contentsOfDirectory(atPath: folder).contains { $0.hasPrefix(".tmp-") })
  }

  @Test func aFullDiskStillLoadsFromMemoryAndReportsTheError() throws {
    let dir = try TemporaryDirectory()
    let result = try ProbeProcess.runInPrivateMount(
      folder: dir.url.path, setup: "mount -t tmpfs -o size=32k,mode=0700 tmpfs \"$1\"",
      probeArguments: ["store-and-load", dir.path("cache")])
    #expect(result.status == 0, "\(result.output)")
    let report = try json(result.output)
    #expect(report["loaded_from"] as? String == "memory")
    #expect(report["same_pixels"] as? Bool == true)
    #expect((report["disk_error"] as? String)?.contains("No space left on device") == true, "\(result.output)")
  }

  @Test func aReadOnlyFolderStillLoadsFromMemoryAndReportsTheError() throws {
    let dir = try TemporaryDirectory()
    let result = try ProbeProcess.runInPrivateMount(
      folder: dir.url.path,
      setup: "mount -t tmpfs -o size=1m tmpfs \"$1\" && mkdir -m 700 \"$1/cache\" && mount -o remount,ro \"$1\"",
      probeArguments: ["store-and-load", dir.path("cache")])
    #expect(result.status == 0, "\(result.output)")
    let report = try json(result.output)
    #expect(report["loaded_from"] as? String == "memory")
    #expect(report["same_pixels"] as? Bool == true)
    #expect((report["disk_error"] as? String)?.contains("Read-only file system") == true, "\(result.output)")
  }
}
