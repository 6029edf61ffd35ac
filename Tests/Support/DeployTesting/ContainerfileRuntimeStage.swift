import Foundation

/// The runtime stage of the Containerfile `export kubernetes` writes (the text after its last
/// `FROM`), read as a build reads it: the tests take the image's base, packages, user and
/// programs from here, so the Containerfile stays their single source.
public struct ContainerfileRuntimeStage {
    /// The stage's base image, e.g. `docker.io/library/debian:bookworm-slim`: its `FROM`, with a
    /// build argument (`FROM ${RUNTIME_IMAGE}`) replaced by its default, as a build without
    /// `--build-arg` reads it.
    public let base: String
    /// The build arguments declared before the first `FROM`, with their defaults.
    public let arguments: [String: String]
    /// The stage's `RUN` instruction for `/bin/sh -c`, its continuation lines joined.
    public let run: String
    /// The packages its `apt-get install` names.
    public let packages: Set<String>
    /// Its `COPY --from=build SOURCE DESTINATION` lines, in order.
    public let copies: [(source: String, destination: String)]
    /// Its `USER`, e.g. `10001:10001`.
    public let user: String?

    /// Reads the runtime stage of `containerfile`.
    public init(_ containerfile: String) {
        var arguments: [String: String] = [:]
        for line in containerfile.split(separator: "\n") {
            if line.hasPrefix("FROM ") { break }
            guard line.hasPrefix("ARG "), let equals = line.firstIndex(of: "=") else { continue }
            arguments[String(line[line.index(line.startIndex, offsetBy: 4)..<equals])] = String(
                line[line.index(after: equals)...])
        }
        self.arguments = arguments
        let stage = containerfile.components(separatedBy: "\nFROM ").last ?? ""
        // Instructions, each with its continuation lines joined as a build joins them.
        let joined = stage.replacingOccurrences(of: "\\\n", with: "")
        let lines = joined.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
        let from = lines.first.map { String($0.split(separator: " ").first ?? "") } ?? ""
        if from.hasPrefix("${"), from.hasSuffix("}") {
            base = arguments[String(from.dropFirst(2).dropLast())] ?? from
        } else {
            base = from
        }
        run = lines.first { $0.hasPrefix("RUN ") }.map { String($0.dropFirst(4)) } ?? ""
        var packages = Set<String>()
        for command in run.components(separatedBy: "&&") {
            let words = command.split(separator: " ").map(String.init)
            guard let install = words.firstIndex(of: "install"), words[..<install].contains("apt-get") else { continue }
            packages.formUnion(words[(install + 1)...].filter { !$0.hasPrefix("-") })
        }
        self.packages = packages
        copies = lines.compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 4, words[0] == "COPY", words[1] == "--from=build" else { return nil }
            return (String(words[2]), String(words[3]))
        }
        user = lines.last { $0.hasPrefix("USER ") }.map { String($0.dropFirst(5)) }
    }

    /// The Debian suite of a `debian:SUITE` or `debian:SUITE-slim` base, e.g. `bookworm`.
    public var debianSuite: String? {
        guard let colon = base.lastIndex(of: ":"), base[..<colon].hasSuffix("debian") else { return nil }
        let tag = base[base.index(after: colon)...]
        return String(tag.hasSuffix("-slim") ? tag.dropLast(5) : tag)
    }
}
