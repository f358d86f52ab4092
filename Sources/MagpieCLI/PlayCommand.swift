import Foundation
import Magpie

/// `magpie play FILE [--seconds S] [--rate TICKS_PER_S] [--budget MB]
/// [--mode forward|reverse|bounce]`: plays the animation on a real clock in
/// the mode's order (forward by default), frames decoded ahead into a
/// buffer of the given budget, into a target that draws nothing; prints
/// `{"frames_due","frames_on_time","frames_skipped","loops","buffer_peak_bytes","cpu_s"}`.
enum PlayCommand {
  /// A target that shows frames by not drawing them.
  private final class NullTarget: AnimationTarget {
    func show(_ frame: PixelBuffer, index: Int) {}
  }

  static func run(_ words: [String]) async throws(CLIError) {
    let arguments = try ParsedArguments(words, valued: ["--seconds", "--rate", "--budget", "--mode"])
    guard arguments.positionals.count == 1 else {
      throw .usage("play", "expected one FILE, got \(arguments.positionals.count)")
    }
    let path = arguments.positionals[0]
    let seconds = try arguments.integer("--seconds", in: 1...3600, default: 10)
    let rate = try arguments.integer("--rate", in: 1...1000, default: 60)
    let budget = try arguments.integer("--budget", in: 1...65536, default: AnimationFrameBuffer.defaultBudget >> 20)
    let modeName = arguments.value("--mode") ?? PlaybackMode.forward.rawValue
    guard let mode = PlaybackMode(rawValue: modeName) else {
      throw .usage("play", "--mode is forward, reverse or bounce, not \(modeName)")
    }
    let animation: PlayableAnimation
    do {
      // Read into memory the frame source adopts: the file is held once.
      let data = try CoderRegistry.readFile(atPath: path)
      animation = try PlayableAnimation(data)
    } catch {
      throw .failure("play \(path)", error)
    }
    let buffer = AnimationFrameBuffer(
      frameCount: animation.timeline.frameCount, frameSize: animation.canvas, budgetBytes: budget << 20,
      monitor: .shared, decoder: animation.decoder)
    let clock = TimerFrameClock(ticksPerSecond: Double(rate))
    let player = AnimationPlayer(timeline: animation.timeline, frames: buffer, clock: clock, target: NullTarget())
    player.mode = mode
    let cpuStart = cpuSeconds()
    player.start()
    try? await Task.sleep(for: .seconds(seconds))
    player.pause()
    let cpu = cpuSeconds() - cpuStart
    buffer.close()
    if let failure = buffer.failure { throw .failure("play \(path)", failure) }
    let statistics = player.statistics
    print(
      JSONValue.object([
        ("frames_due", .int(statistics.dueFrames)), ("frames_on_time", .int(statistics.framesOnTime)),
        ("frames_skipped", .int(statistics.skippedFrames)), ("loops", .int(statistics.completedLoops)),
        ("buffer_peak_bytes", .int(buffer.peakBytes)), ("cpu_s", .double((cpu * 1000).rounded() / 1000)),
      ]).text)
  }

  /// User and system CPU seconds of this process so far.
  private static func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    return user + system
  }
}
