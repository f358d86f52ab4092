import Foundation

/// Which source URLs the server fetches: only `http` and `https`; only
/// those under an allowed prefix when prefixes are given; and only hosts
/// whose every address is public, unless private addresses are allowed or
/// the URL is under an allowed prefix (an operator who lists a prefix
/// trusts it). Checked for the URL and again for each redirect.
public struct SourcePolicy: Sendable {
  /// URL prefixes sources must start with; empty allows any.
  public var allowedPrefixes: [String]
  /// Whether sources may resolve to loopback, private, link-local or
  /// other non-public addresses.
  public var allowsPrivateAddresses: Bool
  /// Looks up a host's addresses; the system resolver unless replaced.
  var resolve: @Sendable (String) async -> Result<[AddressClass], SourceRefusal> = HostResolver.addresses

  /// A policy over these prefixes.
  public init(allowedPrefixes: [String] = [], allowsPrivateAddresses: Bool = false) {
    self.allowedPrefixes = allowedPrefixes
    self.allowsPrivateAddresses = allowsPrivateAddresses
  }

  /// Whether every source's addresses are checked: no allow-list (whose
  /// prefixes are trusted whatever their address) and private addresses
  /// not allowed.
  var checksAddresses: Bool { allowedPrefixes.isEmpty && !allowsPrivateAddresses }

  /// Whether `url` may be fetched; a ``SourceRefusal`` saying why not.
  public func check(_ url: URL) async -> SourceRefusal? {
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
      return SourceRefusal(status: 400, reason: "the source is not an http(s) URL")
    }
    guard let host = url.host, !host.isEmpty else {
      return SourceRefusal(status: 400, reason: "the source URL has no host")
    }
    let listed = allowedPrefixes.contains { url.absoluteString.hasPrefix($0) }
    if !allowedPrefixes.isEmpty && !listed {
      return SourceRefusal(status: 403, reason: "the source is not under an allowed prefix")
    }
    if listed || allowsPrivateAddresses { return nil }
    switch await resolve(host) {
    case .failure(let refusal): return refusal
    case .success(let classes):
      for case .privateAddress(let kind) in classes {
        return SourceRefusal(status: 403, reason: "the source's host resolves to a \(kind) address")
      }
      return nil
    }
  }
}
