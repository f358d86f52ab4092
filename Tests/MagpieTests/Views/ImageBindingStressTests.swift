import Foundation
import Testing

@testable import Magpie

/// Cell reuse at scale: 10,000 random rebinds of 100 recycled targets to
/// 1,000 URLs, the origin answering after random delays.
@Suite(.timeLimit(Sanitizer.timeLimit(minutes: 2))) struct ImageBindingStressTests {
  @MainActor @Test func everyTargetEndsOnItsLastURLAndNoAbandonedDownloadRunsOn() async throws {
    let bodies = try (0..<1000).map { try TaggedImages.png($0) }
    let origin = SteppedOrigin(seed: 42) { url in bodies[Int(url.lastPathComponent.dropLast(4))!] }
    let directory = try TemporaryDirectory()
    let disk = try DiskCache(configuration: .init(directory: directory.url.appendingPathComponent("cache")))
    let manager = ImageManager(
      configuration: ImageManager.Configuration(
        cache: ImageCache(memoryCache: .frozen(), diskCache: disk, trimsOnMemoryPressure: false),
        downloader: ImageDownloader(
          configuration: .init(dataLoader: origin, maximumConcurrentDownloads: 6, retryPolicy: .never, rateLimit: nil)))
    )
    let targets = (0..<100).map { _ in FakeImageView() }
    var last = [Int](repeating: -1, count: targets.count)
    var random = SplitMix64(seed: 7)
    let completions = AsyncCounter()
    for rebind in 0..<10_000 {
      let target = Int(random.next() % 100)
      let image = Int(random.next() % 1000)
      last[target] = image
      targets[target].magpie.setImage(
        with: URL(string: "https://origin.example/\(image).png")!, manager: manager
      ) { _ in completions.increment() }
      // Let the origin and the pipeline move now and then.
      if rebind % 10 == 9 {
        origin.advance()
        await Task.yield()
      }
    }
    let lastRebind = origin.eventNumber
    var done = false
    Task { @MainActor in
      await completions.wait(for: 10_000)
      done = true
    }
    while !done {
      origin.advance()
      await Task.yield()
    }
    for (index, target) in targets.enumerated() where last[index] >= 0 {
      #expect(target.shownTag == last[index], "target \(index)")
      #expect(target.magpie.currentImageURL?.lastPathComponent == "\(last[index]).png")
      #expect(!target.indicator.isAnimating)
    }
    let wanted = Set(last.filter { $0 >= 0 }.map { "\($0).png" })
    let late = origin.records.filter { ($0.answeredAt ?? 0) > lastRebind }
    #expect(late.allSatisfy { wanted.contains($0.url.lastPathComponent) })
    #expect(origin.pendingCount == 0)
    #expect(origin.records.contains { $0.cancelled })
  }
}
