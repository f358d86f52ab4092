#if canImport(MagpieServer)
  import Foundation
  import Magpie
  import MagpieServer
  import Testing

  /// The canonical string: one per value whatever the spelling, a
  /// different one for every different value, and components that parse
  /// back to the same options.
  @Suite struct TransformOptionsCanonicalTests {
    /// One value per field away from its default (and a few more for the
    /// fields with several shapes).
    static let variants: [TransformOptions] = {
      var list: [TransformOptions] = []
      func variant(_ change: (inout TransformOptions) -> Void) {
        var options = TransformOptions()
        change(&options)
        list.append(options)
      }
      variant { $0.resizingType = .fill }
      variant { $0.resizingType = .fillDown }
      variant { $0.resizingType = .force }
      variant { $0.width = 300 }
      variant { $0.height = 200 }
      variant { $0.enlarges = true }
      variant { $0.extends = true }
      variant { $0.gravity = .smart }
      variant { $0.gravity = .anchor(.north) }
      variant { $0.gravity = .anchor(.center, xOffset: 0.5, yOffset: -2) }
      variant { $0.gravity = .focusPoint(x: 0.5, y: 0.5) }
      variant { $0.gravity = .focusPoint(x: 1e-7, y: 1) }
      variant { $0.quality = 80 }
      variant { $0.format = .jpeg }
      variant { $0.format = .avif }
      variant { $0.devicePixelRatio = 2 }
      variant { $0.devicePixelRatio = 0.1 + 0.2 }
      variant { $0.blurSigma = 1.5 }
      variant { $0.sharpenSigma = 1.5 }
      variant { $0.padding = Padding(top: 1) }
      variant { $0.padding = Padding(left: 1) }
      variant { $0.background = .white }
      variant { $0.background = .black }
      variant { $0.rotation = 90 }
      variant { $0.stripsMetadata = false }
      variant { $0.keepsCopyright = false }
      variant { $0.colorProfile = .keep }
      variant { $0.colorProfile = .tagged }
      return list
    }()

    @Test func defaultsHaveAnEmptyCanonicalString() {
      #expect(TransformOptions().canonicalString == "" && TransformOptions().canonicalPathComponents.isEmpty)
    }

    @Test func aKnownValueHasAKnownString() throws {
      let options = try ServerURLs.options(
        "cc:keep/kcr:0/sm:false/rot:180/bg:10:20:255/pd:1:2/sh:0.25/bl:2.0/dpr:1.5/ext:jpeg/quality:90/g:fp:0.5:.25"
          + "/ex:1/el:t/resize:fill-down:640:480")
      #expect(
        options.canonicalString
          == "rt:fill-down/w:640/h:480/el:1/ex:1/g:fp:0.5:0.25/q:90/f:jpg/dpr:1.5/bl:2/sh:0.25/pd:1:2:1:2"
          + "/bg:0a14ff/rot:180/sm:0/kcr:0/cc:keep")
    }

    @Test func spellingsOfOneValueShareOneString() throws {
      let presets = ["thumb": "rs:fill:300:200/g:sm", "hq": "q:90/pr:webp", "webp": "f:webp"]
      let spellings = [
        "rs:fill:300:200/g:sm/q:90/f:webp", "resize:fill:300:200/gravity:sm/quality:90/format:webp",
        "f:webp/q:90/g:sm/s:300:200/rt:fill", "pr:thumb/pr:hq", "preset:hq:thumb", "w:1/h:1/q:10/pr:thumb:hq",
        "rs:fit:300:200:0/g:no:5:5/g:sm/q:90/ext:webp/rt:fill/el:f/dpr:1/bl:0/pd:0",
        "rs:fill:300:200/g:sm/q:90/f:png/@webp",
      ]
      var strings: Set<String> = []
      for spelling in spellings {
        let parts = spelling.split(separator: "/@")
        let path =
          "/unsafe/\(parts[0])/plain/\(ServerURLs.source)" + (parts.count > 1 ? "@\(parts[1])" : "")
        strings.insert(try ServerURLs.parse(path, presets: presets).options.canonicalString)
      }
      #expect(strings == ["rt:fill/w:300/h:200/g:sm/q:90/f:webp"])
    }

    @Test func differentValuesHaveDifferentStrings() {
      let strings = Self.variants.map(\.canonicalString)
      #expect(Set(strings).count == strings.count)
      #expect(!strings.contains(""))
    }

    @Test func canonicalComponentsParseBackToTheSameOptions() throws {
      var combined = TransformOptions()
      for variant in Self.variants {
        // Fold every variant into one value too (later ones win).
        for component in variant.canonicalPathComponents {
          combined = try ServerURLs.options((combined.canonicalPathComponents + [component]).joined(separator: "/"))
        }
      }
      for options in Self.variants + [combined] {
        let path = options.canonicalPathComponents.map { $0 + "/" }.joined()
        #expect(try ServerURLs.parse("/unsafe/\(path)plain/\(ServerURLs.source)").options == options, "\(path)")
      }
      #expect(combined.canonicalPathComponents.count >= 15)
    }

    @Test func theRequestKeyNamesOptionsAndSource() throws {
      let a = try ServerURLs.parse("/unsafe/w:10/plain/http://example.com/a.jpg")
      let b = try ServerURLs.parse("/unsafe/width:10/aHR0cDovL2V4YW1wbGUuY29tL2EuanBn")
      let c = try ServerURLs.parse("/unsafe/w:10/plain/http://example.com/b.jpg")
      #expect(a.canonicalKey == "w:10|http://example.com/a.jpg" && a.canonicalKey == b.canonicalKey)
      #expect(a.canonicalKey != c.canonicalKey)
    }
  }
#endif
