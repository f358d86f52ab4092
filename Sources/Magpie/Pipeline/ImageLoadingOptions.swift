/// Switches that change how one request uses the caches and the network
/// (SDWebImageOptions, Kingfisher's options), as an `OptionSet`.
public struct ImageLoadingOptions: OptionSet, Sendable, Hashable {
  /// The bits.
  public let rawValue: Int

  /// Options from raw bits.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Try a URL again even though it failed before (by default a URL that
  /// failed for a reason that will not go away, such as a 404 or a body that
  /// is not an image, is not requested again; the manager remembers the
  /// 4096 most recent such URLs, and ``ImageManager/clearFailedSources()``
  /// forgets them all).
  public static let retryFailed = ImageLoadingOptions(rawValue: 1 << 0)
  /// Revalidate a cached image with the origin (`If-None-Match` /
  /// `If-Modified-Since`): keep it on 304, replace it when it changed.
  public static let refreshCached = ImageLoadingOptions(rawValue: 1 << 1)
  /// Use only the caches; a miss is a ``MagpieError/Code/notCached`` error.
  public static let fromCacheOnly = ImageLoadingOptions(rawValue: 1 << 2)
  /// Ignore the caches for reading; download and store afresh.
  public static let forceRefresh = ImageLoadingOptions(rawValue: 1 << 3)
  /// Store in memory only, never on disk.
  public static let cacheMemoryOnly = ImageLoadingOptions(rawValue: 1 << 4)
  /// Also store the original (unprocessed) bytes on disk, so other
  /// processor chains for the same source skip the network.
  public static let cacheOriginalImage = ImageLoadingOptions(rawValue: 1 << 5)
  /// Decode only the first frame of an animation.
  public static let onlyLoadFirstFrame = ImageLoadingOptions(rawValue: 1 << 6)
  /// Deliver partial images of progressive JPEGs while bytes arrive.
  public static let progressiveLoad = ImageLoadingOptions(rawValue: 1 << 7)
  /// Load an animation for playback: decode its poster frame and carry the
  /// rest as ``Image/animation``, decoded by a frame buffer while it plays
  /// (``DecodeOptions/decodesFramesOnDemand``). Processors run on each
  /// frame as it is decoded; the memory cache charges the frame buffer's
  /// budget, not all frames. Still images load as usual. Ignored with
  /// ``onlyLoadFirstFrame``.
  public static let decodeFramesOnDemand = ImageLoadingOptions(rawValue: 1 << 10)
  /// Keep the result out of the memory cache (Nuke's
  /// `disableMemoryCacheWrites`): the other tiers still store it and reads
  /// still look in memory first. For loads whose images are not shown
  /// soon, such as a prefetch that warms the disk: they then hold no memory
  /// once done. With ``cacheMemoryOnly`` nothing is stored.
  public static let disableMemoryCacheWrites = ImageLoadingOptions(rawValue: 1 << 11)
  /// Store the images of `file://` and `data:` URLs in the disk cache
  /// (and every other tier) too. Without it they are kept in memory only:
  /// their bytes are local already, and a disk copy would only duplicate
  /// them.
  public static let cacheLocalSources = ImageLoadingOptions(rawValue: 1 << 12)
  /// Do not read the memory cache (Nuke's `disableMemoryCacheReads`,
  /// SDWebImage's `queryCacheType` without memory): the load starts at the
  /// storage tiers. Its result is still stored in memory.
  public static let disableMemoryCacheReads = ImageLoadingOptions(rawValue: 1 << 13)
  /// Do not read any storage tier (disk, Redis, your own; Nuke's
  /// `disableDiskCacheReads`): only memory, then the source. To skip one
  /// tier by name, see ``ImageRequest/skippedReads``.
  public static let disableDiskCacheReads = ImageLoadingOptions(rawValue: 1 << 14)
  /// Do not write any storage tier (Nuke's `disableDiskCacheWrites`): the
  /// same bit as ``cacheMemoryOnly``. To skip one tier by name, see
  /// ``ImageRequest/skippedWrites``.
  public static let disableDiskCacheWrites = cacheMemoryOnly
  /// Complete the load only after every cache write has landed, the
  /// write-behind tiers' included (SDWebImage's `waitStoreCache`): a
  /// caller that reads the disk cache next, or exits, finds the entry
  /// there. The store's time is in ``ImageTaskMetrics/cacheWrite``.
  public static let waitForCacheWrites = ImageLoadingOptions(rawValue: 1 << 15)
  /// On a memory-cache hit, also read the stored bytes from the first
  /// storage tier that has them (SDWebImage's `queryMemoryData`) into
  /// ``ImageResult/data``: the processed entry's, else the original's.
  /// The memory cache keeps decoded pixels only, so a hit with this option
  /// reads a tier; with no tier holding the bytes, `data` stays `nil`.
  public static let loadDataForMemoryHits = ImageLoadingOptions(rawValue: 1 << 16)
  /// Follow the origin's HTTP caching headers for this request, as a
  /// private cache (see ``HTTPCaching``), when the manager's
  /// ``ImageManager/Configuration/httpCaching`` is off.
  public static let followHTTPCaching = ImageLoadingOptions(rawValue: 1 << 17)
  /// Deliver the thumbnail a camera stored in a JPEG's EXIF block as a
  /// partial image as soon as it has arrived (Nuke's `.thumbnail` preview
  /// policy), turned as the main image is; nothing for images without one.
  public static let embeddedThumbnailPreview = ImageLoadingOptions(rawValue: 1 << 18)
}
