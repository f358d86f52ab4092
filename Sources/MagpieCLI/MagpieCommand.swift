import Foundation
import Magpie

/// `magpie`: load, decode, convert and benchmark images from the shell.
/// Exit 0 on success, 1 when the work failed, 2 on a usage error; errors are
/// one line on stderr, `magpie: error: <what failed>: <why>`.
@main
enum MagpieCommand {
  static let usage = """
    usage: magpie <command> [arguments]

    commands:
      info FILE_OR_URL                          format, size, frames and timing as JSON
      decode FILE... --out DIR [--color srgb]   decode to DIR/NAME.rgba and DIR/NAME.json (stored colours;
                                                --color srgb converts embedded profiles to sRGB)
              [--max-pixels N] [--max-bytes N] [--max-frames N] [--time-limit-ms N]
                                                decode limits (default 100 MP, 256 MiB, 10000, 10000 ms)
      convert IN OUT [--format jpeg|png|gif|webp|avif|heic|jxl|bmp] [--quality 0-100] [--process SPEC]
              [--icc none|original|srgb] [--keep-metadata]
      play FILE [--seconds S] [--rate TICKS_PER_S] [--budget MB] [--mode forward|reverse|bounce]
                                                play an animation on a real clock into no display
      fetch URL [-o FILE] [--process SPEC] [--format F] [--cache-dir DIR] [--no-cache] [--json] [--verbose]
              [--redis redis://[PASSWORD@]HOST[:PORT][/DB]] [--resume] [--http-cache]
              [--cacert FILE] [--cert FILE --key FILE] [--pin SHA256]
                                                one load of an http(s)://, file:// or data: URL; --redis adds a shared Redis tier behind the disk;
                                                --resume finishes a cut body with a ranged request;
                                                --http-cache follows the origin's Cache-Control and Expires;
                                                --cacert, --cert/--key and --pin: trusted CAs, a client certificate, a pinned key
      prefetch URLS_FILE|- [--concurrency N] [--process SPEC] [--cache-dir DIR] [--redis URL]
                                                fill the caches from a list
      bench TASK LISTFILE REPS WARMUP           side-by-side benchmark protocol (decode, thumb, webp, noop;
                                                also decode-scaled, thumb-unscaled, thumb-batch, process:SPEC)
      cache info|clean|clear [--cache-dir DIR] [--size-limit N[K|M|G]] [--max-age-days D]
      demo [DIR] [--out FILE] [--base-url URL --cache-dir DIR]
                                                thumbnail the samples (through an origin with --base-url)
      cache-bench memory|manager|engine|disk|clean|redis [--thumbnail FILE] [--files N] [--redis URL]
                                                cache timings for make bench
      loader-bench URLS_FILE [--concurrency N] [--loader curl|urlsession] [--via downloader|callers] [--timeout S]
                                                data-loader timings for make bench
      serve [--host 127.0.0.1] [--port 8080] [--key HEX --salt HEX | --key-file FILE | --unsafe]
              [--allow-source URL_PREFIX]... [--allow-private-sources] [--cache-dir DIR] [--redis URL]
              [--max-source-bytes N] [--max-pixels N] [--max-frames N] [--concurrency N] [--queue N]
              [--preset NAME=OPTIONS]... [--ttl SECONDS] [--quality Q] [--no-avif] [--no-webp] [--verbose]
              [--download-timeout-ms N] [--request-timeout-ms N] [--threads N] [--memory-cache-mb N]
          [--signature-size 1-32]
                                                an image server: imgproxy-style signed transform URLs (docs/serve.md);
                                                key and salt also from MAGPIE_SERVE_KEY and MAGPIE_SERVE_SALT

    help: this text; --version: the library's version
    --verbose, with any command: Magpie's log (loader, caches, Redis, decoders) on standard error
    process SPEC: processors joined by '|', e.g. 'downsample(256x256)'
    """

  static func main() async {
    let arguments = Array(CommandLine.arguments.dropFirst())
    OptionalCoders.register()
    do {
      try await run(arguments)
    } catch {
      report(error)
      exit(error.exitCode)
    }
  }

  static func run(_ arguments: [String]) async throws(CLIError) {
    guard let command = arguments.first else {
      FileHandle.standardError.write(Data(usage.utf8))
      throw .usage("magpie", "no command given")
    }
    var rest = Array(arguments.dropFirst())
    // --verbose, with any command: Magpie's log on standard error (fetch
    // also shows URLs whole with it).
    if rest.contains("--verbose") {
      MagpieLogging.bootstrap(StandardErrorLogHandler(), level: .debug)
      if command != "fetch" && command != "serve" { rest.removeAll { $0 == "--verbose" } }
    }
    switch command {
    case "info": try await InfoCommand.run(rest)
    case "decode": try DecodeCommand.run(rest)
    case "convert": try ConvertCommand.run(rest)
    case "play": try await PlayCommand.run(rest)
    case "bench": try BenchCommand.run(rest)
    case "demo": try await DemoCommand.run(rest)
    case "cache": try CacheCommand.run(rest)
    case "fetch": try await FetchCommand.run(rest)
    case "prefetch": try await PrefetchCommand.run(rest)
    case "cache-bench": try await CacheBenchCommand.run(rest)
    case "loader-bench": try await LoaderBenchCommand.run(rest)
    case "serve": try await ServeCommand.run(rest)
    case "help", "--help", "-h": print(usage)
    case "--version", "version": print(LibraryVersions.magpie)
    default: throw .usage(command, "unknown command; run 'magpie help' for the list")
    }
  }

  /// Prints `magpie: error: <what>: <why>` on one line.
  static func report(_ error: CLIError) {
    guard !error.alreadyReported else { return }
    let line = "magpie: error: \(error.what): \(error.why)".replacingOccurrences(of: "\n", with: " ")
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}

extension CLIError {
  /// A library error as the reason part of a CLI error line.
  static func failure(_ what: String, _ error: MagpieError) -> CLIError {
    .failure(what, error.description)
  }
}
