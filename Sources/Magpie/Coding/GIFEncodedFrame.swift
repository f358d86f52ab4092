/// One GIF frame region, quantized and ready for giflib.
struct GIFEncodedFrame {
  var x: Int
  var y: Int
  var width: Int
  var height: Int
  var palette: [SIMD3<Int32>]
  var transparentIndex: Int?
  var indices: [UInt8]
  var delayCentiseconds: Int
}
