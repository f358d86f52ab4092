import Foundation
import Magpie

/// What the server counts, rendered for `/metrics` in Prometheus' text
/// format: requests by status and format, time per pipeline stage, result
/// cache hits per tier, bytes in and out, and (read when rendered) requests
/// in flight and waiting.
public final class ServerMetrics: Sendable {
  /// A stage of answering a transform request.
  public enum Stage: String, Sendable, CaseIterable {
    /// Looking the result up in the result cache's tiers.
    case cacheLookup = "cache_lookup"
    /// Waiting for a processing slot.
    case queue
    /// Downloading, decoding and transforming the source.
    case transform
    /// Encoding the result.
    case encode
    /// Storing the result in the tiers.
    case store
  }

  private struct Counts {
    var requests: [String: Int] = [:]  // "status,format"
    var stageSeconds: [Stage: (sum: Double, count: Int)] = [:]
    var cacheHits: [String: Int] = [:]
    var cacheMisses = 0
    var bytesIn = 0
    var bytesOut = 0
  }
  private let counts = Lock(Counts())

  /// An empty set of counters.
  public init() {}

  /// Counts a response with `status`, of `format` (`-` for none).
  public func countRequest(status: Int, format: String, bytesOut: Int) {
    counts.withLock {
      $0.requests["\(status),\(format)", default: 0] += 1
      $0.bytesOut += bytesOut
    }
  }

  /// Adds `duration` to `stage`.
  public func record(_ stage: Stage, _ duration: Duration) {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    counts.withLock {
      let now = $0.stageSeconds[stage] ?? (0, 0)
      $0.stageSeconds[stage] = (now.sum + seconds, now.count + 1)
    }
  }

  /// Counts a result found in `tier` (`memory`, `disk`, `redis`, …), or a
  /// miss in every tier when `nil`.
  public func countCacheLookup(hit tier: String?) {
    counts.withLock {
      if let tier { $0.cacheHits[tier, default: 0] += 1 } else { $0.cacheMisses += 1 }
    }
  }

  /// Counts source bytes downloaded.
  public func countSourceBytes(_ bytes: Int) { counts.withLock { $0.bytesIn += bytes } }

  /// How many responses had `status`, all formats together.
  public func requests(status: Int) -> Int {
    counts.withLock { $0.requests.filter { $0.key.hasPrefix("\(status),") }.values.reduce(0, +) }
  }

  /// How many times `stage` ran.
  public func count(_ stage: Stage) -> Int { counts.withLock { $0.stageSeconds[stage]?.count ?? 0 } }

  /// The text format, with the gauges `inFlight` and `queued` as given.
  public func render(inFlight: Int, queued: Int) -> String {
    let c = counts.withLock { $0 }
    var lines: [String] = []
    func family(_ name: String, _ type: String, _ help: String) {
      lines += ["# HELP magpie_serve_\(name) \(help)", "# TYPE magpie_serve_\(name) \(type)"]
    }
    family("requests_total", "counter", "Responses sent, by status and image format.")
    for (key, value) in c.requests.sorted(by: { $0.key < $1.key }) {
      let parts = key.split(separator: ",", maxSplits: 1)
      lines.append("magpie_serve_requests_total{status=\"\(parts[0])\",format=\"\(parts[1])\"} \(value)")
    }
    family("stage_seconds", "summary", "Time spent per pipeline stage.")
    for stage in Stage.allCases {
      let value = c.stageSeconds[stage] ?? (0, 0)
      lines.append("magpie_serve_stage_seconds_sum{stage=\"\(stage.rawValue)\"} \(value.sum)")
      lines.append("magpie_serve_stage_seconds_count{stage=\"\(stage.rawValue)\"} \(value.count)")
    }
    family("cache_hits_total", "counter", "Results found in the result cache, by tier.")
    for (tier, value) in c.cacheHits.sorted(by: { $0.key < $1.key }) {
      lines.append("magpie_serve_cache_hits_total{tier=\"\(tier)\"} \(value)")
    }
    family("cache_misses_total", "counter", "Results found in no tier.")
    lines.append("magpie_serve_cache_misses_total \(c.cacheMisses)")
    family("in_flight", "gauge", "Requests being answered.")
    lines.append("magpie_serve_in_flight \(inFlight)")
    family("queue_length", "gauge", "Transforms waiting for a processing slot.")
    lines.append("magpie_serve_queue_length \(queued)")
    family("source_bytes_total", "counter", "Bytes downloaded from sources.")
    lines.append("magpie_serve_source_bytes_total \(c.bytesIn)")
    family("response_bytes_total", "counter", "Body bytes sent.")
    lines.append("magpie_serve_response_bytes_total \(c.bytesOut)")
    return lines.joined(separator: "\n") + "\n"
  }
}
