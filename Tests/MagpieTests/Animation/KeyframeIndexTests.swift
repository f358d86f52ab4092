import Testing

@testable import Magpie

/// The keyframe rule on its own, and where a request starts decoding.
@Suite struct KeyframeIndexTests {
  typealias Frame = KeyframeIndex.Frame

  @Test func theRuleAndWhereDecodingStarts() {
    let part = Frame(coversCanvas: false, replacesRectangle: true, disposal: .keep)
    let index = KeyframeIndex([
      part,  // 0: always
      Frame(coversCanvas: true, replacesRectangle: false, disposal: .clear),  // 1: blends
      part,  // 2: after a whole-canvas clear
      Frame(coversCanvas: false, replacesRectangle: false, disposal: .restore),  // 3: not
      Frame(coversCanvas: true, replacesRectangle: true, disposal: .restore),  // 4: restored later
      Frame(coversCanvas: true, replacesRectangle: true, disposal: .keep),  // 5: replaces all
      part,  // 6: not
    ])
    #expect(index.isKeyframe == [true, false, true, false, false, true, false])
    #expect(index.keyframe(atOrBefore: 4) == 2)
    #expect(index.start(toReach: 6, next: nil) == 5)
    #expect(index.start(toReach: 6, next: 3) == 5)
    #expect(index.start(toReach: 6, next: 6) == 6)
    #expect(index.start(toReach: 3, next: 4) == 2)
  }

  @Test func aClearOrRestoreOnATransparentCanvasLeavesItTransparent() {
    let clearsPart = Frame(coversCanvas: false, replacesRectangle: false, disposal: .clear)
    let restoresPart = Frame(coversCanvas: false, replacesRectangle: false, disposal: .restore)
    let keepsPart = Frame(coversCanvas: false, replacesRectangle: false, disposal: .keep)
    let index = KeyframeIndex([clearsPart, restoresPart, keepsPart, clearsPart])
    #expect(index.isKeyframe == [true, true, true, false])
  }
}
