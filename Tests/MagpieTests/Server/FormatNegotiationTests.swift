import Magpie
import MagpieServer
import Testing

@Suite("FormatNegotiation")
struct FormatNegotiationTests {
  @Test("Accept's named types with q above 0 count; wildcards name neither; switched-off formats are not offered")
  func preference() {
    let both = FormatNegotiation(offersAVIF: false, offersWebP: true)
    #expect(both.preference(accept: "image/webp,*/*").webp)
    #expect(!both.preference(accept: "image/webp;q=0, */*").webp)
    #expect(!both.preference(accept: "image/*").webp)
    #expect(!both.preference(accept: nil).webp)
    #expect(!FormatNegotiation(offersWebP: false).preference(accept: "image/webp").webp)
    #expect(!both.preference(accept: "image/avif").avif)  // AVIF switched off
    #expect(both.preference(accept: "IMAGE/WEBP ; q=0.5").webp)
  }

  @Test("stills: AVIF, then WebP, then the source's format (JPEG/PNG by alpha for others); animations: WebP or GIF")
  func formats() {
    let negotiation = FormatNegotiation()
    let none = FormatNegotiation.Preference(avif: false, webp: false)
    let webp = FormatNegotiation.Preference(avif: false, webp: true)
    let avifOnly = FormatNegotiation.Preference(avif: true, webp: false)
    #expect(negotiation.format(for: avifOnly, source: .jpeg, isAnimated: false, hasAlpha: false) == .avif)
    #expect(negotiation.format(for: webp, source: .png, isAnimated: false, hasAlpha: true) == .webp)
    #expect(negotiation.format(for: none, source: .png, isAnimated: false, hasAlpha: true) == .png)
    #expect(negotiation.format(for: none, source: .webp, isAnimated: false, hasAlpha: false) == .jpeg)
    #expect(negotiation.format(for: none, source: .heic, isAnimated: false, hasAlpha: true) == .png)
    #expect(negotiation.format(for: webp, source: .gif, isAnimated: true, hasAlpha: true) == .webp)
    #expect(negotiation.format(for: avifOnly, source: .gif, isAnimated: true, hasAlpha: true) == .gif)
    #expect(
      none.key == "source" && webp.key == "webp"
        && FormatNegotiation.Preference(avif: true, webp: true).key == "avif+webp")
  }
}
