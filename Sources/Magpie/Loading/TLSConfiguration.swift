import Foundation

/// How a loader checks the servers it talks to and proves who it is over
/// TLS: trusted certificate authorities, a client certificate, pinned
/// public keys, the lowest protocol version. The defaults verify every
/// certificate against the system's trust store, as before.
///
/// ``CurlDataLoader`` honours every setting (libcurl's `CURLOPT_CAINFO`
/// or `CURLOPT_CAPATH`, `CURLOPT_SSLCERT`/`SSLKEY`/`KEYPASSWD`,
/// `CURLOPT_PINNEDPUBLICKEY`, `CURLOPT_SSLVERSION`).
/// ``URLSessionDataLoader`` honours none (FoundationNetworking on Linux
/// has no hook for them) and refuses every load when one is set, rather
/// than load without it.
public struct TLSConfiguration: Sendable, Equatable {
  /// The lowest TLS version accepted.
  public enum Version: Sendable, Equatable {
    /// TLS 1.2.
    case tls12
    /// TLS 1.3.
    case tls13
  }

  /// Trusted certificate authorities instead of the system's: a PEM file
  /// of certificates, or a folder of them named by hash (`c_rehash`).
  public var trustedCertificates: URL?
  /// A client certificate (PEM) for servers that ask for one.
  public var clientCertificate: URL?
  /// The client certificate's private key (PEM); `nil` when the
  /// certificate file holds it too.
  public var clientKey: URL?
  /// The private key's passphrase, when it is encrypted.
  public var clientKeyPassword: String?
  /// Public keys the server's must be one of: SHA-256 digests of their
  /// DER SubjectPublicKeyInfo, in base64 (`openssl x509 -pubkey | openssl
  /// pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`),
  /// with or without libcurl's `sha256//` prefix. A server whose key is
  /// not listed fails with ``MagpieError/Code/network``, even when its
  /// certificate is trusted. Empty: no pinning.
  public var pinnedPublicKeys: [String]
  /// The lowest TLS version accepted; `nil` leaves libcurl's default
  /// (TLS 1.2 with Debian 12's OpenSSL).
  public var minimumVersion: Version?

  /// The given settings; every default is the system's behaviour.
  public init(
    trustedCertificates: URL? = nil, clientCertificate: URL? = nil, clientKey: URL? = nil,
    clientKeyPassword: String? = nil, pinnedPublicKeys: [String] = [], minimumVersion: Version? = nil
  ) {
    self.trustedCertificates = trustedCertificates
    self.clientCertificate = clientCertificate
    self.clientKey = clientKey
    self.clientKeyPassword = clientKeyPassword
    self.pinnedPublicKeys = pinnedPublicKeys
    self.minimumVersion = minimumVersion
  }

  /// The settings that differ from the defaults, by name.
  var changedSettings: [String] {
    var names: [String] = []
    if trustedCertificates != nil { names.append("trustedCertificates") }
    if clientCertificate != nil || clientKey != nil { names.append("clientCertificate") }
    if !pinnedPublicKeys.isEmpty { names.append("pinnedPublicKeys") }
    if minimumVersion != nil { names.append("minimumVersion") }
    return names
  }

  /// `pinnedPublicKeys` as `CURLOPT_PINNEDPUBLICKEY` takes them.
  var curlPins: String? {
    guard !pinnedPublicKeys.isEmpty else { return nil }
    return pinnedPublicKeys.map { $0.hasPrefix("sha256//") ? $0 : "sha256//" + $0 }.joined(separator: ";")
  }
}
