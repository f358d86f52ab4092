import COpenSSL

/// libcrypto initialised without its exit-time cleanup before the signer
/// first uses it, as Magpie's own hashing does (its setup is internal to
/// Magpie): a server exiting while a request thread still signs must not
/// crash in `OPENSSL_cleanup`.
enum OpenSSLReady {
  /// Whether libcrypto initialised; read before the first OpenSSL call.
  static let isReady: Bool = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil) == 1
}
