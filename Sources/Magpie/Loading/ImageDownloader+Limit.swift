extension ImageDownloader {
  /// Transfers running at once now: the configuration's limit, or the
  /// last one set by ``setMaximumConcurrentDownloads(_:)``.
  public var maximumConcurrentDownloads: Int { state.withLock { $0.queue.maximumRunning } }

  /// Changes how many transfers run at once (at least 1). Raising it starts
  /// waiting transfers now; lowering it stops none that run, it only starts
  /// fewer. An ``ImageManager`` sets this from its
  /// ``ImageManager/Concurrency/downloads``.
  public func setMaximumConcurrentDownloads(_ limit: Int) {
    start(state.withLock { $0.queue.setMaximumRunning(limit) })
  }
}
