import Foundation
import Testing

@testable import Magpie

/// SHA-256 against sha256sum's digests (coreutils, computed once and
/// written here): whole inputs, and lists of parts each ended by a zero
/// byte.
@Suite struct SHA256Tests {
  @Test func aWholeInputIsItsPlainDigest() {
    // printf 'abc' | sha256sum
    #expect(SHA256.hexDigest(of: "abc".utf8) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    // printf '' | sha256sum
    #expect(SHA256.hexDigest(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
  }

  @Test func partsAreEachEndedByAZeroByte() {
    // printf 'abc\0' | sha256sum
    #expect(SHA256.hexDigest(ofParts: "abc") == "dc1114cd074914bd872cc1f9a23ec910ea2203bc79779ab2e17da25782a624fc")
    // printf 'ab\0c\0' | sha256sum
    #expect(SHA256.hexDigest(ofParts: "ab", "c") == "629c2f14f654f026086f2aefe1855533d0897f49df86a19073be17b237361b09")
    #expect(SHA256.hexDigest(ofParts: "ab", "c") != SHA256.hexDigest(ofParts: "a", "bc"))
    #expect(SHA256.hexDigest(ofParts: [Data("ab".utf8), Data("c".utf8)]) == SHA256.hexDigest(ofParts: "ab", "c"))
  }
}
