#if canImport(MagpieServer)
  import MagpieServer
  import Testing

  /// Every limit that stops a hostile URL, and malformed arguments: each
  /// refused with its status, the largest allowed value accepted.
  @Suite struct TransformURLLimitTests {
    @Test(arguments: [
      "w:16385", "h:16385", "s:16385:1", "rs:fit:1:16385", "w:16384/dpr:1.01", "h:8193/dpr:2", "dpr:0", "dpr:-1",
      "dpr:8.001", "bl:100.5", "blur:-1", "sh:101", "pd:4097", "pd:0:0:0:4097", "pd:2049/dpr:2", "q:101",
      "q:-1", "g:no:16385", "g:so:0:-16385", "g:fp:1.5:0", "g:fp:0:-0.1", "rot:360", "rot:-90", "rot:45",
    ])
    func outOfRangeValuesAre400(_ path: String) {
      #expect(ServerURLs.optionRefusal(path)?.status == 400, "\(path)")
    }

    @Test(arguments: [
      "w:16384", "h:16384/dpr:1", "w:8192/dpr:2", "dpr:8", "dpr:0.001", "bl:100", "sh:100", "pd:4096",
      "pd:2048/dpr:2", "q:1", "q:100", "g:no:-16384:16384", "g:fp:0:1", "rot:270",
    ])
    func theLargestAllowedValuesParse(_ path: String) {
      #expect(ServerURLs.optionRefusal(path) == nil, "\(path)")
    }

    @Test(arguments: [
      "w:abc", "w:1.5", "w:+5", "w:0x10", "w:", "dpr:nan", "dpr:inf", "dpr:1e", "dpr:0x1p3", "dpr:1,5", "dpr:--1",
      "bl:.", "el:yes", "sm:2", "rt:crop", "rs:cover", "g:xx", "g:sm:1", "gravity:fp:0.5:0.5:1", "w:1:2",
      "pd:1:2:3:4:5", "bg:12345", "bg:1234567", "bg:gg0000", "bg:1:2", "bg:256:0:0", "f:tiff", "f:JPG", "cc:p3",
      "pr:missing", "crop:10:10", "x:", "w:99999999999999999999999",
    ])
    func malformedOptionsAre400(_ path: String) {
      // `w:` alone keeps the width: everything else here is refused.
      if path == "w:" {
        #expect(ServerURLs.optionRefusal(path) == nil)
      } else {
        #expect(ServerURLs.optionRefusal(path)?.status == 400, "\(path)")
      }
    }

    @Test func pathsOver16KiBAre414() {
      let prefix = "/unsafe/plain/http://example.com/"
      let atLimit = prefix + String(repeating: "a", count: TransformURLLimits.maximumPathLength - prefix.utf8.count)
      #expect(ServerURLs.refusal(atLimit) == nil)
      let error = ServerURLs.refusal(atLimit + "a")
      #expect(error?.status == 414 && error?.kind == .pathTooLong)
      // The query does not count.
      #expect(ServerURLs.refusal(atLimit + "?" + String(repeating: "q", count: 100)) == nil)
    }

    @Test func moreThan64OptionsAre400() {
      let options = { (count: Int) in Array(repeating: "w:1", count: count).joined(separator: "/") }
      #expect(ServerURLs.optionRefusal(options(64)) == nil)
      #expect(ServerURLs.optionRefusal(options(65))?.reason == "path: over 64 options")
    }

    @Test func presetExpansionOver1024OptionsIs400() {
      let presets = ["many": Array(repeating: "w:1", count: 64).joined(separator: "/")]
      let names = { (count: Int) in Array(repeating: "many", count: count).joined(separator: ":") }
      #expect(ServerURLs.refusal("/unsafe/pr:\(names(16))/plain/\(ServerURLs.source)", presets: presets) == nil)
      let error = ServerURLs.refusal("/unsafe/pr:\(names(17))/plain/\(ServerURLs.source)", presets: presets)
      #expect(error?.status == 400 && error?.reason.contains("1024") == true)
    }
  }
#endif
