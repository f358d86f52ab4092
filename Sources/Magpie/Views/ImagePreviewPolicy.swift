/// Whether a view shows previews while an image downloads (Nuke's
/// `ImagePipeline.PreviewPolicy`). Previews come without a transition; the
/// final image comes with the target's.
public enum ImagePreviewPolicy: Sendable, Equatable {
  /// Each new scan of a progressive JPEG, decoded small as it arrives (the
  /// default). Baseline JPEGs and other formats have no scans to show, so
  /// for them this is ``disabled``.
  case incremental
  /// The thumbnail a camera stored in the JPEG's EXIF block, shown once,
  /// as soon as it has arrived (before any pixel of the image itself);
  /// nothing for images without one.
  case thumbnail
  /// No previews: the placeholder until the image is there.
  case disabled
}
