/// A user name and password for an HTTP challenge, answered by libcurl in
/// the scheme the server asks for: Basic, Digest, or Negotiate where
/// libcurl was built with it (see ``DataLoaderConfiguration/challengeHandler``).
public struct HTTPLogin: Sendable, Equatable {
  /// The user name.
  public var user: String
  /// The password.
  public var password: String

  /// A login of `user` with `password`.
  public init(user: String, password: String) {
    self.user = user
    self.password = password
  }
}
