import Magpie

/// `magpie info FILE_OR_URL`: what the headers (and frame headers) say.
enum InfoCommand {
  static func run(_ words: [String]) async throws(CLIError) {
    let arguments = try ParsedArguments(words)
    guard arguments.positionals.count == 1 else {
      throw .usage("info", "expected one FILE_OR_URL, got \(arguments.positionals.count)")
    }
    let location = arguments.positionals[0]
    let data = try await InputFile.read(location)
    do {
      let info = try CoderRegistry.shared.info(of: data)
      print(ImageJSON.info(info, subimages: try CoderRegistry.shared.subimages(in: data)).text)
    } catch {
      throw .failure("info \(location)", error)
    }
  }
}
