// magpie-fuzz: runs one MagpieFuzzHarnesses harness under libFuzzer. Built
// only by Scripts/fuzz.sh (MAGPIE_FUZZ=1, AddressSanitizer, coverage, and
// libFuzzer's no-main runtime linked in); `-sanitize=fuzzer` cannot link
// under SwiftPM, so this calls libFuzzer's driver itself.
//
//   magpie-fuzz list                    name and max length of every harness
//   magpie-fuzz seed NAME FIXTURES DIR  write NAME's seeds into DIR
//   magpie-fuzz NAME [libFuzzer flags]  fuzz NAME
import Foundation
import MagpieFuzzHarnesses

@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The harness libFuzzer's callback runs; set once before the driver starts.
nonisolated(unsafe) var selected: FuzzHarness?

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("magpie-fuzz: \(message)\n".utf8))
  exit(2)
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: magpie-fuzz list | seed NAME FIXTURES DIR | NAME [flags]") }
switch arguments[1] {
case "list":
  for harness in FuzzHarnesses.all { print("\(harness.name)\t\(harness.maxLength)") }
case "seed":
  guard arguments.count == 5, let harness = FuzzHarnesses.named(arguments[2]) else {
    fail("usage: magpie-fuzz seed NAME FIXTURES DIR")
  }
  let folder = URL(fileURLWithPath: arguments[4])
  for seed in harness.seeds(fixtures: URL(fileURLWithPath: arguments[3])) {
    do { try seed.data.write(to: folder.appendingPathComponent("seed-" + seed.name)) } catch { fail("\(error)") }
  }
default:
  guard let harness = FuzzHarnesses.named(arguments[1]) else { fail("no harness '\(arguments[1])'") }
  selected = harness
  // libFuzzer sees the program name and the flags, not the harness name.
  let driverArguments = [arguments[0]] + arguments.dropFirst(2)
  var argc = CInt(driverArguments.count)
  var cArguments: [UnsafeMutablePointer<CChar>?] = driverArguments.map { strdup($0) } + [nil]
  let status = cArguments.withUnsafeMutableBufferPointer { buffer in
    var argv = buffer.baseAddress!
    return runDriver(&argc, &argv) { bytes, count in
      selected?.run(bytes.map { Data(bytes: $0, count: count) } ?? Data())
      return 0
    }
  }
  exit(status)
}
