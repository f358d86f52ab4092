import CCurl
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension CurlActiveTransfer {
  /// Points `easy` (fresh or used before) at `request` and this
  /// transfer's callbacks. Returns why it could not.
  func configure(_ easy: UnsafeMutableRawPointer, for request: URLRequest) -> MagpieError? {
    self.request = request
    self.easy = easy
    headDelivered = false
    redirectTarget = nil
    refusedAddress = nil
    redirectResponse = nil
    redirectBodyBytes = 0
    trailerBytes = 0
    errorBuffer[0] = 0
    guard let url = request.url else { return MagpieError(.invalidArgument, "the request has no URL") }
    self.url = url
    parser = ResponseHeadParser(url: url, maximumHeaderSize: transfer.configuration.maximumHeaderSize)
    let configuration = transfer.configuration
    let context = Unmanaged.passUnretained(self).toOpaque()
    var code = CURLE_OK
    func set(_ result: CURLcode) { if code == CURLE_OK { code = result } }
    set(magpie_curl_setopt_string(easy, CURLOPT_URL, url.absoluteString))
    set(magpie_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
    set(magpie_curl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"))
    set(magpie_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0))
    set(magpie_curl_setopt_long(easy, CURLOPT_BUFFERSIZE, Self.bufferSize))
    set(magpie_curl_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1))
    set(magpie_curl_setopt_long(easy, CURLOPT_PIPEWAIT, 1))
    set(magpie_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer))
    set(magpie_curl_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION, curlBodyCallback))
    set(magpie_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, context))
    set(magpie_curl_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION, curlHeaderCallback))
    set(magpie_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, context))
    if configuration.addressFilter != nil {
      set(magpie_curl_setopt_opensocket(easy, curlOpenSocket))
      set(magpie_curl_setopt_pointer(easy, CURLOPT_OPENSOCKETDATA, context))
    }
    let idle = configuration.idleTimeout(for: request)
    set(magpie_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, max(1, idle.wholeMilliseconds)))
    let insecure =
      url.host.map { host in
        configuration.hostsAllowingInvalidCertificates.contains { $0.caseInsensitiveCompare(host) == .orderedSame }
      } ?? false
    set(magpie_curl_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, insecure ? 0 : 1))
    set(magpie_curl_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, insecure ? 0 : 2))
    // A loader's handles all carry its settings, so options it leaves
    // unset are never set on them.
    if configuration.tls != TLSConfiguration() { set(Self.configureTLS(easy, configuration.tls)) }
    set(transfer.cookies?.attach(to: easy) ?? CURLE_OK)
    authenticating = false
    challengeSeen = false
    skippingChallengeBody = false
    challenge = nil
    if let logins = transfer.logins {
      let login = logins.login(for: url)
      authenticating = login != nil
      set(CurlLogins.configure(easy, login: login))
    }
    // Handles are reused without curl_easy_reset (which would also drop
    // the receive buffer), so every option a request may change is set.
    set(magpie_curl_setopt_pointer(easy, CURLOPT_CUSTOMREQUEST, nil))
    set(magpie_curl_setopt_long(easy, CURLOPT_HTTPGET, 1))
    switch request.httpMethod?.uppercased() ?? "GET" {
    case "GET":
      break
    case "HEAD":
      set(magpie_curl_setopt_long(easy, CURLOPT_NOBODY, 1))
    case let method:
      let body = request.httpBody ?? Data()
      if !body.isEmpty || method == "POST" || method == "PUT" {
        set(magpie_curl_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
        body.withUnsafeBytes { bytes in
          // COPYPOSTFIELDS copies, so the Data need not outlive the call.
          let base = bytes.baseAddress ?? UnsafeRawPointer(errorBuffer)
          set(magpie_curl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: base)))
        }
      }
      set(magpie_curl_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method))
    }
    if let headerList { curl_slist_free_all(headerList) }
    headerList = Self.headerList(for: request)
    set(magpie_curl_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList))
    guard code == CURLE_OK else { return CurlErrorMapping.error(code, detail: errorDetail, url: url) }
    return nil
  }

  /// Sets `tls`'s options on `easy`; returns the first failure.
  private static func configureTLS(_ easy: UnsafeMutableRawPointer, _ tls: TLSConfiguration) -> CURLcode {
    var code = CURLE_OK
    func set(_ result: CURLcode) { if code == CURLE_OK { code = result } }
    if let trusted = tls.trustedCertificates {
      var isFolder: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: trusted.path, isDirectory: &isFolder)
      set(magpie_curl_setopt_string(easy, isFolder.boolValue ? CURLOPT_CAPATH : CURLOPT_CAINFO, trusted.path))
    }
    if let certificate = tls.clientCertificate {
      set(magpie_curl_setopt_string(easy, CURLOPT_SSLCERT, certificate.path))
      set(magpie_curl_setopt_string(easy, CURLOPT_SSLCERTTYPE, "PEM"))
    }
    if let key = tls.clientKey { set(magpie_curl_setopt_string(easy, CURLOPT_SSLKEY, key.path)) }
    if let password = tls.clientKeyPassword { set(magpie_curl_setopt_string(easy, CURLOPT_KEYPASSWD, password)) }
    if let pins = tls.curlPins { set(magpie_curl_setopt_string(easy, CURLOPT_PINNEDPUBLICKEY, pins)) }
    switch tls.minimumVersion {
    case .tls12: set(magpie_curl_setopt_long(easy, CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2)))
    case .tls13: set(magpie_curl_setopt_long(easy, CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_3)))
    case nil: break
    }
    return code
  }

  private static func headerList(for request: URLRequest) -> UnsafeMutablePointer<curl_slist>? {
    var list: UnsafeMutablePointer<curl_slist>?
    let fields = request.allHTTPHeaderFields ?? [:]
    for (name, value) in fields where name != ResponseValidator.opaqueBodyField {
      // "Name;" sends an empty header; "Name: " would remove it.
      list = curl_slist_append(list, value.isEmpty ? "\(name);" : "\(name): \(value)")
    }
    let names = Set(fields.keys.map { $0.lowercased() })
    if !names.contains("user-agent") { list = curl_slist_append(list, "User-Agent: Magpie/\(LibraryVersions.magpie)") }
    if !names.contains("expect") { list = curl_slist_append(list, "Expect:") }
    return list
  }
}

/// CURLOPT_WRITEFUNCTION: hands body bytes to the transfer.
private let curlBodyCallback: curl_write_callback = { data, size, count, context in
  guard let data, let context else { return 0 }
  let active = Unmanaged<CurlActiveTransfer>.fromOpaque(context).takeUnretainedValue()
  let length = size * count
  return active.receiveBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

/// CURLOPT_HEADERFUNCTION: hands one header line to the transfer.
private let curlHeaderCallback: curl_write_callback = { data, size, count, context in
  guard let data, let context else { return 0 }
  let active = Unmanaged<CurlActiveTransfer>.fromOpaque(context).takeUnretainedValue()
  let length = size * count
  return active.receiveHeader(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}
