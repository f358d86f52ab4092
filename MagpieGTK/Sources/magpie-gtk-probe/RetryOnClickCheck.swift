import CGTK4
import CMagpieGTK
import Foundation
import Magpie
import MagpieGTK

/// A load that fails shows the failure image; once the file is there, a
/// click on the picture (its gesture's "released", as a click emits it)
/// loads it again and shows it. With `retriesFailedLoadOnClick` off the
/// click does nothing.
@MainActor
enum RetryOnClickCheck {
  static func run(_ context: ProbeContext) -> String? {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("magpie-retry-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else {
      return "no temporary folder"
    }
    let later = folder.appendingPathComponent("later.jpg")
    let view = PictureView()
    context.show(view.widget)
    let failure = Image(pixels: PixelBuffer(width: 4, height: 4, straightRGBA: .init(repeating: 128, count: 64)))
    var results: [Result<ImageResult, MagpieError>] = []
    view.magpie.setImage(
      with: FileDataProvider(fileURL: later), failureImage: failure, manager: context.manager,
      completion: { results.append($0) })
    GTKMainLoop.iterate(until: { results.count == 1 })
    guard case .failure = results[0] else { return "the missing file loaded" }
    guard view.shownImage?.pixelSize == PixelSize(width: 4, height: 4) else { return "no failure image shown" }
    guard (try? FileManager.default.copyItem(at: context.sample("photo-00.jpg").fileURL, to: later)) != nil else {
      return "could not copy the sample"
    }
    view.retriesFailedLoadOnClick = false
    magpie_gesture_click_emit_released(UnsafeMutableRawPointer(view.clickGesture), 10, 10)
    guard view.magpie.hasFailedLoad, results.count == 1 else { return "a click retried with retries off" }
    view.retriesFailedLoadOnClick = true
    magpie_gesture_click_emit_released(UnsafeMutableRawPointer(view.clickGesture), 10, 10)
    GTKMainLoop.iterate(until: { results.count == 2 })
    guard case .success(let loaded) = results[1] else { return "the retry failed: \(results[1])" }
    guard view.shownImage?.pixelSize == loaded.image.pixelSize, loaded.image.pixelSize.width > 4 else {
      return "the retried image is not shown"
    }
    return view.magpie.hasFailedLoad ? "the failure is still kept" : nil
  }
}
