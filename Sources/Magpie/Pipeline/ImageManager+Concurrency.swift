import Foundation

extension ImageManager {
  /// How much of each stage runs at once; waiting work in every stage
  /// starts highest priority first.
  public struct Concurrency: Sendable, Equatable {
    /// Transfers at once (the manager sets its downloader's limit to this;
    /// managers sharing a downloader share its limit).
    public var downloads: Int
    /// Decodes at once.
    public var decodes: Int
    /// Processor chains at once.
    public var processing: Int

    /// Limits of at least 1 each; decodes and processing default to one per
    /// core, downloads to six (what browsers open per host).
    public init(
      downloads: Int = 6, decodes: Int = ProcessInfo.processInfo.activeProcessorCount,
      processing: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
      self.downloads = max(1, downloads)
      self.decodes = max(1, decodes)
      self.processing = max(1, processing)
    }
  }
}
