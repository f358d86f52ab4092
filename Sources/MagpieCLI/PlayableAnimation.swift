import Foundation
import Magpie

/// What `magpie play` plays: the timeline, the canvas and a way to decode
/// frame N.
struct PlayableAnimation {
  let timeline: AnimationTimeline
  let canvas: PixelSize
  let decoder: (Int) throws(MagpieError) -> PixelBuffer

  /// The animation in `data`: frames from the format's frame source, one
  /// at a time; a still image (or a format without one) decoded whole.
  init(_ data: Data) throws(MagpieError) {
    if let source = try CoderRegistry.shared.frameSource(for: data) {
      timeline = AnimationTimeline(source)
      canvas = source.canvasSize
      decoder = { index throws(MagpieError) in try source.frame(at: index) }
      return
    }
    let image = try CoderRegistry.shared.decode(data)
    timeline = AnimationTimeline(image)
    canvas = image.pixelSize
    let frames = image.frames
    decoder = { index throws(MagpieError) in frames[index].pixels }
  }
}
