/// One fetch stage per source, transfer and place to look: requests with
/// equal keys share the fetch.
struct FetchKey: Hashable, Sendable {
  /// The source's key.
  let source: String
  /// The download's key, for network sources (a conditional request's
  /// validators make it another transfer).
  let transfer: TransferKey?
  /// Look in the cache tiers for the original first.
  let fromCache: Bool
  /// The tiers it reads and fills.
  let access: TierAccess
  /// Go to the source when no tier has it.
  let fromSource: Bool
  /// The fetch passes the bytes so far on (progressive loads).
  let progressive: Bool
  /// The response hooks run on the source's bytes.
  let hooks: [String]
  /// The downloader that fetches from the network.
  let downloader: ObjectIdentifier
}

/// One decode stage per fetch and decode plan: requests with equal keys
/// share the decode, whatever their later processors.
struct DecodeKey: Hashable, Sendable {
  /// The fetch the bytes come from.
  let fetch: FetchKey
  /// How they are decoded.
  let plan: DecodePlan.Key
}
