#if canImport(MagpieServer)
  import Foundation
  import MagpieServer

  extension FuzzHarness {
    /// `magpie serve`'s transform URL parser, with presets (a `default`
    /// one, nested ones): any path either fails with a
    /// `TransformURLError` or parses into options and a source that the
    /// canonical path gives back exactly, parsed again without presets
    /// (traps otherwise), unless that path is over the length limit.
    static let serveURL = FuzzHarness(
      name: "serve-url",
      seedTexts: [
        "/unsafe/rs:fill:300:200/g:sm/plain/http%3A%2F%2Fexample.com%2Fa.jpg@webp",
        "/unsafe/resize:fit:100:0:1:1/gravity:soea:5:-3/quality:80/plain/https://example.com/a%20b.png",
        "/unsafe/pr:thumb/w:50/aHR0cDovL2ltZy5l/eGFtcGxlLmNvbS9w/cmV0dHkvaW1hZ2UuanBn.avif",
        "/unsafe/pd:1:2:3/bg:ff8000/bg:1::3/dpr:1.5/bl:2.5e0/sh:.5/rot:270/sm:f/kcr:0/cc:srgb-tagged/f:png/"
          + "plain/http:/example.com/x",
        "/unsafe/g:fp:0.25:0.75/g:fp::1/pr:nested:webp/q:0/ex:t/el:1/s:16384:1/plain/http://u@h/p?q",
        "/unsafe/rs:fill::/pd::9/bg:/g::4/plain/HTTP://EXAMPLE.com/%C3%A9@jpg",
        "/sig/w:1/plain/ftp://example.com/a", "/unsafe/w:99999/plain/http://a/b", "/unsafe//plain/http://a/b",
      ],
      maxLength: 4 << 10
    ) { data in
      guard let request = try? ServeURLFuzzing.parser.parse(String(decoding: data, as: UTF8.self)) else { return }
      for encoding in TransformSourceEncoding.allCases {
        let canonical = URLSigner.unsafePath(options: request.options, source: request.source, encoding: encoding)
        // Escaping can make the canonical path longer than the path it came
        // from (a non-ASCII byte becomes %25XX in the plain form): past the
        // limit the server refuses it as too long, which is no mismatch.
        if canonical.utf8.count > TransformURLLimits.maximumPathLength { continue }
        guard let again = try? ServeURLFuzzing.withoutPresets.parse(canonical) else {
          fatalError("serve-url: the canonical path \(canonical) does not parse")
        }
        guard again.options == request.options, again.source.absoluteString == request.source.absoluteString,
          again.options.canonicalString == request.options.canonicalString
        else {
          fatalError("serve-url: \(canonical) parses to \(again), not \(request)")
        }
      }
    }
  }
#endif
