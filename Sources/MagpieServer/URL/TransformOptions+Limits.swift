extension TransformOptions {
  /// Checks the limits that hold for the options together, after every
  /// option and preset is applied: the size and padding times the device
  /// pixel ratio (each option alone was checked as it was read).
  func checkCombinedLimits() throws(TransformURLError) {
    let limit = TransformURLLimits.maximumDimension
    guard pixelWidth <= limit, pixelHeight <= limit else {
      throw .option("dpr", "\(pixelWidth)×\(pixelHeight) pixels exceeds \(limit) on a side")
    }
    let paddingLimit = TransformURLLimits.maximumPadding
    let widest = [padding.top, padding.right, padding.bottom, padding.left].max() ?? 0
    let scaled = Int((Double(widest) * devicePixelRatio).rounded())
    guard scaled <= paddingLimit else {
      throw .option("dpr", "padding of \(scaled) pixels exceeds \(paddingLimit) on a side")
    }
  }
}
