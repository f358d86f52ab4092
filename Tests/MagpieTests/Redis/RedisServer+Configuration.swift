#if canImport(MagpieRedis)
  import MagpieRedis

  extension RedisServer {
    /// The tests' configuration for this server: keys under `prefix`, no
    /// log, and a generous command timeout (a loaded test machine can
    /// stall a reply past the 250 ms default).
    func configuration(prefix: String) throws -> RedisConfiguration {
      var configuration = try RedisConfiguration(url: url())
      configuration.keyPrefix = prefix
      configuration.log = nil
      configuration.commandTimeout = .seconds(10)
      return configuration
    }
  }
#endif
