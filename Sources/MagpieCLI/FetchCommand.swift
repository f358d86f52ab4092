import Foundation
import Magpie

/// `magpie fetch URL [-o FILE] [--process SPEC] [--format F] [--cache-dir DIR]
/// [--no-cache] [--redis URL] [--resume] [--http-cache] [--cacert FILE] [--cert FILE]
/// [--key FILE] [--pin SHA256] [--json] [--verbose]`: one load of an
/// `http(s)://`, `file://` or `data:` URL through the manager (memory,
/// disk, network). An error names the URL without its password
/// and query (`?…`) unless `--verbose` asks for it whole. With `--json`: `{"source","width","height","format","bytes","ms"}`
/// plus where the time went.
enum FetchCommand {
  static func run(_ words: [String]) async throws(CLIError) {
    let arguments = try ParsedArguments(
      words,
      valued: [
        "-o", "--output", "--process", "--format", "--cache-dir", "--redis", "--cacert", "--cert", "--key", "--pin",
      ],
      switches: ["--no-cache", "--json", "--verbose", "--resume", "--http-cache"])
    guard arguments.positionals.count == 1, let url = URL(string: arguments.positionals[0]),
      let scheme = url.scheme?.lowercased(), ["http", "https", "file", "data"].contains(scheme)
    else {
      throw .usage("fetch", "expected one http(s)://, file:// or data: URL")
    }
    let output = arguments.value("-o") ?? arguments.value("--output")
    let spec = try arguments.value("--process").map { (text) throws(CLIError) in try ProcessSpec.parsing(text) }
    let format: ImageFormat? = try arguments.value("--format").map { (name) throws(CLIError) in
      try ConvertCommand.outputFormat(name, path: "")
    }
    let redis = try RedisOption.parse(arguments.value("--redis"), concurrency: 1)
    let manager = try CLIManager.make(
      cacheDirectory: arguments.value("--cache-dir"), noCache: arguments.flag("--no-cache"), redis: redis,
      resumes: arguments.flag("--resume"), httpCaching: arguments.flag("--http-cache") ? .privateCache : nil,
      tls: tls(arguments))

    // file:// and data: load through the pipeline as URLs do, kept in
    // memory only (their bytes are local already).
    var request = ImageRequest(url: url)
    if let spec { request.processors = spec.steps.map(\.processor) }
    if arguments.flag("--no-cache") { request.options.insert(.cacheMemoryOnly) }

    let clock = ContinuousClock()
    let start = clock.now
    let result: ImageResult
    do {
      result = try await manager.image(for: request)
    } catch {
      let shown = arguments.flag("--verbose") ? url.absoluteString : url.redactedDescription
      throw .failure("fetch \(shown)", error)
    }
    let elapsed = clock.now - start

    var bytes = result.data?.count ?? 0
    var written = result.image.format
    if let output {
      let target: ImageFormat
      if let format {
        target = format
      } else {
        target = try ConvertCommand.outputFormat(nil, path: output)
      }
      let encoded: Data
      let sourceFormat = result.data.map { ImageFormat.sniff($0) }
      if request.processors.isEmpty, let data = result.data,
        sourceFormat == target || (target == .png && sourceFormat == .apng)
      {
        encoded = data
      } else {
        do {
          encoded = try CoderRegistry.shared.encode(result.image, as: target)
        } catch {
          throw .failure("encode \(output)", error)
        }
      }
      try InputFile.write(encoded, to: output)
      bytes = encoded.count
      written = target
    }
    await manager.waitForPendingWrites()
    if arguments.flag("--json") {
      print(record(result, format: written, bytes: bytes, elapsed: elapsed).text)
    } else {
      let size = result.image.pixelSize
      print(
        "\(url.absoluteString): \(size) \(written.rawValue) from \(source(result.cacheType)) in "
          + String(format: "%.1f ms", elapsed.milliseconds))
    }
  }

  /// The TLS settings of `--cacert` (a PEM bundle or a folder of hashed
  /// certificates), `--cert` and `--key` (a client certificate), `--pin`
  /// (the server's public key's SHA-256, base64, as curl's `--pinnedpubkey`
  /// takes it, `sha256//` optional).
  static func tls(_ arguments: ParsedArguments) -> TLSConfiguration {
    TLSConfiguration(
      trustedCertificates: arguments.value("--cacert").map { URL(fileURLWithPath: $0) },
      clientCertificate: arguments.value("--cert").map { URL(fileURLWithPath: $0) },
      clientKey: arguments.value("--key").map { URL(fileURLWithPath: $0) },
      pinnedPublicKeys: arguments.value("--pin").map { [$0] } ?? [])
  }

  static func source(_ type: CacheType) -> String {
    type == .none ? "network" : type.rawValue
  }

  /// The `--json` line.
  static func record(_ result: ImageResult, format: ImageFormat, bytes: Int, elapsed: Duration) -> JSONValue {
    let m = result.metrics
    return .object([
      ("source", .string(source(result.cacheType))),
      ("width", .int(result.image.pixelSize.width)),
      ("height", .int(result.image.pixelSize.height)),
      ("format", .string(format.rawValue)),
      ("bytes", .int(bytes)),
      ("ms", .double(elapsed.milliseconds)),
      (
        "metrics",
        .object([
          ("queue_ms", .double(m.queueWait.milliseconds)), ("network_ms", .double(m.network.milliseconds)),
          ("decode_ms", .double(m.decode.milliseconds)), ("process_ms", .double(m.process.milliseconds)),
          ("cache_read_ms", .double(m.cacheRead.milliseconds)), ("cache_write_ms", .double(m.cacheWrite.milliseconds)),
          ("bytes_loaded", .int(m.bytesLoaded)), ("bytes_from_cache", .int(m.bytesFromCache)),
          ("attempts", .int(m.attempts)), ("revalidated", .bool(m.revalidated)),
        ])
      ),
    ])
  }
}
