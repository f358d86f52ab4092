import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension CurlActiveTransfer {
  // MARK: Callbacks (libcurl thread)

  /// One header line (libcurl passes whole lines). Returns `false` to
  /// abort the transfer.
  ///
  /// This runs on the thread that serves every transfer, so it does the
  /// least it can: the raw lines are kept as bytes for the consumer's side
  /// to turn into header fields, and only the fields the checks need
  /// become strings here.
  func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard !transfer.isCancelled else { return false }
    deadline.touch(now: loop.roundStarted)
    if headDelivered {
      // Trailer fields of a chunked body: not parsed, but not without limit.
      trailerBytes += bytes.count
      guard trailerBytes > transfer.configuration.maximumHeaderSize else { return true }
      failure = MagpieError(
        .invalidResponse,
        "the trailer fields grew past the \(transfer.configuration.maximumHeaderSize)-byte limit (maximumHeaderSize)")
      return false
    }
    do throws(MagpieError) {
      return try parser.feed(line: bytes) == .ended ? headEnded() : true
    } catch {
      failure = error
      return false
    }
  }

  private func headEnded() -> Bool {
    let statusCode = parser.statusCode
    skippingChallengeBody = false
    if statusCode == 401, transfer.logins != nil {
      let offered = HTTPAuthenticationChallenge(url: url, fields: parser.challenges)
      // libcurl asks without the login first, then answers the scheme
      // the server picks: that first 401 is passed over, head and body.
      if authenticating, !challengeSeen, CurlLogins.canAnswer(offered.schemes) {
        challengeSeen = true
        skippingChallengeBody = true
        parser = ResponseHeadParser(url: url, maximumHeaderSize: transfer.configuration.maximumHeaderSize)
        return true
      }
      challenge = offered
    }
    if RedirectRules.isRedirect(statusCode) && transfer.configuration.maximumRedirects > 0,
      let location = parser.location
    {
      let response = HTTPURLResponse(
        url: url, statusCode: statusCode, httpVersion: parser.httpVersion, headerFields: ["Location": location])
      switch response.flatMap({ RedirectRules.nextRequest(after: $0, to: request) }) {
      case .success(let next)?:
        redirectTarget = next
        redirectResponse = response
        return true
      case .failure(let error)?:
        failure = error
        return false
      case nil:
        break
      }
    }
    do throws(MagpieError) {
      try validator.accept(parser.head)
      deliver(.head(url: url, statusCode: statusCode, httpVersion: parser.httpVersion, lines: parser.lines))
      if transfer.collectsBody {
        lastProgress = loop.roundStarted
        // Reserved once from Content-Length (within the size cap, which
        // the validator already checked), so the body is never regrown.
        if let expected = validator.expected { body.reserve(Int(min(expected, 256 << 20))) }
      }
      headDelivered = true
      return true
    } catch {
      var refused = error
      if let challenge, error.statusCode == 401 { refused.underlying = ChallengeFailure(challenge: challenge) }
      failure = refused
      return false
    }
  }

  /// Body bytes. Returns `false` to abort the transfer.
  func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard !transfer.isCancelled, failure == nil else { return false }
    deadline.touch(now: loop.roundStarted)
    if redirectTarget != nil || skippingChallengeBody {
      // A redirect's own body is dropped, but not without limit.
      redirectBodyBytes += bytes.count
      if redirectBodyBytes > 1 << 20 {
        failure = MagpieError(
          .invalidResponse, "a redirect from \(request.url.redactedDescription(or: "?")) sent over 1 MB")
        return false
      }
      return true
    }
    do throws(MagpieError) {
      if transfer.collectsBody {
        try validator.accept(bytes) { body.append($0) }
        reportProgress()
        return true
      }
      // Small chunks are plain copies; large ones use pooled buffers.
      let chunk = bytes.count >= 16 * 1024 ? CurlLoop.chunkBuffers.data(copying: bytes) : Data(bytes)
      if case .data(let data, let received, let expected)? = try validator.accept(chunk) {
        deliver(.data(data, received: received, expected: expected))
      }
      return true
    } catch {
      failure = error
      return false
    }
  }
}
