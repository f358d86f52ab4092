import Foundation

extension CoderRegistry {
  /// The whole file at `path`, read once into memory that frame sources
  /// adopt: a source made from these bytes (``frameSource(for:options:)``)
  /// keeps them without a copy of its own, so an animation played from a
  /// file is held in memory once, however long it plays.
  ///
  /// - Throws: ``MagpieError/Code/fileSystem`` when the file cannot be
  ///   opened or read, or is not a regular file.
  public static func readFile(atPath path: String) throws(MagpieError) -> Data {
    try OwnedBytes.reading(path: path).data
  }
}
