import COpenSSL

/// OpenSSL set up once, before libcurl or Magpie's hashing first touches
/// it, without its exit-time cleanup.
///
/// By default libcrypto frees its state in an `atexit` handler. A process
/// that exits while another thread still uses OpenSSL (libcurl's thread in
/// the middle of a TLS transfer, a `magpie` command returning from its
/// async main) then crashes in `OPENSSL_cleanup`: AddressSanitizer caught
/// it once in the CLI tests. The operating system frees the memory anyway.
enum OpenSSLSetup {
  /// Whether libcrypto initialised (it fails only without memory); read it
  /// before the first OpenSSL or libcurl call.
  static let isReady: Bool = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil) == 1
}
