/// How a ``PixelBuffer``'s colour channels relate to its alpha channel.
///
/// Decoders deliver what the file stores, ``straight``, so lossless
/// formats round-trip exactly. Operations that weigh or blend pixels
/// (resampling, blur, compositing, drawing) need ``premultiplied`` colour,
/// where transparent neighbours cannot bleed their hidden colour into
/// visible ones; they premultiply once and say so in the buffer they
/// return. For an opaque buffer the two are the same bytes.
public enum AlphaRepresentation: Sendable, Hashable {
  /// Colour as stored, independent of alpha: `(r, g, b, a)`. A pixel with
  /// alpha 0 may still carry a colour.
  case straight
  /// Colour already multiplied by alpha: `(r·a, g·a, b·a, a) / 255`, each
  /// channel at most alpha.
  case premultiplied
}
