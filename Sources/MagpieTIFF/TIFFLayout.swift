import Magpie

/// The pages of a TIFF and the reduced-resolution copies of its first,
/// from a walk over the directories' tags (no pixels decoded).
///
/// Each directory of the main chain is a page, except one whose
/// NewSubfileType marks it reduced: that is a copy of the page before it
/// (how pyramidal TIFFs store their levels). The first page's SubIFDs are
/// reductions too when they are no larger and of its shape.
struct TIFFLayout {
  /// The pages in file order; never empty.
  let pages: [TIFFDirectory]
  /// Reduced copies of the first page (empty unless asked for).
  let reductions: [TIFFDirectory]

  /// The most reduced directories in a row the walk reads: a pyramid has
  /// a level per halving (about 20 for a gigapixel page), while a chain of
  /// millions of tiny reduced directories counts toward no page limit.
  static let maxReductionsInARow = 64

  /// Walks `file`'s chain from the first directory, which libtiff has just
  /// read, counting at most `pageLimit` pages (a file with more is refused
  /// by the caller from that count). A directory libtiff cannot read after
  /// the first page ends the walk, keeping the pages before it. With
  /// `findsReductions`, also the first page's reduced copies, and their
  /// SubIFDs are read (which moves libtiff off the chain). More than
  /// ``maxReductionsInARow`` reduced directories in a row end the walk too;
  /// `deadline` is checked every 256 directories.
  init(_ file: TIFFFile, pageLimit: Int, findsReductions: Bool, deadline: DecodeDeadline) throws(MagpieError) {
    var pages = [TIFFDirectory(file, at: .chain(0))]
    var reductions: [TIFFDirectory] = []
    var index = 0
    var reducedInARow = 0
    while pages.count < pageLimit || (findsReductions && pages.count == 1) {
      if index % 256 == 255 { try deadline.check("tiff directory \(index + 1)") }
      guard file.advance() else {
        // The end of the chain, or one past the pages kept: not a failure.
        file.clearErrors()
        break
      }
      index += 1
      let directory = TIFFDirectory(file, at: .chain(index))
      if directory.isReduced {
        reducedInARow += 1
        if reducedInARow > Self.maxReductionsInARow { break }
        if pages.count == 1 && directory.reduces(pages[0]) { reductions.append(directory) }
      } else if pages.count < pageLimit {
        reducedInARow = 0
        pages.append(directory)
      } else {
        break
      }
    }
    if findsReductions {
      for offset in pages[0].subIFDs {
        // A SubIFD libtiff cannot read is no reduction; the page still is.
        guard (try? file.select(.subIFD(offset))) != nil else {
          file.clearErrors()
          continue
        }
        let directory = TIFFDirectory(file, at: .subIFD(offset))
        if directory.reduces(pages[0]) { reductions.append(directory) }
      }
    }
    // What libtiff reported on directories it could still read (or past
    // the pages kept) must not be blamed for a later failure.
    file.clearErrors()
    self.pages = pages
    self.reductions = reductions
  }

  /// The pages that decode as frames: those of the first page's stored size
  /// and orientation (an image's frames share one size, turned upright or
  /// not).
  var frames: [TIFFDirectory] {
    pages.filter { $0.size == pages[0].size && $0.orientation == pages[0].orientation }
  }

  /// The smallest reduction of the first page that still covers `needed`
  /// (its stored size), or the first page when none does.
  func source(covering needed: PixelSize) -> TIFFDirectory {
    let covering = reductions.filter { $0.size.width >= needed.width && $0.size.height >= needed.height }
    return covering.min { $0.size.pixelCount < $1.size.pixelCount } ?? pages[0]
  }
}
