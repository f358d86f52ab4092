/// What the decode stage hands on: the decoded image (or the first
/// processor's output, when it decoded the bytes itself) and the fetch it
/// was made from.
struct DecodedImage: Sendable {
  /// The decoded image.
  var image: Image
  /// The bytes it was decoded from.
  var fetched: FetchedData
  /// Time spent decoding.
  var decodeTime: Duration
}
