import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The caching headers read as values: lifetimes from max-age, s-maxage
/// and Expires, less the response's age; what no-store, private,
/// no-cache and immutable mean.
@Suite struct HTTPCachePolicyTests {
  private let now = Date(timeIntervalSince1970: 1_800_000_000)

  private func policy(_ fields: [String: String], _ caching: HTTPCaching = .privateCache) -> HTTPCachePolicy {
    let response = HTTPURLResponse(
      url: URL(string: "https://images.example.com/a.png")!, statusCode: 200, httpVersion: "HTTP/1.1",
      headerFields: fields)!
    return HTTPCachePolicy(response, receivedAt: now, caching: caching)
  }

  private func date(_ offset: Double) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: now.addingTimeInterval(offset))
  }

  @Test func lifetimesComeFromMaxAgeSharedMaxAgeOrExpiresLessTheAge() {
    let start = now.timeIntervalSince1970
    #expect(policy(["Cache-Control": "max-age=60"]).expires == start + 60)
    #expect(policy(["Cache-Control": "public, max-age=60", "Age": "20"]).expires == start + 40)
    #expect(policy(["Cache-Control": "max-age=60, s-maxage=600"]).expires == start + 60)
    #expect(policy(["Cache-Control": "max-age=60, s-maxage=600"], .sharedCache).expires == start + 600)
    #expect(policy(["Expires": date(120), "Date": date(0)]).expires == start + 120)
    // max-age wins over Expires; an Expires that is no date has expired.
    #expect(policy(["Cache-Control": "max-age=5", "Expires": date(120)]).expires == start + 5)
    #expect(policy(["Expires": "0"]).isFresh(at: now) == false)
    #expect(policy([:]).expires == nil)
    #expect(policy([:]).isFresh(at: now.addingTimeInterval(1e9)))
  }

  @Test func storeAndRevalidateRules() {
    #expect(policy(["Cache-Control": "no-store"]).noStore)
    #expect(!policy(["Cache-Control": "private, max-age=60"]).noStore)
    #expect(policy(["Cache-Control": "private, max-age=60"], .sharedCache).noStore)
    let noCache = policy(["Cache-Control": "no-cache"])
    #expect(noCache.noCache && !noCache.isFresh(at: now))
    let immutable = policy(["Cache-Control": "max-age=31536000, immutable"])
    #expect(immutable.immutable && immutable.isFresh(at: now.addingTimeInterval(1000)))
  }

  @Test func theRulesTravelInTheEntrysMetadata() throws {
    let response = HTTPURLResponse(
      url: URL(string: "https://images.example.com/a.png")!, statusCode: 200, httpVersion: "HTTP/1.1",
      headerFields: ["ETag": "\"x\""])!
    let policy = HTTPCachePolicy(noCache: true, immutable: false, expires: 1_800_000_060)
    let validators = try #require(ValidatorStore.Validators(response, policy: policy))
    let decoded = try #require(validators.encoded.flatMap(ValidatorStore.Validators.init(encoded:)))
    #expect(decoded == validators)
    #expect(decoded.policy == policy)
  }

  @Test func aHostileDateOrExpiresIsNoDateNotATrap() {
    // The text that made DateFormatter trap for Retry-After: read through
    // the same guarded parser, an Expires like it has expired.
    let hostile = "Wed, 20 Oct 2\u{0317}5 07:28:00 GMT"
    #expect(policy(["Expires": hostile]).isFresh(at: now) == false)
    #expect(policy(["Cache-Control": "max-age=60", "Date": hostile]).expires == now.timeIntervalSince1970 + 60)
  }
}
