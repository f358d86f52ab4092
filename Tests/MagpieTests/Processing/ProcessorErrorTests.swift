import Foundation
import Testing

@testable import Magpie

/// Processors throw typed errors: a decode failure of the bytes they are
/// given keeps its code, their own failure is `processingFailed` naming them.
@Suite struct ProcessorErrorTests {
  /// A 40x30 PNG.
  static func png() -> Data {
    StoredPNG.encode(width: 40, height: 30, rgba: [UInt8](repeating: 200, count: 40 * 30 * 4))
  }

  /// The PNG with its IHDR bit depth changed but not its CRC: still sniffed
  /// as PNG, refused as corrupt.
  static func corruptPNG() -> Data {
    var bytes = [UInt8](png())
    // Signature (8), length (4), "IHDR" (4), width (4), height (4): depth.
    bytes[24] = 3
    return Data(bytes)
  }

  /// One processor of every kind that decodes data itself.
  static let decoders: [any ImageProcessor] = [
    ImageProcessors.Downsampling(size: PixelSize(width: 10, height: 10)),
    ImageProcessors.Resizing(size: PixelSize(width: 10, height: 10), mode: .fill),
    ImageProcessors.Cropping(size: PixelSize(width: 10, height: 10)),
    ImageProcessors.Blur(radius: 1),
    ImageProcessors.Custom(identifier: "pass", pixels: { $0 }),
    ImageProcessors.Custom(identifier: "whole", image: { $0 }),
    ImageProcessors.BlackWhite() |> ImageProcessors.Flip(.horizontal),
  ]

  private func expectCode(
    _ code: MagpieError.Code, from processor: any ImageProcessor, item: ImageProcessItem,
    options: ImageProcessingOptions = ImageProcessingOptions()
  ) {
    #expect {
      _ = try processor.process(item: item, options: options)
    } throws: { error in
      (error as? MagpieError)?.code == code
    }
  }

  @Test func corruptDataStaysCorruptData() {
    #expect(throws: Never.self) { try CoderRegistry.shared.decode(Self.png()) }
    for processor in Self.decoders {
      expectCode(.corruptData, from: processor, item: .data(Self.corruptPNG()))
    }
  }

  @Test func anImageOverTheLimitStaysTooLarge() {
    var options = ImageProcessingOptions()
    options.decodeOptions.maxPixelCount = 100
    for processor in Self.decoders {
      expectCode(.imageTooLarge, from: processor, item: .data(Self.png()), options: options)
    }
  }

  @Test func aCustomProcessorsNilIsProcessingFailedNamingIt() throws {
    let pixels = ImageProcessors.Custom(identifier: "no pixels", pixels: { _ in nil })
    let image = ImageProcessors.Custom(identifier: "no image", image: { _ in nil })
    for processor in [pixels, image] {
      do {
        _ = try processor.process(item: .data(Self.png()), options: ImageProcessingOptions())
        Issue.record("\(processor.identifier) succeeded")
      } catch {
        #expect(error.code == .processingFailed)
        #expect(error.reason.contains(processor.identifier))
        #expect(error.processor == processor.identifier)
      }
    }
  }

  @Test func aThrowingCustomProcessorKeepsItsCodeAndIsNamed() throws {
    let processor = ImageProcessors.Custom(
      identifier: "strict",
      throwing: { image throws(MagpieError) in
        guard image.pixelSize.width <= 20 else { throw MagpieError(.invalidArgument, "wider than 20") }
        return image
      })
    do {
      _ = try processor.process(item: .data(Self.png()), options: ImageProcessingOptions())
      Issue.record("the 40-pixel image passed")
    } catch {
      #expect(error.code == .invalidArgument)
      #expect(error.reason == "wider than 20")
      #expect(error.processor == processor.identifier)
      #expect(error.description.contains(processor.identifier))
    }
    let small = StoredPNG.encode(width: 8, height: 8, rgba: [UInt8](repeating: 9, count: 8 * 8 * 4))
    #expect(try processor.process(item: .data(small), options: ImageProcessingOptions()).pixelSize.width == 8)
  }

  @Test func aChainNamesThePartThatFailed() {
    let failing = ImageProcessors.Custom(identifier: "second", pixels: { _ in nil })
    let chain = ImageProcessors.Flip(.vertical) |> failing |> ImageProcessors.Blur(radius: 1)
    #expect {
      _ = try chain.process(item: .data(Self.png()), options: ImageProcessingOptions())
    } throws: { error in
      let error = error as? MagpieError
      return error?.code == .processingFailed && error?.processor == failing.identifier
    }
    // A decode failure in the first part is that part's.
    #expect {
      _ = try chain.process(item: .data(Self.corruptPNG()), options: ImageProcessingOptions())
    } throws: { error in
      let error = error as? MagpieError
      return error?.code == .corruptData && error?.processor == ImageProcessors.Flip(.vertical).identifier
    }
  }

  @Test func framesOfDifferentSizesFailNamingTheProcessor() throws {
    let data = try TestPaths.fixture("processing/anim.gif")
    let image = try CoderRegistry.shared.decode(data)
    let firstColour = image.frames[0].pixels[0, 0]
    let uneven = ImageProcessors.Custom(
      identifier: "uneven",
      pixels: { pixels in
        pixels[0, 0] == firstColour ? pixels : pixels.cropped(x: 0, y: 0, width: 1, height: 1)
      })
    #expect {
      _ = try uneven.process(item: .image(image), options: ImageProcessingOptions())
    } throws: { error in
      (error as? MagpieError)?.code == .processingFailed && (error as? MagpieError)?.reason.contains("uneven") == true
    }
  }
}
