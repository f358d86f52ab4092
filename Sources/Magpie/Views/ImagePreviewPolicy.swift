/// Whether a view shows previews while an image downloads (Nuke's
/// `ImagePipeline.PreviewPolicy`). Previews come without a transition; the
/// final image comes with the target's.
public enum ImagePreviewPolicy: Sendable, Equatable {
  /// Each new scan of a progressive JPEG, decoded small as it arrives (the
  /// default). Baseline JPEGs and other formats have no scans to show, so
  /// for them this is ``disabled``.
  case incremental
  /// No previews: the placeholder until the image is there.
  case disabled
}
