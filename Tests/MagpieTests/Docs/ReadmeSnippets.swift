import Foundation
import Magpie

#if canImport(MagpieRedis)
  import MagpieRedis
#endif

/// The code the README's tour (and `docs/redis.md`) quotes, compiled with
/// the tests (the Redis part where this build has `MagpieRedis`).
enum ReadmeSnippets {
  /// The tour's first load: `url`'s image through the whole pipeline;
  /// returns its pixels ready to draw.
  static func load(_ url: URL) async throws -> PixelBuffer {
    // snippet.begin readme-load
    // The pipeline: memory cache → disk cache → network → decode → process → store.
    let manager = try ImageManager(configuration: .standard())  // ~/.cache/magpie/default, 6 downloads at once
    let request = ImageRequest(
      url: url,
      processors: [ImageProcessors.Downsampling(size: PixelSize(width: 256, height: 256))])
    let result = try await manager.image(for: request)  // imageTask(with: request), awaited
    let image = result.image  // processed, upright RGBA
    let drawable = image.pixels.premultiplied()  // ready to draw (a no-op when it already is)
    print(result.cacheType)  // none (loaded), memory, disk or another tier's name
    print(result.metrics)  // queue wait, network, decode, process, cache time; bytes
    // snippet.end
    return drawable
  }

  /// The tour's task: `request` loaded through the front door.
  static func task(_ manager: ImageManager, _ request: ImageRequest) async throws -> Image {
    // snippet.begin readme-task
    // The front door: a task to await, observe, reprioritise or cancel.
    let task = manager.imageTask(with: request)
    task.priority = .high
    for await event in task.events {  // .progress, .partialImage, then .finished(result)
      print(event)
    }
    let image = try await task.image  // cancelling this Swift task cancels the load, as task.cancel() does
    // snippet.end
    return image
  }

  /// The tour's completion handlers.
  @MainActor static func callbacks(_ manager: ImageManager, _ request: ImageRequest) {
    // snippet.begin readme-callbacks
    // Completion handlers, for views and callback code, on the main queue by default.
    manager.loadImage(with: request, progress: { print($0.fraction) }) { result in print(result) }
    manager.loadImageOnMainActor(with: request) { result in print(result) }  // @MainActor closures
    // snippet.end
  }

  /// The tour's manager with a limit per stage.
  static func busyManager() throws -> ImageManager {
    // snippet.begin readme-concurrency
    // Requests for one URL share one download and one decode whatever their
    // processors; each chain runs its own pass. Each stage has its own limit.
    var configuration = try ImageManager.Configuration.standard()
    configuration.concurrency = ImageManager.Concurrency(downloads: 8, decodes: 2, processing: 2)
    let busyManager = ImageManager(configuration: configuration)
    // snippet.end
    return busyManager
  }

  /// The tour's animation: `gifBytes` played into `view`.
  static func play(_ gifBytes: Data, into view: some AnimationTarget) throws -> AnimationPlayer {
    // snippet.begin readme-animation
    // Play an animation into anything that shows frames, ticked by a frame
    // clock (a real timer here; a UI toolkit's frame clock in an app). Late
    // ticks skip frames, a hidden target pauses, loops count down.
    // Frames are decoded ahead from the bytes into a 20 MiB buffer that every
    // player of the animation shares; a 500-frame GIF never sits whole in memory.
    let animation = try AnimatedImage(data: gifBytes)  // frames, delays, loops, poster
    let player = try animation.makePlayer(clock: TimerFrameClock(ticksPerSecond: 60), target: view)
    player.onLoopCompleted = { done, remaining in  // remaining: nil when it loops forever
      print("\(done) loops played, \(remaining.map { "\($0) left" } ?? "no end")")
    }
    player.start()
    player.isVisible = false  // scrolled away: paused where it was
    // snippet.end
    return player
  }

  /// The tour's animation loaded through the pipeline and played into
  /// `view`; `nil` when `gifURL` is a still image.
  static func loadForPlayback(
    _ manager: ImageManager, _ gifURL: URL, into view: some AnimationTarget
  ) async throws -> AnimationPlayer? {
    // snippet.begin readme-animation-load
    // Loaded for playback: the poster frame now, the rest decoded while it
    // plays, processors run on each frame as it is decoded, the memory cache
    // charged by the frame buffer, not all frames.
    let thumbnail = ImageProcessors.Downsampling(size: PixelSize(width: 160, height: 160))
    let gifRequest = ImageRequest(url: gifURL, processors: [thumbnail], options: [.decodeFramesOnDemand])
    let animation = try await manager.image(for: gifRequest).image.animation  // nil for a still image
    let loop = try animation?.makePlayer(clock: TimerFrameClock(), target: view)
    loop?.start()
    // snippet.end
    return loop
  }

  /// The tour's prefetch of `urls`; returns its counts.
  static func prefetch(_ manager: ImageManager, _ urls: [URL]) async -> ImagePrefetcher.Progress {
    // snippet.begin readme-prefetch
    // Fill the caches ahead of need.
    let counts = await ImagePrefetcher(manager: manager).prefetch(urls.map { ImageRequest(url: $0) })
    print("\(counts.finished) loaded, \(counts.skipped) already cached, \(counts.failed) failed")
    // snippet.end
    return counts
  }

  // snippet.begin readme-cell-target
  /// An image view of any toolkit: it shows what the binding gives it.
  @MainActor final class CellImage: ImageDisplayTarget {
    let imageBindingState = ImageBindingState()
    func display(_ image: Image?) {
      // put image?.pixels on screen
    }
  }
  // snippet.end

  /// A cell of a list or grid, holding its image view.
  @MainActor final class Cell {
    /// The cell's image view.
    let image = CellImage()
  }

  /// The README's views: `cell` loaded, reused and configured, and
  /// `button` given an image for a state.
  @MainActor static func bind(
    _ cell: Cell, _ button: some ImageButtonTarget, url: URL, otherURL: URL, pressedURL: URL, grey: Image,
    brokenIcon: Image
  ) {
    // snippet.begin readme-cell-binding
    cell.image.magpie.transition = .fade(.milliseconds(250))  // from disk or network, not from memory
    cell.image.magpie.setImage(with: url, placeholder: grey) { result in print(result) }
    // A reused cell: the new call cancels the old load, and a load that was
    // replaced never touches the view, however late it finishes.
    cell.image.magpie.setImage(with: otherURL, placeholder: grey, displayOptions: [.delayPlaceholder])
    cell.image.magpie.failureImage = brokenIcon  // shown, through the transition, when a load fails
    cell.image.magpie.retryFailedLoad()  // the failed call again (PictureView: a click does it)
    cell.image.magpie.cancelImageLoad()
    cell.image.magpie.isVisible = false  // scrolled away: its animation pauses
    cell.image.magpie.transition = .crossDissolve(.milliseconds(200))  // also .flip(.left, d), .slide(.up, d)
    cell.image.magpie.previewPolicy = .incremental  // the default: each scan of a progressive JPEG; .thumbnail: EXIF's
    cell.image.magpie.loadsAtDisplaySize = true  // decode at the view's size (on for the GTK views)
    cell.image.magpie.playbackMode = .bounce  // animations: .forward, .reverse, .bounce
    cell.image.magpie.playbackRate = 2
    button.magpie.setImage(with: pressedURL, for: .highlighted)  // ImageButtonTarget: a URL per state
    // snippet.end
  }

  /// The tour's layers used on their own: `data` sniffed, decoded small,
  /// stored under `url` and encoded as WebP.
  static func layers(
    _ data: Data, _ url: URL
  ) async throws -> (webp: Data, stored: [UInt8], drawable: PixelBuffer) {
    // snippet.begin readme-layers
    // Sniff the format from the bytes, never from a file name.
    print(ImageFormat.sniff(data))  // jpeg

    // Decode at the size it will be shown: JPEG shrinks by 1/2, 1/4 or 1/8
    // inside libjpeg, so a 100-megapixel photo never costs 400 MB.
    let image = try CoderRegistry.shared.decode(
      data, options: DecodeOptions(targetSize: PixelSize(width: 256, height: 256)))

    // Pixels state their alpha: decoders keep what the file stores (.straight);
    // resampling, blur and compositing premultiply once and return
    // .premultiplied. Colour, corners and geometry keep what they were given.
    print(image.pixels.alphaRepresentation)  // straight; premultiplied: a PNG larger than the target
    let stored = image.pixels.straightRGBA()  // exact stored values, for encoders
    let drawable = image.pixels.premultiplied()  // for drawing and blending

    // Caches: a cost-limited LRU in memory, atomic files on disk.
    let cache = try ImageCache(namespace: "thumbnails")
    try await cache.store(image, forKey: ImageCacheKey(source: url.absoluteString))

    // Encode.
    let webp = try CoderRegistry.shared.encode(image, as: .webp, options: EncodeOptions(quality: 80))
    // snippet.end
    return (webp, stored, drawable)
  }

  /// The tour's load through `manager`, the tiered one of the
  /// `tiered-cache` snippet (`CachingSnippets.tieredManager()`).
  static func tieredLoad(_ manager: ImageManager, _ request: ImageRequest) async throws -> CacheType {
    // snippet.begin readme-tiered-load
    let result = try await manager.image(for: request)
    print(result.cacheType)  // memory, disk, shared (the tier's name) or none
    // snippet.end
    return result.cacheType
  }

  #if canImport(MagpieRedis)
    /// The tour's fleet cache: disk, then Redis.
    static func fleetCache() throws -> ImageCache {
      // snippet.begin readme-redis
      let url = URL(string: "redis://cache.internal:6379/2")!
      let redis = RedisStorage(configuration: try RedisConfiguration(url: url))
      let fleetCache = ImageCache(
        tiers: [CacheTier(try DiskCache(namespace: "photos")), CacheTier(redis, writeMode: .writeThrough)])
      print(redis.statistics)  // hits, coalescedHits, misses, stores, skipped while down, ...
      // snippet.end
      return fleetCache
    }

    /// `docs/redis.md`'s cache: a password, a database and a key prefix.
    static func avatarCache() throws -> ImageCache {
      // snippet.begin redis-tier
      var configuration = try RedisConfiguration(url: URL(string: "redis://:secret@cache.internal:6379/2")!)
      configuration.keyPrefix = "avatars:"
      let redis = RedisStorage(configuration: configuration)
      let cache = ImageCache(
        tiers: [
          CacheTier(try DiskCache(namespace: "avatars")),
          CacheTier(redis, writeMode: .writeThrough),
        ])
      // snippet.end
      return cache
    }
  #endif
}
