import Foundation
import Magpie

#if canImport(MagpieServer)
  import MagpieServer
#endif
#if canImport(MagpieRedis)
  import MagpieRedis
#endif

#if canImport(MagpieServer)
  /// `magpie serve`'s options as a ``ServeConfiguration``.
  enum ServeOptions {
    /// The configuration, and with `--redis` a line saying what the Redis
    /// tier did, for the log at exit.
    static func configuration(
      _ arguments: ParsedArguments
    ) throws(CLIError) -> (ServeConfiguration, redisSummary: (@Sendable () -> String)?) {
      var configuration = ServeConfiguration(signer: try signer(arguments))
      configuration.sources = SourcePolicy(
        allowedPrefixes: arguments.values("--allow-source"),
        allowsPrivateAddresses: arguments.flag("--allow-private-sources"))
      configuration.negotiation = FormatNegotiation(
        offersAVIF: !arguments.flag("--no-avif"), offersWebP: !arguments.flag("--no-webp"))
      configuration.maximumSourceBytes = try arguments.integer(
        "--max-source-bytes", in: 1...(1 << 34), default: configuration.maximumSourceBytes)
      configuration.maximumSourcePixels = try arguments.integer(
        "--max-pixels", in: 1...1_000_000_000, default: configuration.maximumSourcePixels)
      configuration.maximumFrames = try arguments.integer(
        "--max-frames", in: 1...100_000, default: configuration.maximumFrames)
      configuration.concurrency = try arguments.integer(
        "--concurrency", in: 1...1024, default: configuration.concurrency)
      configuration.queueCapacity = try arguments.integer(
        "--queue", in: 0...100_000, default: configuration.queueCapacity)
      configuration.memoryCacheLimit =
        try arguments.integer(
          "--memory-cache-mb", in: 0...1_048_576, default: configuration.memoryCacheLimit >> 20) << 20
      configuration.cacheTTL = try arguments.integer("--ttl", in: 0...315_360_000, default: configuration.cacheTTL)
      configuration.downloadTimeout = .milliseconds(
        try arguments.integer(
          "--download-timeout-ms", in: 1...3_600_000,
          default: Int(configuration.downloadTimeout.components.seconds) * 1000))
      configuration.requestTimeout = .milliseconds(
        try arguments.integer(
          "--request-timeout-ms", in: 1...3_600_000,
          default: Int(configuration.requestTimeout.components.seconds) * 1000))
      configuration.defaultQuality = try arguments.integer(
        "--quality", in: 1...100, default: configuration.defaultQuality)
      for preset in arguments.values("--preset") {
        guard let equals = preset.firstIndex(of: "="), equals != preset.startIndex else {
          throw .usage("--preset", "expected NAME=OPTIONS, got '\(preset)'")
        }
        configuration.presets[String(preset[..<equals])] = String(preset[preset.index(after: equals)...])
      }
      if let directory = arguments.value("--cache-dir") {
        do {
          configuration.tiers.append(
            try DiskCache(configuration: .init(directory: URL(fileURLWithPath: directory))))
        } catch {
          throw .failure("open cache \(directory)", error)
        }
      }
      let redis = try RedisOption.parse(arguments.value("--redis"), concurrency: configuration.concurrency * 2)
      if let redis { configuration.tiers.append(redis.tier.storage) }
      if arguments.flag("--verbose") {
        configuration.log = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
      }
      return (configuration, redis?.summary)
    }

    /// The signer from `--key`/`--salt`, `--key-file` (key and salt in hex,
    /// one a line) or MAGPIE_SERVE_KEY/MAGPIE_SERVE_SALT; `nil` with
    /// `--unsafe`, which none of those may accompany.
    private static func signer(_ arguments: ParsedArguments) throws(CLIError) -> URLSigner? {
      let environment = ProcessInfo.processInfo.environment
      // An empty variable counts as unset.
      var key = arguments.value("--key") ?? environment["MAGPIE_SERVE_KEY"].flatMap { $0.isEmpty ? nil : $0 }
      var salt = arguments.value("--salt") ?? environment["MAGPIE_SERVE_SALT"].flatMap { $0.isEmpty ? nil : $0 }
      if let file = arguments.value("--key-file") {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
          throw .usage("--key-file", "cannot read \(file)")
        }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.count >= 2 else { throw .usage("--key-file", "\(file) needs the key and the salt, one a line") }
        (key, salt) = (lines[0], lines[1])
      }
      if arguments.flag("--unsafe") {
        guard arguments.value("--key") == nil, arguments.value("--key-file") == nil else {
          throw .usage("--unsafe", "cannot be combined with a key")
        }
        return nil
      }
      guard let key, let salt else {
        throw .usage(
          "serve", "needs --key HEX --salt HEX (or MAGPIE_SERVE_KEY/MAGPIE_SERVE_SALT, --key-file), or --unsafe")
      }
      let size = try arguments.integer("--signature-size", in: 1...32, default: 32)
      do {
        return try URLSigner(hexKey: key, hexSalt: salt, signatureSize: size)
      } catch {
        throw .usage("--key", error.reason)
      }
    }
  }
#endif
