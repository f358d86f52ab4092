import Testing

/// Every data-loader test that opens connections, one at a time.
///
/// Serialized because FoundationNetworking's URLSession on Linux is not safe
/// against heavy socket churn in the same process: under parallel
/// timeouts and cancellations it was seen to wedge its internal queue in a
/// blocking `recv` on a descriptor that another socket had taken over
/// (swift-corelibs-foundation issues #4791 and #5412 describe the same
/// family of bugs). ``URLSessionDataLoader`` survives that (its own timers
/// still end every load), but a wedged session fails the test that uses it.
@Suite("Data loaders", .serialized)
enum DataLoaderTests {}
