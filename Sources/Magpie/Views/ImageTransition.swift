/// How a loaded image replaces what a target showed.
public enum ImageTransition: Sendable, Equatable {
  /// At once.
  case none
  /// A cross-fade over `duration`.
  case fade(Duration)
}
