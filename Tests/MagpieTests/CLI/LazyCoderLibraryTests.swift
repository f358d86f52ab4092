import CMagpieCodecs
import Foundation
import Magpie
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The optional coders' libraries are opened on first use, not at start-up:
/// a run that meets no AVIF, HEIC or JPEG XL image never maps them (the
/// dynamic loader's own log, LD_DEBUG=files, says which it opened), one that
/// does opens just the library it needs, and a library that cannot be
/// opened is reported, not crashed on.
@Suite struct LazyCoderLibraryTests {
  /// The libraries `magpie arguments` opened, by file name, as ld.so logs
  /// them (at start-up or through dlopen).
  static func openedLibraries(_ arguments: [String]) async throws -> [String] {
    let result = try await CLIRunner.run(arguments, environment: ["LD_DEBUG": "files"])
    #expect(result.status == 0, "\(result.stderr.suffix(300))")
    return result.stderr.split(separator: "\n").compactMap { line in
      guard let range = line.range(of: "file=") else { return nil }
      return String(line[range.upperBound...].prefix { $0 != " " && $0 != "[" })
    }
  }

  static func opens(_ libraries: [String], _ prefix: String) -> Bool {
    libraries.contains { $0.hasPrefix(prefix) }
  }

  @Test func aPNGRunOpensNoOptionalCoderLibrary() async throws {
    let libraries = try await Self.openedLibraries([
      "info", TestPaths.fixtures.appendingPathComponent("png/exif_after_idat.png").path,
    ])
    // The run did open the core's libraries, so the log is being read.
    #expect(Self.opens(libraries, "libpng16.so"))
    let optional = [
      "libavif.so", "libheif.so", "libjxl.so", "libdav1d.so", "libde265.so", "libhwy.so", "libtiff.so", "librsvg-2.so",
      "libpoppler-glib.so", "libcairo.so", "libavformat.so", "libavcodec.so", "libswscale.so",
    ]
    for name in optional {
      #expect(!Self.opens(libraries, name), "\(name) was opened")
    }
  }

  #if canImport(MagpieAVIF) && canImport(MagpieHEIF) && canImport(MagpieJXL) && canImport(MagpieSVG) && canImport(MagpiePDF)
    @Test(arguments: [
      ("avif/alpha_d10_420.avif", "libavif.so"), ("heif/8bit.heic", "libheif.so"), ("jxl/alpha.jxl", "libjxl.so"),
      ("svg/shapes.svg", "librsvg-2.so"), ("pdf/pages.pdf", "libpoppler-glib.so"),
    ])
    func eachFormatOpensItsOwnLibraryOnly(fixture: String, library: String) async throws {
      let path = TestPaths.fixtures.appendingPathComponent(fixture)
      let libraries = try await Self.openedLibraries(["info", path.path])
      #expect(Self.opens(libraries, library))
      let all = ["libavif.so", "libheif.so", "libjxl.so", "librsvg-2.so", "libpoppler-glib.so"]
      for other in all where other != library {
        #expect(!Self.opens(libraries, other), "\(other) was opened for \(fixture)")
      }
    }
  #endif

  #if canImport(MagpieHEIF)
    /// FFmpeg, which HEIC pictures decode with (`heif_avcodec.c`), is
    /// opened by the first decode, not by reading a file's size: with the
    /// libraries Debian's build links it costs a process about 14 MB.
    @Test func aHEICDecodeOpensFFmpegAndReadingItsSizeDoesNot() async throws {
      let path = TestPaths.fixtures.appendingPathComponent("heif/8bit.heic").path
      let info = try await Self.openedLibraries(["info", path])
      #expect(Self.opens(info, "libheif.so"))
      #expect(!Self.opens(info, "libavcodec.so"))
      let folder = try TemporaryDirectory()
      let decode = try await Self.openedLibraries(["decode", path, "--out", folder.url.path])
      #expect(Self.opens(decode, "libavcodec.so"))
    }
  #endif

  /// A loader over `names`, its lock initialised as PTHREAD_MUTEX_INITIALIZER would.
  static func withLibrary<R>(_ names: [String], _ body: (UnsafeMutablePointer<mp_lazy_library>) -> R) -> R {
    let strings = names.map { strdup($0) }
    defer { strings.forEach { free($0) } }
    let list = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: names.count + 1)
    defer { list.deallocate() }
    for (index, string) in strings.enumerated() { list[index] = UnsafePointer(string) }
    list[names.count] = nil
    let library = UnsafeMutablePointer<mp_lazy_library>.allocate(capacity: 1)
    defer { library.deallocate() }
    memset(library, 0, MemoryLayout<mp_lazy_library>.size)
    library.pointee.names = UnsafePointer(list)
    pthread_mutex_init(&library.pointee.lock, nil)
    defer { pthread_mutex_destroy(&library.pointee.lock) }
    return body(library)
  }

  static func message(_ library: UnsafeMutablePointer<mp_lazy_library>) -> String {
    lazyLibraryMessage { mp_lazy_copy_error(library, $0, $1) }
  }

  @Test func aMissingLibraryOrSymbolIsReportedNotCrashedOn() {
    Self.withLibrary(["libmagpie-missing.so.1"]) { library in
      #expect(mp_lazy_open(library) == 0)
      #expect(mp_lazy_symbol(library, "anything") == nil)
      #expect(Self.message(library).contains("libmagpie-missing.so.1"))
    }
    // The first name that opens wins; a symbol it lacks is named.
    Self.withLibrary(["libmagpie-missing.so.1", "libz.so.1"]) { library in
      #expect(mp_lazy_open(library) == 1)
      #expect(Self.message(library).isEmpty)
      #expect(mp_lazy_symbol(library, "zlibVersion") != nil)
      #expect(mp_lazy_symbol(library, "no_such_function") == nil)
      #expect(Self.message(library).contains("no_such_function"))
    }
  }

  /// The message is read under the lock that guards its writes: a failure
  /// recorded on one thread while another reads the message is no data
  /// race (ThreadSanitizer reported one while readers were handed a
  /// pointer to the message itself), and a reader sees one whole message.
  @Test func theMessageIsCopiedWhileAnotherThreadRecordsAFailure() {
    Self.withLibrary(["libz.so.1"]) { library in
      #expect(mp_lazy_open(library) == 1)
      let address = UInt(bitPattern: library)
      let wholeMessages = Atomic<Int>(0)
      DispatchQueue.concurrentPerform(iterations: 2) { worker in
        let library = UnsafeMutablePointer<mp_lazy_library>(bitPattern: address)!
        for round in 0..<500 {
          if worker == 0 {
            _ = mp_lazy_symbol(library, round.isMultiple(of: 2) ? "magpie_missing_a" : "magpie_missing_bb")
          } else {
            let message = Self.message(library)
            if message.isEmpty || message.hasSuffix("magpie_missing_a") || message.hasSuffix("magpie_missing_bb") {
              wholeMessages.add(1, ordering: .relaxed)
            }
          }
        }
      }
      #expect(wholeMessages.load(ordering: .relaxed) == 500)
    }
  }
}
