import Foundation

/// The gallery's URLs: the sample files served by the origin, cycled, each
/// with its own query so every cell has its own cache entry (as a real
/// feed's distinct photos would), and one in every 50 (the 11th, so the
/// first screen has one) a missing file that 404s.
enum GalleryItems {
  /// The files the gallery cycles through (photos, cut-outs, and animated
  /// GIFs and WebPs).
  static let files = [
    "photo-00.jpg", "photo-01.jpg", "pan-00.gif", "photo-02.jpg", "photo-03.webp", "cutout-01.png",
    "photo-04.jpg", "still-00.png", "pan-00.webp", "photo-05.jpg", "alpha-02.webp", "photo-06.jpg",
    "photo-07.jpg", "pan-01.gif", "photo-08.jpg", "still-02.png", "photo-09.jpg", "cutout-03.png",
    "photo-10.jpg", "photo-11.jpg", "pan-01.webp", "photo-12.jpg", "photo-13.jpg", "alpha-05.webp",
  ]

  /// One item in every `brokenInterval` is a URL that does not exist.
  static let brokenInterval = 50

  /// `count` URLs under `base` (ending in `/`).
  static func urls(base: String, count: Int) -> [String] {
    (0..<count).map { index in
      if index % brokenInterval == 10 { return "\(base)missing-\(index).jpg" }
      return "\(base)\(files[index % files.count])?i=\(index)"
    }
  }
}
