#if canImport(MagpieServer)
  import MagpieServer
  import Testing

  /// Presets: expanded where named, `default` first, nesting bounded,
  /// cycles and bad presets refused when the parser is made.
  @Suite struct TransformPresetTests {
    let presets = [
      "thumb": "rs:fill:200:200/g:sm", "small": "w:100/pr:webp", "webp": "f:webp/q:70", "blurred": "bl:3",
    ]

    @Test func aPresetExpandsWhereItIsNamed() throws {
      let thumb = try ServerURLs.options("pr:thumb", presets: presets)
      #expect(thumb.resizingType == .fill && thumb.width == 200 && thumb.height == 200 && thumb.gravity == .smart)
      // Options after the preset override it; options before it do not.
      #expect(try ServerURLs.options("pr:thumb/w:50", presets: presets).width == 50)
      #expect(try ServerURLs.options("w:50/preset:thumb", presets: presets).width == 200)
      let two = try ServerURLs.options("pr:thumb:blurred", presets: presets)
      #expect(two.width == 200 && two.blurSigma == 3)
      #expect(try ServerURLs.options("pr::thumb:", presets: presets).width == 200)
    }

    @Test func presetsNest() throws {
      let small = try ServerURLs.options("pr:small", presets: presets)
      #expect(small.width == 100 && small.format == .webp && small.quality == 70)
    }

    @Test func theDefaultPresetAppliesFirst() throws {
      var withDefault = presets
      withDefault["default"] = "q:85/sm:0/pr:blurred"
      let plain = try ServerURLs.options("w:10", presets: withDefault)
      #expect(plain.quality == 85 && !plain.stripsMetadata && plain.blurSigma == 3 && plain.width == 10)
      let overridden = try ServerURLs.options("q:60/pr:webp", presets: withDefault)
      #expect(overridden.quality == 70 && overridden.format == .webp)
      #expect(try TransformURLParser(presets: withDefault).baseOptions.quality == 85)
    }

    @Test func anUnknownPresetInAURLIs400() {
      let error = ServerURLs.refusal("/unsafe/pr:thumb:nope/plain/\(ServerURLs.source)", presets: presets)
      #expect(error?.status == 400 && error?.reason == "pr: no preset is called `nope`")
    }

    @Test func badPresetsFailWhenTheParserIsMade() {
      let cases: [([String: String], String)] = [
        (["a": "pr:b", "b": "pr:a"], "cycle"), (["a": "pr:a"], "cycle"), (["default": "w:1/pr:default"], "cycle"),
        (["a": "pr:missing"], "unknown preset"), (["a": "w:-1"], "w: -1"), (["a": "crop:1"], "unknown option"),
        (["a:b": "w:1"], "name"), (["a": "pd"], "pd: needs `:`"), (["a": "g/w:1"], "g: needs `:`"),
        (["": "w:1"], "name"), (["a": "w:1", "b": "pr:a:a:x"], "unknown preset `x`"),
      ]
      for (table, fragment) in cases {
        do {
          _ = try TransformURLParser(presets: table)
          Issue.record("\(table) was accepted")
        } catch {
          #expect(error.kind == .configuration && error.status == 500, "\(table)")
          #expect(error.reason.contains(fragment), "\(table): \(error.reason)")
        }
      }
    }

    /// Both directions, so the deepest preset is expanded first in one
    /// (and reused when the shallower ones name it) and last in the other.
    @Test(arguments: [false, true])
    func nestingDeeperThanTheLimitIsRefused(rootFirst: Bool) throws {
      func chain(_ depth: Int) -> (table: [String: String], root: String) {
        let name = { (level: Int) in "p\(rootFirst ? level : depth + 1 - level)" }
        var table = [name(depth): "w:1"]
        for level in 1..<depth { table[name(level)] = "pr:\(name(level + 1))" }
        return (table, name(1))
      }
      let deepest = chain(TransformURLLimits.maximumPresetDepth)
      #expect(try ServerURLs.options("pr:\(deepest.root)", presets: deepest.table).width == 1)
      #expect(throws: TransformURLError.self) {
        try TransformURLParser(presets: chain(TransformURLLimits.maximumPresetDepth + 1).table)
      }
    }

    @Test func aPresetExpandingPastTheLimitIsRefused() {
      let wide = Array(repeating: "w:1", count: 64).joined(separator: "/")
      let table = ["wide": wide, "wider": Array(repeating: "pr:wide", count: 17).joined(separator: "/")]
      #expect(throws: TransformURLError.self) { try TransformURLParser(presets: table) }
    }
  }
#endif
