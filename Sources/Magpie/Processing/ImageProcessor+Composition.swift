extension ImageProcessor {
  /// A processor that runs this one, then `next`; its identifier is both
  /// identifiers joined with `|`.
  public func append(_ next: any ImageProcessor) -> ImageProcessors.Chain {
    ImageProcessors.Chain([self, next])
  }
}

/// How `|>` groups: left to right, below arithmetic, above comparisons.
precedencegroup ImageProcessorChainingPrecedence {
  associativity: left
  higherThan: ComparisonPrecedence
  lowerThan: AdditionPrecedence
}

/// Runs processors left to right: `a |> b |> c`.
infix operator |> : ImageProcessorChainingPrecedence

/// `a |> b`: `a`, then `b` (``ImageProcessor/append(_:)``); reads like the
/// `|` of the `--process` spec and of chain identifiers.
public func |> (lhs: any ImageProcessor, rhs: any ImageProcessor) -> ImageProcessors.Chain {
  ImageProcessors.Chain([lhs, rhs])
}
