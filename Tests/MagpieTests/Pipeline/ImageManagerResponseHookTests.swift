import COpenSSL
import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Response modifiers and data transformers (issue 35, item 3) at a real
/// origin: an AES-encrypted image, encrypted by the `openssl` tool,
/// decrypted through OpenSSL's EVP interface before it is decoded and
/// cached; a modifier that refuses a response and one that rewrites the
/// validators stored with the image.
@Suite(.serialized, .timeLimit(Sanitizer.timeLimit(minutes: 2))) struct ImageManagerResponseHookTests {
  let directory: TemporaryDirectory
  let root: URL
  /// AES-256-CBC key and IV, as hex for the tool and bytes for EVP.
  private let keyHex = String(repeating: "0123456789abcdef", count: 4)
  private let ivHex = "00112233445566778899aabbccddeeff"

  init() throws {
    directory = try TemporaryDirectory()
    root = try directory.servingSamples(["cutout-01.png"])
    let encrypt = Process()
    encrypt.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    encrypt.arguments = [
      "enc", "-aes-256-cbc", "-K", keyHex, "-iv", ivHex, "-in", root.appendingPathComponent("cutout-01.png").path,
      "-out", root.appendingPathComponent("secret.bin").path,
    ]
    try encrypt.run()
    encrypt.waitUntilExit()
    guard encrypt.terminationStatus == 0 else { throw MagpieError(.invalidArgument, "openssl enc failed") }
  }

  private var plain: Data { get throws { try Data(contentsOf: root.appendingPathComponent("cutout-01.png")) } }

  private func manager(
    disk: DiskCache? = nil, modifiers: [ResponseModifier] = [], transformers: [DataTransformer] = []
  ) -> ImageManager {
    var configuration = ImageManager.Configuration(
      cache: ImageCache(memoryCache: .frozen(), diskCache: disk, trimsOnMemoryPressure: false),
      downloader: ImageDownloader(
        configuration: .init(dataLoader: CurlDataLoader(), retryPolicy: .never, rateLimit: nil)))
    configuration.responseModifiers = modifiers
    configuration.dataTransformers = transformers
    return ImageManager(configuration: configuration)
  }

  private static func bytes(hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      bytes.append(UInt8(hex[index..<next], radix: 16)!)
      index = next
    }
    return bytes
  }

  /// AES-256-CBC decryption through EVP, as an app's decryptor would do it.
  private var decryptor: DataTransformer {
    let key = Self.bytes(hex: keyHex)
    let iv = Self.bytes(hex: ivHex)
    return DataTransformer("aes-256-cbc") { data, _ throws(MagpieError) in
      guard let context = EVP_CIPHER_CTX_new() else { throw MagpieError(.invalidArgument, "no cipher context") }
      defer { EVP_CIPHER_CTX_free(context) }
      var output = [UInt8](repeating: 0, count: data.count + 32)
      var written: Int32 = 0
      var final: Int32 = 0
      let input = [UInt8](data)
      guard EVP_DecryptInit_ex(context, EVP_aes_256_cbc(), nil, key, iv) == 1,
        EVP_DecryptUpdate(context, &output, &written, input, Int32(input.count)) == 1,
        output.withUnsafeMutableBufferPointer({ EVP_DecryptFinal_ex(context, $0.baseAddress! + Int(written), &final) })
          == 1
      else { throw MagpieError(.corruptData, "the body did not decrypt") }
      return Data(output[0..<Int(written + final)])
    }
  }

  @Test func anEncryptedImageDecryptsBeforeItIsDecodedAndCachedInTheClear() async throws {
    let origin = try NginxOrigin(serving: root)
    defer { origin.stop() }
    let disk = try DiskCache(configuration: .init(directory: directory.url.appendingPathComponent("cache")))
    let manager = manager(disk: disk, transformers: [decryptor])
    let result = try await manager.image(for: ImageRequest(url: origin.url("/secret.bin")))
    #expect(result.image.pixels == (try CoderRegistry.shared.decode(plain)).pixels)
    #expect(result.data == (try plain))
    await manager.waitForPendingWrites()
    #expect(try disk.data(forKey: origin.url("/secret.bin").absoluteString) == (try plain))
    // The marker that lets the body through unsniffed never reaches the
    // origin, and without the decryptor the same body is refused.
    await #expect(throws: MagpieError.self) {
      _ = try await self.manager().image(for: ImageRequest(url: origin.url("/secret.bin")))
    }
    #expect(try origin.requestCount("/secret.bin") == 2)
    let faults = try FaultOrigin()
    defer { faults.stop() }
    faults.route("/secret.bin", .ok(try Data(contentsOf: root.appendingPathComponent("secret.bin"))))
    _ = try await self.manager(transformers: [decryptor]).image(for: ImageRequest(url: faults.url("/secret.bin")))
    #expect(faults.requests("/secret.bin").map { $0.headers.keys.contains("x-magpie-opaque-body") } == [false])
  }

  @Test func theModifiersRunFirstThenTheManagersTransformersThenTheRequests() async throws {
    let origin = try NginxOrigin(serving: root)
    defer { origin.stop() }
    let order = Locked<[String]>([])
    func step(_ name: String) -> DataTransformer {
      DataTransformer(name) { data, _ in
        order.withLock { $0.append(name) }
        return data
      }
    }
    var request = ImageRequest(url: origin.url("/cutout-01.png"))
    request.dataTransformers = [step("request")]
    request.responseModifiers = [
      ResponseModifier("log") { response in
        order.withLock { $0.append("modifier:\(response.statusCode)") }
        return response
      }
    ]
    _ = try await manager(transformers: [step("manager")]).image(for: request)
    #expect(order.value == ["modifier:200", "manager", "request"])
  }

  @Test func loadsWithDifferentHooksAreDifferentWork() {
    let configuration = manager().configuration
    let url = URL(string: "https://images.example.com/a.png")!
    let plain = ImageRequest(url: url)
    var hooked = plain
    hooked.dataTransformers = [decryptor]
    var checked = plain
    checked.responseModifiers = [.requireContentType(["image/"])]
    let key = plain.cacheKey(defaultFilter: .absoluteString)
    let keys = [plain, hooked, checked].map { LoadKeys($0, cache: key, configuration: configuration) }
    #expect(Set(keys.map(\.job)).count == 3)
    // The cache key stays: the tiers hold the transformed bytes for all.
    #expect(Set(keys.map(\.cache)).count == 1)
    // Only a transformer changes what is sent (unsniffed), so only it
    // makes another transfer.
    #expect(keys[0].transfer == keys[2].transfer)
    #expect(keys[0].transfer != keys[1].transfer)
  }

  @Test func aModifierRefusesAResponseOrRewritesItsValidators() async throws {
    let origin = try NginxOrigin(serving: root)
    defer { origin.stop() }
    let refusing = manager(modifiers: [.requireContentType(["image/webp"])])
    do {
      _ = try await refusing.image(for: ImageRequest(url: origin.url("/cutout-01.png")))
      Issue.record("a refused response loaded")
    } catch {
      #expect(error.code == .invalidResponse)
      #expect(error.reason.contains("image/png"))
    }
    let rewriting = manager(modifiers: [.setHeader("ETag", "\"rewritten\"")])
    let url = origin.url("/cutout-01.png")
    _ = try await rewriting.image(for: ImageRequest(url: url))
    let stored = await rewriting.validators.validators(for: ImageCacheKey(source: url.absoluteString))
    #expect(stored?.etag == "\"rewritten\"")
  }
}
