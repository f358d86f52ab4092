import Magpie

extension ProcessSpec {
  /// Parses a `--process` value; a spec the parser does not understand is a
  /// `--process` usage error carrying the parser's reason.
  static func parsing(_ text: String) throws(CLIError) -> ProcessSpec {
    do throws(MagpieError) {
      return try ProcessSpec(text)
    } catch {
      throw .usage("--process", error.reason)
    }
  }
}
