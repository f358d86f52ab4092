/// The built-in processors, one type per member (`ImageProcessors.Resizing`,
/// `ImageProcessors.Blur`, ...), and ``ImageProcessors/Chain`` to run several
/// in a row.
///
/// Every built-in that weighs or blends neighbouring pixels (resizing,
/// blur, borders) premultiplies straight input once and returns
/// premultiplied pixels, so edges next to transparency never darken. Those
/// that map each pixel on its own (colour, grayscale, tint, overlay, round
/// corners) and geometry (crop, rotate, flip) keep the input's alpha
/// representation, so straight pixels keep their exact colour.
/// Each applies to every frame of an animation
/// (keeping frame durations and the loop count) unless
/// ``ImageProcessingOptions/firstFrameOnly`` is set; and, when given
/// ``ImageProcessItem/data(_:)``, decodes through
/// ``ImageProcessingOptions/registry`` with
/// ``ImageProcessingOptions/decodeOptions`` (the resizing processors add
/// their target size, so the decoder can shrink while decoding). Each has an
/// ``ImageProcessor/identifier`` naming it and every parameter that changes
/// its output, in the form of the `magpie --process` spec where there is one,
/// e.g. `round(16,all,#00000000)`.
public enum ImageProcessors {}
