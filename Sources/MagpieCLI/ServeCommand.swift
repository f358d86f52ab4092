import Dispatch
import Foundation
import Magpie

#if canImport(MagpieServer)
  import MagpieServer
#endif

/// `magpie serve`: the pipeline behind an HTTP port (docs/serve.md). Prints
/// `listening on http://HOST:PORT` when ready; SIGTERM or SIGINT finish the
/// requests in flight, refuse new ones, and exit 0.
enum ServeCommand {
  static func run(_ words: [String]) async throws(CLIError) {
    #if canImport(MagpieServer)
      let arguments = try ParsedArguments(
        words,
        valued: [
          "--host", "--port", "--key", "--salt", "--key-file", "--allow-source", "--cache-dir", "--redis",
          "--max-source-bytes", "--max-pixels", "--max-frames", "--concurrency", "--queue", "--preset", "--ttl",
          "--quality", "--threads", "--download-timeout-ms", "--request-timeout-ms", "--memory-cache-mb",
          "--signature-size",
        ],
        switches: ["--unsafe", "--allow-private-sources", "--no-avif", "--no-webp", "--verbose"])
      guard arguments.positionals.isEmpty else { throw .usage("serve", "takes no positional arguments") }
      let (configuration, redisSummary) = try ServeOptions.configuration(arguments)
      let host = arguments.value("--host") ?? "127.0.0.1"
      let port = try arguments.integer("--port", in: 0...65535, default: 8080)
      let threads = try arguments.integer("--threads", in: 1...256, default: 2)
      let service: ImageService
      let server: HTTPServer
      do {
        let inFlight = Lock(0)
        service = try ImageService(configuration: configuration, inFlight: { inFlight.withLock { $0 } })
        server = try HTTPServer(
          host: host, port: port, threads: threads, immediate: { service.immediateResponse(to: $0) }
        ) { request in
          inFlight.withLock { $0 += 1 }
          defer { inFlight.withLock { $0 -= 1 } }
          return await service.respond(to: request)
        }
      } catch {
        throw .failure("serve", error.reason)
      }
      let shown = host.contains(":") ? "[\(host)]" : host
      // Unbuffered, so a script reading the pipe sees it at once.
      FileHandle.standardOutput.write(Data("listening on http://\(shown):\(server.port)\n".utf8))
      await TerminationSignal.wait()
      await server.shutdown(grace: configuration.requestTimeout)
      if let summary = redisSummary { FileHandle.standardError.write(Data((summary() + "\n").utf8)) }
    #else
      throw .usage("serve", "this magpie was built without libmicrohttpd (libmicrohttpd-dev)")
    #endif
  }
}
