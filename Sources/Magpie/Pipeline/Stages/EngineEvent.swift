/// What the engine reports as its shared work changes, to whoever observes
/// it (``ImageManager/Configuration``'s `engineObserver`: tests and
/// diagnostics): how many subscribers a kind of stage has in all, how many
/// items wait in a stage's line. The engine itself never waits on these.
enum EngineEvent: Sendable, Equatable {
  /// The kinds of shared work.
  enum Stage: Sendable, Hashable {
    case download, fetch, decode, process
  }

  /// A subscriber joined a stage; `subscribers`: every stage of its kind's
  /// subscribers, now.
  case subscribed(Stage, subscribers: Int)
  /// An item joined a stage's line for a slot; `waiting`: how many wait
  /// now.
  case queued(Stage, waiting: Int)
  /// The engine made a task for `purpose` (a load's job, a stage's work,
  /// a write behind delivery, a progressive preview).
  case taskMade(TaskPurpose)

  /// What the engine makes tasks for.
  enum TaskPurpose: Sendable, Hashable {
    /// A load's processed result (``LoadJob``).
    case job
    /// A stage's work on a task of its own.
    case stage(Stage)
    /// A cache write after delivery.
    case store
    /// A partial decode of a progressive load.
    case preview
  }
}
