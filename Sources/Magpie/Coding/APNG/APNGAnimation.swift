/// The animation an APNG describes, read from its chunks without decoding
/// any pixels, and checked against the APNG specification.
///
/// Animation chunks that contradict each other make the file a still of its
/// default image (the IDAT image), as browsers show it, instead of an
/// error: a second `acTL`, an `acTL` of the wrong length or with a bad CRC,
/// `num_frames` 0 or above 2^31 - 1, `num_plays` above 2^31 - 1 (Chromium's
/// `PNGImageReader::ParseSize` in
/// third_party/blink/renderer/platform/image-decoders/png/png_image_reader.cc
/// sets `ignore_animation_` for each of these), and a complete file whose
/// `fcTL` count is not `num_frames` (the same fallback, extended to a count
/// only known at the end; Chromium's reader fails such a file outright).
/// Damage browsers refuse stays an error: broken sequence numbers, frames
/// outside the canvas, a bad fdAT CRC, truncated or corrupt image data.
struct APNGAnimation: Sendable, Equatable {
  /// The most frames or plays `acTL` may declare (PNG integers stop at
  /// 2^31 - 1).
  static let maxPNGInteger = 0x7FFF_FFFF

  /// `num_plays`: how many times the animation plays, 0 for forever.
  var loopCount: Int
  /// The animation's frames in play order; as many as `acTL` declares. The
  /// default image is the first of them only when an `fcTL` precedes IDAT.
  var frames: [APNGFrame]
  /// PLTE and tRNS as they appear before the image data, to copy into every
  /// frame's standalone stream.
  var sharedChunks: [PNGChunk]
  /// Why the animation chunks are ignored, when they are: the file shows as
  /// a still of its default image, and `frames` is empty.
  var stillReason: String?

  private enum Phase {
    case beforeImageData, imageData, afterImageData
  }

  /// Walks every chunk of `bytes`, an APNG whose IHDR declares a `canvas`
  /// of that size. Throws ``MagpieError/Code/corruptData`` when the chunks
  /// break the APNG rules (sequence numbers, frame rectangles, image data
  /// order) and ``MagpieError/Code/truncatedData`` when the data ends
  /// early; sets ``stillReason`` for the contradictions browsers ignore.
  init(parsing bytes: UnsafeRawBufferPointer, canvas: PixelSize) throws(MagpieError) {
    guard var reader = PNGChunkReader(bytes) else {
      throw MagpieError(.corruptData, "not a PNG file: the 8-byte PNG signature is missing or damaged")
    }
    var declaredFrames: Int?
    var loopCount = 0
    var frames: [APNGFrame] = []
    var sharedChunks: [PNGChunk] = []
    var nextSequence = 0
    var phase = Phase.beforeImageData
    var sawEnd = false
    var stillReason: String?

    func claimSequence(_ number: UInt32, in chunk: PNGChunk) throws(MagpieError) {
      guard Int(number) == nextSequence else {
        throw MagpieError(
          .corruptData,
          "the APNG \(chunk.name) chunk at byte \(chunk.offset) has sequence number \(number) where \(nextSequence) "
            + "was expected")
      }
      nextSequence += 1
    }
    func requireCRC(_ chunk: PNGChunk) throws(MagpieError) {
      guard chunk.hasValidCRC(in: bytes) else {
        throw MagpieError(.corruptData, "the APNG \(chunk.name) chunk at byte \(chunk.offset) fails its CRC check")
      }
    }

    walk: while true {
      let next: PNGChunk?
      do {
        next = try reader.next()
      } catch {
        // Like libpng for a still image, a cut-off tail after the frame data
        // only matters if frames are missing (checked below).
        guard error.code == .truncatedData && !Self.cutsFrameData(bytes, at: reader.offset) else { throw error }
        break walk
      }
      guard let chunk = next else { break walk }
      if phase == .imageData && chunk.type != PNGChunk.idat { phase = .afterImageData }
      switch chunk.type {
      case PNGChunk.actl:
        // The preamble found the first acTL before IDAT, so this only
        // decides between an animation and a still.
        stillReason = Self.actlProblem(chunk, in: bytes, isFirst: declaredFrames == nil)
        if stillReason != nil { break walk }
        let data = chunk.data(in: bytes)
        declaredFrames = Int(PNGChunk.bigEndian32(data, at: 0))
        loopCount = Int(PNGChunk.bigEndian32(data, at: 4))

      case PNGChunk.fctl:
        try requireCRC(chunk)
        let control = try APNGFrameControl(parsing: chunk.data(in: bytes), canvas: canvas)
        try claimSequence(control.sequenceNumber, in: chunk)
        if let last = frames.last, last.dataChunks.isEmpty {
          throw MagpieError(.corruptData, "APNG frame \(frames.count - 1) has no image data before the next fcTL")
        }
        if let declaredFrames, frames.count == declaredFrames {
          stillReason = "the APNG acTL chunk declares \(declaredFrames) frames but the file holds more"
          break walk
        }
        let isDefaultImage = phase == .beforeImageData
        if isDefaultImage {
          guard frames.isEmpty else {
            throw MagpieError(.corruptData, "the APNG has two fcTL chunks before its image data")
          }
          // The default image is the whole canvas; its fcTL must say so.
          guard control.width == canvas.width, control.height == canvas.height, control.x == 0, control.y == 0
          else {
            throw MagpieError(
              .corruptData,
              "the APNG's first fcTL describes \(control.width)x\(control.height) at "
                + "(\(control.x), \(control.y)) but the default image is the whole \(canvas) canvas")
          }
        }
        frames.append(APNGFrame(control: control, isDefaultImage: isDefaultImage))

      case PNGChunk.idat:
        guard phase != .afterImageData else {
          throw MagpieError(.corruptData, "the APNG has IDAT chunks that are not contiguous")
        }
        phase = .imageData
        if frames.count == 1, frames[0].isDefaultImage { frames[0].dataChunks.append(chunk) }

      case PNGChunk.fdat:
        guard let last = frames.last, !last.isDefaultImage, phase == .afterImageData else {
          throw MagpieError(.corruptData, "the APNG fdAT chunk at byte \(chunk.offset) does not follow a frame's fcTL")
        }
        guard chunk.length >= 4 else {
          throw MagpieError(.corruptData, "the APNG fdAT chunk at byte \(chunk.offset) is too short")
        }
        // The CRC is checked when the frame is decoded (see APNGFrame).
        try claimSequence(PNGChunk.bigEndian32(bytes, at: chunk.dataRange.lowerBound), in: chunk)
        frames[frames.count - 1].dataChunks.append(chunk)

      case PNGChunk.plte, PNGChunk.trns:
        if phase == .beforeImageData { sharedChunks.append(chunk) }

      case PNGChunk.iend:
        sawEnd = true
        break walk

      default:
        break
      }
    }

    if let stillReason {
      self.loopCount = 0
      self.frames = []
      self.sharedChunks = []
      self.stillReason = stillReason
      return
    }
    guard let declaredFrames else {
      throw MagpieError(.corruptData, "the APNG has no acTL chunk before its image data")
    }
    guard phase != .beforeImageData else {
      throw sawEnd
        ? MagpieError(.corruptData, "the PNG has no IDAT chunk")
        : MagpieError(.truncatedData, "the PNG data ends before its image data")
    }
    if let last = frames.last, last.dataChunks.isEmpty {
      throw sawEnd
        ? MagpieError(.corruptData, "APNG frame \(frames.count - 1) has no image data")
        : MagpieError(.truncatedData, "the APNG data ends before frame \(frames.count - 1)'s image data")
    }
    guard frames.count == declaredFrames || sawEnd else {
      throw MagpieError(.truncatedData, "the APNG data ends after \(frames.count) of its \(declaredFrames) frames")
    }
    let isStill = frames.count != declaredFrames
    self.loopCount = isStill ? 0 : loopCount
    self.frames = isStill ? [] : frames
    self.sharedChunks = sharedChunks
    self.stillReason =
      isStill ? "the APNG acTL chunk declares \(declaredFrames) frames but the file holds \(frames.count)" : nil
  }

  /// Why an `acTL` chunk makes the file a still (Chromium's
  /// `PNGImageReader::ParseSize` rules), or nil when it starts the animation.
  private static func actlProblem(_ chunk: PNGChunk, in bytes: UnsafeRawBufferPointer, isFirst: Bool) -> String? {
    guard isFirst else { return "the APNG has a second acTL chunk" }
    guard chunk.length == 8 else { return "the APNG acTL chunk has \(chunk.length) data bytes instead of 8" }
    guard chunk.hasValidCRC(in: bytes) else { return "the APNG acTL chunk fails its CRC check" }
    let data = chunk.data(in: bytes)
    let count = Int(PNGChunk.bigEndian32(data, at: 0))
    guard count > 0, count <= maxPNGInteger else { return "the APNG acTL chunk declares \(count) frames" }
    let plays = Int(PNGChunk.bigEndian32(data, at: 4))
    guard plays <= maxPNGInteger else { return "the APNG acTL chunk declares \(plays) plays" }
    return nil
  }

  /// Whether the cut-off chunk at `offset` carries the animation (IDAT,
  /// fdAT, fcTL, acTL). A cut-off IEND or ancillary chunk, or a tail too
  /// short to name its chunk, loses nothing once every frame is there.
  private static func cutsFrameData(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
    guard bytes.count - offset >= 8 else { return false }
    let type = PNGChunk.bigEndian32(bytes, at: offset + 4)
    return type == PNGChunk.idat || type == PNGChunk.fdat || type == PNGChunk.fctl || type == PNGChunk.actl
  }
}
