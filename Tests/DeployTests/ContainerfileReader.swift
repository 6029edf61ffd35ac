import Testing
import VerticalsTesting

/// Reads a Containerfile back by its grammar: an instruction starts a line, a line ending in
/// `\` continues onto the next, blank lines and lines starting with `#` are not instructions.
enum ContainerfileReader {
    /// Each instruction, its continuation lines joined.
    static func logicalLines(_ text: String) -> [String] {
        var lines: [String] = []
        var pending: String? = nil
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let current = (pending.map { $0 + " " } ?? "") + line
            if current.hasSuffix("\\") {
                pending = String(current.dropLast())
            } else {
                lines.append(current)
                pending = nil
            }
        }
        if let pending { lines.append(pending) }
        return lines
    }

    /// Each instruction's keyword, in order (`ARG`, `FROM`, `RUN`, …).
    static func instructions(_ text: String) -> [String] {
        logicalLines(text).map { String($0.split(separator: " ").first ?? "").uppercased() }
    }

    /// The programs the build stage's `for program in …` loop builds, as `sh` expands its words,
    /// and those the `COPY --from=build /out/NAME …` instructions copy.
    static func programs(_ text: String, in directory: TemporaryDirectory) throws -> (built: [String], copied: [String])
    {
        var built: [String] = []
        for line in logicalLines(text) {
            guard let start = line.range(of: "for program in "),
                let end = line.range(of: "; do", range: start.upperBound..<line.endIndex)
            else { continue }
            let words = line[start.upperBound..<end.lowerBound]
            let result = try runCommand(
                "/bin/sh", ["-c", "for program in \(words); do printf '%s\\n' \"$program\"; done"], in: directory)
            built += result.standardOutput.split(separator: "\n").map(String.init)
        }
        let copied = logicalLines(text).compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard words.count == 4, words[0] == "COPY", words[1] == "--from=build", words[2].hasPrefix("/out/") else {
                return nil
            }
            return String(words[2].dropFirst("/out/".count))
        }
        return (built, copied)
    }
}
