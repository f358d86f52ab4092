import Foundation
import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Reads the bytes a command works on: a file path, `-` for standard input,
/// or an `http(s)://` URL.
enum InputFile {
  /// The bytes at `location`.
  static func read(_ location: String) async throws(CLIError) -> Data {
    if location.hasPrefix("http://") || location.hasPrefix("https://") {
      return try await download(location)
    }
    if location == "-" {
      return FileHandle.standardInput.readDataToEndOfFile()
    }
    do {
      return try Data(contentsOf: URL(fileURLWithPath: location), options: .mappedIfSafe)
    } catch {
      throw .failure("read \(location)", Self.describe(error))
    }
  }

  /// The bytes of a local file.
  static func readFile(_ path: String) throws(CLIError) -> Data {
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw .failure("read \(path)", Self.describe(error))
    }
  }

  /// Writes `data` to `path` through a temporary file and a rename, so a
  /// failed write never leaves a half file under the real name.
  static func write(_ data: Data, to path: String) throws(CLIError) {
    do {
      try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw .failure("write \(path)", Self.describe(error))
    }
  }

  private static func download(_ location: String) async throws(CLIError) -> Data {
    guard let url = URL(string: location) else { throw .usage(location, "not a valid URL") }
    var request = URLRequest(url: url)
    request.timeoutInterval = 15
    do {
      let (data, response) = try await URLSession.shared.data(for: request)
      if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
        throw CLIError.failure("fetch \(location)", "HTTP status \(http.statusCode)")
      }
      return data
    } catch let error as CLIError {
      throw error
    } catch {
      throw .failure("fetch \(location)", error.localizedDescription)
    }
  }

  /// A file error in plain words ("No such file or directory"), not
  /// Foundation's full debug description.
  static func describe(_ error: any Error) -> String {
    let ns = error as NSError
    if let posix = (ns.userInfo[NSUnderlyingErrorKey] as? NSError), posix.domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32(posix.code)))
    }
    if ns.domain == NSCocoaErrorDomain {
      switch ns.code {
      case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return "no such file"
      case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "permission denied"
      case NSFileWriteOutOfSpaceError: return "no space left on device"
      default: break
      }
    }
    return ns.localizedDescription
  }
}
