import Foundation

/// What a binding keeps for one target: a load slot and the running task
/// per operation key (held weakly: a finished task is not kept), the
/// transition to run, and the animation player. A target holds it for its
/// whole life, so dropping the target drops all of it and stops its player.
@MainActor
public final class ImageBindingState {
  /// A task held without keeping it alive.
  private struct WeakTask {
    weak var task: ImageTask?
  }

  private var slots: [String: ImageLoadSlot] = [:]
  private var tasks: [String: WeakTask] = [:]
  private var players: [String: (player: AnimationPlayer, forwarder: FrameForwarder)] = [:]
  private var visible = true
  private var failedLoads: [String: ImageLoadBinder.Load] = [:]
  private var sizedLoads: [String: (load: ImageLoadBinder.Load, bucket: DisplaySizeBucket?)] = [:]

  /// How a loaded image replaces the shown one when it came from the disk
  /// or the network (default: at once).
  public var transition: ImageTransition = .none

  /// The image a failed load shows when its `setImage` names none
  /// (Kingfisher's `onFailureImage`, Nuke's `failure`); `nil` leaves the
  /// placeholder (or what was shown) in place.
  public var failureImage: Image?

  /// Whether loads show progressive previews (default: each new scan).
  public var previewPolicy: ImagePreviewPolicy = .incremental

  /// Whether loads ask for the target's display size (see
  /// ``ImageBinding/loadsAtDisplaySize``); off unless the target's binding
  /// turns it on.
  public var loadsAtDisplaySize = false

  /// How animations play in the target (forward by default); a change
  /// applies to the one playing now.
  public var playbackMode: PlaybackMode = .forward {
    didSet { for entry in players.values { entry.player.mode = playbackMode } }
  }

  /// How fast animations play (1 is their own delays); a change applies
  /// to the one playing now.
  public var playbackRate = 1.0 {
    didSet { for entry in players.values { entry.player.playbackRate = playbackRate } }
  }

  /// Empty: nothing loading, nothing shown.
  public init() {}

  // The target is gone: its loads are cancelled (a download others share
  // goes on for them) and its animations stop.
  isolated deinit {
    for entry in tasks.values { entry.task?.cancel() }
    for entry in players.values {
      entry.forwarder.detach()
      entry.player.stop()
    }
  }

  /// The URL last asked for under `key`.
  public func url(forKey key: String) -> URL? { slots[key]?.url }

  /// Whether a load under `key` is running.
  public func isLoading(forKey key: String) -> Bool { slots[key]?.isLoading ?? false }

  /// The animation playing under `key`, if one is.
  public func player(forKey key: String) -> AnimationPlayer? { players[key]?.player }

  /// Whether the target is on screen: animations pause while it is not
  /// and resume where they were.
  public var isVisible: Bool {
    get { visible }
    set {
      visible = newValue
      for entry in players.values { entry.player.isVisible = newValue }
    }
  }

  /// Whether the last load under `key` failed (and was not followed by
  /// another load or a cancel): what a retry would load again.
  public func hasFailedLoad(forKey key: String) -> Bool { failedLoads[key] != nil }

  /// Starts a new load of `url` under `key` (cancel the one before first);
  /// its token. A failure kept for a retry is dropped.
  func begin(url: URL?, forKey key: String) -> ImageLoadSlot.Token {
    failedLoads[key] = nil
    sizedLoads[key] = nil
    return slots[key, default: ImageLoadSlot()].begin(url: url)
  }

  /// Keeps the `setImage` call that failed under `key`, for a retry.
  func keepFailedLoad(_ load: ImageLoadBinder.Load, forKey key: String) { failedLoads[key] = load }

  /// Keeps the `setImage` call under `key` and the display size it asked
  /// for, for a reload when the target grows.
  func keepSizedLoad(_ load: ImageLoadBinder.Load, bucket: DisplaySizeBucket?, forKey key: String) {
    sizedLoads[key] = load.sizesToDisplay ? (load, bucket) : nil
  }

  /// The last `setImage` call under `key` that may follow the target's
  /// size, and the size it asked for (`nil`: full size).
  func sizedLoad(forKey key: String) -> (load: ImageLoadBinder.Load, bucket: DisplaySizeBucket?)? { sizedLoads[key] }

  /// The `setImage` call that failed last under `key`, if the last load did.
  func failedLoad(forKey key: String) -> ImageLoadBinder.Load? { failedLoads[key] }

  /// Whether `token` names the load running under `key`.
  func isCurrent(_ token: ImageLoadSlot.Token, forKey key: String) -> Bool {
    slots[key]?.isCurrent(token) ?? false
  }

  /// Keeps `task` as the load under `key`.
  func setTask(_ task: ImageTask, forKey key: String) { tasks[key] = WeakTask(task: task) }

  /// Whether the load named `token` is still the current one; ends it.
  func finish(_ token: ImageLoadSlot.Token, forKey key: String) -> ImageLoadSlot.Outcome {
    let outcome = slots[key, default: ImageLoadSlot()].finish(token)
    if outcome == .show { tasks[key] = nil }
    return outcome
  }

  /// Cancels the load under `key` and stops its animation; returns whether
  /// a load was running.
  @discardableResult
  func cancel(forKey key: String) -> Bool {
    failedLoads[key] = nil
    sizedLoads[key] = nil
    stopPlaying(forKey: key)
    tasks.removeValue(forKey: key)?.task?.cancel()
    return slots[key]?.cancel() ?? false
  }

  /// Plays `player`, which shows its frames through `forwarder`, under
  /// `key` (after stopping what played there).
  func play(_ player: AnimationPlayer, through forwarder: FrameForwarder, forKey key: String) {
    stopPlaying(forKey: key)
    players[key] = (player, forwarder)
    player.mode = playbackMode
    player.playbackRate = playbackRate
    player.isVisible = visible
    player.start()
  }

  /// Stops the animation under `key`; a frame it already sent is dropped.
  private func stopPlaying(forKey key: String) {
    guard let entry = players.removeValue(forKey: key) else { return }
    entry.forwarder.detach()
    entry.player.stop()
  }
}
