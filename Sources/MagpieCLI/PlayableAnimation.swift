import Foundation
import Magpie

/// What `magpie play` plays: the timeline, the canvas and a way to decode
/// frame N.
struct PlayableAnimation {
  let timeline: AnimationTimeline
  let canvas: PixelSize
  let decoder: @Sendable (Int) throws(MagpieError) -> PixelBuffer

  /// The animation in `data`, decoded whole (frames handed out from memory).
  init(_ data: Data) throws(MagpieError) {
    let image = try CoderRegistry.shared.decode(data)
    timeline = AnimationTimeline(image)
    canvas = image.pixelSize
    let frames = image.frames
    decoder = { index throws(MagpieError) in frames[index].pixels }
  }
}
