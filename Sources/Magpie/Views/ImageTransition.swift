/// How a loaded image replaces what a target showed. The binding runs it
/// for images from the disk or the network (and for failure images), not
/// for memory hits unless ``ImageDisplayOptions/forceTransition`` asks,
/// and never for progressive previews. Toolkit bindings draw the built-in
/// ones (MagpieGTK: `PictureView`); a target that draws none shows the
/// image at once.
public enum ImageTransition: Sendable, Equatable {
  /// Where a flip turns toward or a slide comes in from.
  public enum Direction: String, Sendable, CaseIterable {
    /// Toward (or from) the left edge.
    case left
    /// Toward (or from) the right edge.
    case right
    /// Toward (or from) the top edge.
    case up
    /// Toward (or from) the bottom edge.
    case down
  }

  /// At once.
  case none
  /// The new image fades in over `duration` from nothing (what is behind
  /// the target shows through).
  case fade(Duration)
  /// The previous image dissolves into the new one over `duration`.
  case crossDissolve(Duration)
  /// The previous image turns away about the vertical axis toward
  /// `direction` (`.left` or `.right`; `.up` and `.down` turn as `.left`
  /// and `.right`), the new one turning in behind it.
  case flip(Direction, Duration)
  /// The new image slides in over the previous one toward `direction`.
  case slide(Direction, Duration)
  /// Your own: the binding calls it in place of showing the image.
  case custom(CustomImageTransition)

  /// How long it runs; zero for ``none``.
  public var duration: Duration {
    switch self {
    case .none: .zero
    case .fade(let duration), .crossDissolve(let duration), .flip(_, let duration), .slide(_, let duration):
      duration
    case .custom(let custom): custom.duration
    }
  }
}
