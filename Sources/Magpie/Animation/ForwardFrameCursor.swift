/// Where a compositing frame source's decoder stands, and how it reaches
/// frame N: forward from where it is when that is before N, else from the
/// nearest keyframe; the last frame returned is kept, so asking for it
/// again costs nothing; after an error the position is unknown, so the
/// next frame starts from a keyframe. Shared by ``APNGFrameSource`` and
/// ``WebPFrameSource``, which differ only in how they restart their
/// compositor and draw one frame.
struct ForwardFrameCursor {
  /// Which frames need nothing drawn before them.
  let keyframes: KeyframeIndex
  /// The orientation applied to every frame returned.
  let turn: ImageOrientation
  /// The frame the compositor draws next; `nil` after an error.
  private(set) var nextIndex: Int? = 0
  private var last: (index: Int, pixels: PixelBuffer)?

  init(keyframes: KeyframeIndex, turn: ImageOrientation) {
    self.keyframes = keyframes
    self.turn = turn
  }

  /// Frame `index` (already checked to be in range): `restart` resets the
  /// compositor (its argument says whether it starts at the first frame)
  /// when the decode must start over from a keyframe, and `draw` decodes
  /// one frame onto it and returns the canvas as shown.
  mutating func frame(
    at index: Int, restart: (_ atFirstFrame: Bool) -> Void, draw: (Int) throws(MagpieError) -> PixelBuffer
  ) throws(MagpieError) -> PixelBuffer {
    if let last, last.index == index { return last.pixels }
    let start = keyframes.start(toReach: index, next: nextIndex)
    if start != nextIndex {
      restart(start == 0)
      nextIndex = start
    }
    last = nil
    var shown: PixelBuffer?
    do throws(MagpieError) {
      while let next = nextIndex, next <= index {
        shown = try draw(next)
        nextIndex = next + 1
      }
    } catch {
      nextIndex = nil
      throw error
    }
    guard var pixels = shown else { preconditionFailure("no frame drawn up to \(index)") }
    if turn != .up { pixels = pixels.applying(turn) }
    last = (index, pixels)
    return pixels
  }
}
