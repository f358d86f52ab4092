import Magpie

/// The largest frame an AV1 bitstream can code, read from its sequence
/// header OBU (AV1 specification 5.5): `max_frame_width_minus_1 + 1` by
/// `max_frame_height_minus_1 + 1`.
///
/// libavif scales a decoded frame to the size the container's `ispe`
/// property declares when the two differ, so a 1 KB file whose `ispe` says
/// 16384 x 16384 makes libavif upscale a tiny frame into gigabytes of
/// pixels and seconds of work. Reading the bitstream's own bound first lets
/// ``AVIFDecoding`` refuse a container that declares more than its AV1
/// data can hold.
struct AV1SequenceHeader {
  /// The largest frame the bitstream codes.
  var maxFrameSize: PixelSize

  /// The first sequence header among the OBUs of `bytes` (the low-overhead
  /// format AVIF stores: every OBU with its size field), or `nil` when there
  /// is none or it cannot be read.
  init?(scanning bytes: UnsafeRawBufferPointer) {
    var offset = 0
    while offset < bytes.count {
      let header = bytes[offset]
      let type = (header >> 3) & 0xF
      let hasExtension = header & 0x4 != 0
      guard header & 0x2 != 0 else { return nil }  // no size field: not AVIF's format
      var position = offset + 1 + (hasExtension ? 1 : 0)
      var size = 0
      var shift = 0
      while true {
        guard position < bytes.count, shift < 56 else { return nil }
        let byte = bytes[position]
        position += 1
        size |= Int(byte & 0x7F) << shift
        shift += 7
        if byte & 0x80 == 0 { break }
      }
      guard size <= bytes.count - position else { return nil }
      if type == 1 {
        guard let found = Self.maxFrameSize(UnsafeRawBufferPointer(rebasing: bytes[position..<position + size]))
        else { return nil }
        maxFrameSize = found
        return
      }
      offset = position + size
    }
    return nil
  }

  /// `max_frame_width_minus_1 + 1` and the height from a sequence header
  /// OBU's payload, skipping the fields before them.
  private static func maxFrameSize(_ payload: UnsafeRawBufferPointer) -> PixelSize? {
    var bits = BitReader(payload)
    _ = bits.read(3)  // seq_profile
    _ = bits.read(1)  // still_picture
    if bits.read(1) == 1 {  // reduced_still_picture_header
      _ = bits.read(5)  // seq_level_idx[0]
    } else {
      var decoderModelInfo = false
      var bufferDelayLength = 0
      if bits.read(1) == 1 {  // timing_info_present_flag
        _ = bits.read(32)  // num_units_in_display_tick
        _ = bits.read(32)  // time_scale
        if bits.read(1) == 1 { bits.skipUVLC() }  // equal_picture_interval
        decoderModelInfo = bits.read(1) == 1
        if decoderModelInfo {
          bufferDelayLength = bits.read(5) + 1
          _ = bits.read(32)  // num_units_in_decoding_tick
          _ = bits.read(5)  // buffer_removal_time_length_minus_1
          _ = bits.read(5)  // frame_presentation_time_length_minus_1
        }
      }
      let initialDisplayDelay = bits.read(1) == 1
      let operatingPoints = bits.read(5) + 1
      for _ in 0..<operatingPoints {
        _ = bits.read(12)  // operating_point_idc
        if bits.read(5) > 7 { _ = bits.read(1) }  // seq_level_idx, seq_tier
        if decoderModelInfo && bits.read(1) == 1 {
          _ = bits.read(bufferDelayLength)  // decoder_buffer_delay
          _ = bits.read(bufferDelayLength)  // encoder_buffer_delay
          _ = bits.read(1)  // low_delay_mode_flag
        }
        if initialDisplayDelay && bits.read(1) == 1 { _ = bits.read(4) }
      }
    }
    let widthBits = bits.read(4) + 1
    let heightBits = bits.read(4) + 1
    let width = bits.read(widthBits) + 1
    let height = bits.read(heightBits) + 1
    guard !bits.overran else { return nil }
    return PixelSize(width: width, height: height)
  }

  /// Reads big-endian bit fields; past the end it reads zeros and says so.
  private struct BitReader {
    let bytes: UnsafeRawBufferPointer
    var position = 0
    var overran = false

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func read(_ count: Int) -> Int {
      var value = 0
      for _ in 0..<count {
        let byte = position / 8
        guard byte < bytes.count else {
          overran = true
          return value
        }
        value = value << 1 | Int(bytes[byte] >> (7 - UInt8(position % 8)) & 1)
        position += 1
      }
      return value
    }

    /// Skips a `uvlc()` value.
    mutating func skipUVLC() {
      var zeros = 0
      while read(1) == 0 && !overran && zeros < 32 { zeros += 1 }
      _ = read(zeros)
    }
  }
}
