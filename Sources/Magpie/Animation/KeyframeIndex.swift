/// Which frames of an animation need no frame before them, worked out from
/// what each frame's header says, so that a frame source can start decoding
/// there instead of at the first frame.
///
/// Frame `k` is a keyframe when the canvas before it is known without
/// decoding anything: it is all transparent (`k` is the first frame; or
/// frame `k - 1` started on a transparent canvas and was cleared or
/// restored afterwards; or frame `k - 1` covered the whole canvas and was
/// cleared), or frame `k` replaces every canvas pixel (it covers the canvas
/// and is drawn without blending or without alpha) and is not restored
/// afterwards (restoring would need the canvas from before it). libwebp's
/// `IsKeyFrame` (src/demux/anim_decode.c) is this rule for WebP.
struct KeyframeIndex {
  /// What happens to a frame's rectangle after it is shown.
  enum Disposal {
    /// The frame stays as drawn (GIF 0 and 1, APNG none, WebP none).
    case keep
    /// The rectangle becomes transparent (GIF 2, APNG and WebP background).
    case clear
    /// The rectangle gets back what it held before (GIF 3, APNG previous).
    case restore
  }

  /// One frame's header facts.
  struct Frame {
    /// The frame's rectangle, clipped to the canvas, is the whole canvas.
    var coversCanvas: Bool
    /// Drawing sets every pixel of the rectangle, whatever was there.
    var replacesRectangle: Bool
    /// What happens to the rectangle afterwards, as the compositor does it.
    var disposal: Disposal
  }

  /// Whether each frame is a keyframe; the first always is.
  let isKeyframe: [Bool]

  /// The keyframes of an animation whose frames say `frames`.
  init(_ frames: [Frame]) {
    var keys: [Bool] = []
    keys.reserveCapacity(frames.count)
    var startsClear = true
    for (index, frame) in frames.enumerated() {
      if index > 0 {
        let previous = frames[index - 1]
        startsClear =
          (startsClear && previous.disposal != .keep) || (previous.disposal == .clear && previous.coversCanvas)
      }
      keys.append(startsClear || (frame.coversCanvas && frame.replacesRectangle && frame.disposal != .restore))
    }
    isKeyframe = keys
  }

  /// The nearest keyframe at or before `index`.
  func keyframe(atOrBefore index: Int) -> Int {
    var k = index
    while k > 0 && !isKeyframe[k] { k -= 1 }
    return k
  }

  /// Where to start decoding to reach frame `target` when frame `next` is
  /// the one the decoder would draw next (`nil` when its state is unknown):
  /// the later of `next` and the keyframe, since either needs no earlier
  /// frame.
  func start(toReach target: Int, next: Int?) -> Int {
    let key = keyframe(atOrBefore: target)
    guard let next, next <= target else { return key }
    return max(next, key)
  }
}
