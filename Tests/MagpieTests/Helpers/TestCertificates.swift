import Foundation
import Magpie

/// Certificates the TLS tests make with the `openssl` tool in a folder of
/// theirs: a CA and a client certificate it signed, another key, and the
/// SHA-256 pin of a certificate's public key.
struct TestCertificates {
  /// The folder they are made in.
  let folder: URL

  /// Runs `script` in bash in the folder; returns its output, throws when
  /// it fails.
  @discardableResult
  func shell(_ script: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", "set -euo pipefail; " + script]
    process.currentDirectoryURL = folder
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw MagpieError(.invalidArgument, "shell failed: \(script)") }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The SHA-256 pin (base64) of the certificate in `pem`.
  func pin(of pem: URL) throws -> String {
    try shell(
      "openssl x509 -in '\(pem.path)' -pubkey -noout | openssl pkey -pubin -outform der "
        + "| openssl dgst -sha256 -binary | base64")
  }

  /// A self-signed certificate of a key unrelated to any server.
  func other() throws -> URL {
    try shell("openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=other -keyout other.key -out other.pem")
    return folder.appendingPathComponent("other.pem")
  }

  /// A CA (`ca.pem`) and a client certificate it signed (`client.pem`,
  /// `client.key`).
  func makeClient() throws {
    try shell(
      "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=magpie-test-ca -keyout ca.key -out ca.pem; "
        + "openssl req -newkey rsa:2048 -nodes -subj /CN=magpie-client -keyout client.key -out client.csr; "
        + "openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 1 -out client.pem")
  }

  /// nginx directives for a location `/clientonly/` that answers only
  /// clients with a certificate from ``makeClient()``'s CA (403 to others).
  var clientOnlyConfig: String {
    """
    ssl_client_certificate \(folder.appendingPathComponent("ca.pem").path);
    ssl_verify_client optional;
    location ^~ /clientonly/ { if ($ssl_client_verify != SUCCESS) { return 403; } try_files $uri =404; }
    """
  }
}
