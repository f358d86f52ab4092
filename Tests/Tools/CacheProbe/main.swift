// magpie-cache-probe: a second process for the disk-cache tests. It shares a
// cache folder with the test process (or another probe) to show that
// concurrent processes, SIGKILL mid-write, full disks and read-only folders
// never corrupt the cache or lose a load.
//
//   magpie-cache-probe hammer DIR SEED ITERATIONS   write and read PNGs under 16 shared keys
//   magpie-cache-probe write-big DIR KEY BYTES      announce, then store one big self-checking value
//   magpie-cache-probe store-and-load DIR           store an image in memory + disk, then load it
//   magpie-cache-probe soak DIR SEED SECONDS KEYS   random gets, sets, removes and cleans of self-describing values
//   magpie-cache-probe write-loop DIR BYTES         store big entries under fresh keys until killed
//   magpie-cache-probe bench DIR BYTES ROUNDS       time entry store/read against plain file I/O
import Foundation
import Magpie

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("magpie-cache-probe: \(message)\n".utf8))
  exit(2)
}

/// A disk cache over `directory` whose entry limit fits a
/// ``selfChecking(count:)`` value of `bytes` (16 bytes of framing more).
func openCache(_ directory: URL, holding bytes: Int) -> DiskCache {
  do {
    return try DiskCache(configuration: .init(directory: directory, maximumEntrySize: bytes + 16))
  } catch {
    fail("\(error)")
  }
}

/// A noisy RGBA image of the given side: PNG-encoded it takes real space.
func noiseImage(side: Int, seed: UInt64) -> Image {
  var random = XorShift(seed: seed)
  var bytes = [UInt8](repeating: 0, count: side * side * 4)
  for i in bytes.indices {
    bytes[i] = i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: random.next())
  }
  return Image(pixels: PixelBuffer(width: side, height: side, straightRGBA: bytes), format: .png)
}

/// A value that proves its own completeness: 8-byte length, payload, and a
/// trailing 8-byte sum of the payload.
func selfChecking(count: Int) -> Data {
  var data = Data(count: 16 + count)
  var sum: UInt64 = 0
  data.withUnsafeMutableBytes { raw in
    raw.storeBytes(of: UInt64(count).littleEndian, toByteOffset: 0, as: UInt64.self)
    for i in 0..<count {
      let byte = UInt8(truncatingIfNeeded: i &* 31 &+ 7)
      raw[8 + i] = byte
      sum &+= UInt64(byte)
    }
    raw.storeBytes(of: sum.littleEndian, toByteOffset: 8 + count, as: UInt64.self)
  }
  return data
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: magpie-cache-probe MODE DIR ...") }
let directory = URL(fileURLWithPath: arguments[2])

switch arguments[1] {
case "hammer":
  guard arguments.count == 5, let seed = UInt64(arguments[3]), let iterations = Int(arguments[4]) else {
    fail("usage: hammer DIR SEED ITERATIONS")
  }
  let cache: DiskCache
  do { cache = try DiskCache(configuration: .init(directory: directory)) } catch { fail("\(error)") }
  var random = XorShift(seed: seed)
  func next() -> UInt64 { random.next() }
  var reads = 0
  var hits = 0
  var torn = 0
  var writes = 0
  var errors: [String] = []
  for _ in 0..<iterations {
    let key = "shared-key-\(next() % 16)"
    if next() % 2 == 0 {
      let image = noiseImage(side: Int(8 + next() % 120), seed: next())
      do {
        try cache.store(try CoderRegistry.shared.encode(image, as: .png), forKey: key)
        writes += 1
      } catch {
        errors.append("\(error)")
      }
    } else {
      reads += 1
      do {
        guard let data = try cache.data(forKey: key) else { continue }
        hits += 1
        if (try? CoderRegistry.shared.decode(data)) == nil { torn += 1 }
      } catch {
        errors.append("\(error)")
      }
    }
  }
  print("{\"reads\":\(reads),\"hits\":\(hits),\"torn\":\(torn),\"writes\":\(writes),\"errors\":\(errors.count)}")
  if let first = errors.first { FileHandle.standardError.write(Data("first error: \(first)\n".utf8)) }

case "soak":
  guard arguments.count == 6, let seed = UInt64(arguments[3]), let seconds = Double(arguments[4]),
    let keys = Int(arguments[5]), keys > 0
  else {
    fail("usage: soak DIR SEED SECONDS KEYS")
  }
  print(SoakRun(directory: directory, seed: seed, keys: keys).run(seconds: seconds).json)

case "bench":
  guard arguments.count == 5, let bytes = Int(arguments[3]), let rounds = Int(arguments[4]) else {
    fail("usage: bench DIR BYTES ROUNDS")
  }
  print(EntryBench.run(directory: directory, bytes: bytes, rounds: rounds))

case "write-loop":
  guard arguments.count == 4, let bytes = Int(arguments[3]) else { fail("usage: write-loop DIR BYTES") }
  let cache = openCache(directory, holding: bytes)
  let value = selfChecking(count: bytes)
  for index in 0... {
    let key = "loop-\(index)"
    _ = cache.fileURL(forKey: key)
    print("writing \(key)")
    fflush(nil)
    do { try cache.store(value, forKey: key) } catch { fail("\(error)") }
  }

case "write-big":
  guard arguments.count == 5, let bytes = Int(arguments[4]) else { fail("usage: write-big DIR KEY BYTES") }
  let cache = openCache(directory, holding: bytes)
  let value = selfChecking(count: bytes)
  // Hash the key before announcing, so the announcement comes just before
  // the file is opened (OpenSSL's first digest loads its provider).
  _ = cache.fileURL(forKey: arguments[3])
  print("writing", terminator: "\n")
  fflush(nil)
  do { try cache.store(value, forKey: arguments[3]) } catch { fail("\(error)") }
  print("done")

case "store-and-load":
  let cache: ImageCache
  do {
    cache = ImageCache(
      diskCache: try DiskCache(configuration: .init(directory: directory)), trimsOnMemoryPressure: false)
  } catch {
    fail("\(error)")
  }
  let key = ImageCacheKey(source: "https://example.invalid/big.png")
  let image = noiseImage(side: 256, seed: 42)
  let semaphore = DispatchSemaphore(value: 0)
  Task.detached {
    var diskError = "none"
    do {
      try await cache.store(image, forKey: key)
    } catch {
      diskError = "\(error)"
    }
    let loaded = try? await cache.retrieveImage(forKey: key)
    let source = loaded?.cacheType.rawValue ?? "error"
    let same = loaded?.image?.pixels == image.pixels
    let escaped = diskError.replacingOccurrences(of: "\"", with: "'")
    print("{\"loaded_from\":\"\(source)\",\"same_pixels\":\(same),\"disk_error\":\"\(escaped)\"}")
    semaphore.signal()
  }
  semaphore.wait()

default:
  fail("unknown mode \(arguments[1])")
}
