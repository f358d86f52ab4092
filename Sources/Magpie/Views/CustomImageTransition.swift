/// A transition of your own (Kingfisher's `.custom`): a closure the
/// binding calls with the target and the image in place of showing it, so
/// it can show the image its own way (the target's ``ImageDisplayTarget/display(_:)``
/// under an animation of its toolkit, say).
///
/// ```swift
/// view.magpie.transition = .custom(CustomImageTransition(name: "pop", duration: .milliseconds(150)) { view, image in
///   view.display(image)
///   (view as? PictureView)?.pop()
/// })
/// ```
public struct CustomImageTransition: Sendable, Equatable {
  /// Names it: two with the same name and duration are equal.
  public let name: String
  /// How long it runs, for callers that wait for it.
  public let duration: Duration
  /// Shows the image on the target.
  public let show: @MainActor @Sendable (any ImageDisplayTarget, Image) -> Void

  /// A transition named `name` that runs `show` to show each image.
  public init(
    name: String, duration: Duration, show: @escaping @MainActor @Sendable (any ImageDisplayTarget, Image) -> Void
  ) {
    self.name = name
    self.duration = duration
    self.show = show
  }

  /// Equal names and durations.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name && lhs.duration == rhs.duration }
}
