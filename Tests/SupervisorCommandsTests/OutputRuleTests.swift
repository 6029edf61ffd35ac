import Testing
import VerticalsTesting
import VerticalsSharedTesting

/// Every program that prints a vertical's words prints through one printer (``Terminal``): in
/// each, `print` and `StandardError` are shadowed by declarations that cannot be called
/// (`OutputRule.swift`), so the compiler refuses the plain ways. This test refuses the qualified
/// ways around them, and a shadow that went missing.
@Suite struct OutputRuleTests {
    /// The folders whose sources print to a person: the commands, and both programs.
    static let folders = [
        "Shared/SupervisorCommands", "Services/Supervisor/svc-supervisor-engine", "Services/Supervisor/svc-supervisor",
    ]
    /// The only file that writes to standard output or error.
    static let printer = "Shared/SupervisorCommands/Terminal.swift"
    /// Ways to write that pass the printer by.
    static let bypasses = [
        "Swift.print(", "debugPrint(", "dump(", "StandardError.write(", "fputs(", "fwrite(", "putchar(", "printf(",
        "FileHandle", "write(1,", "write(2,", "write(STDOUT_FILENO", "write(STDERR_FILENO",
        "TerminalText(stringLiteral", "TerminalText(stringInterpolation",
    ]

    @Test func noCommand_printsOtherThanThroughTheTerminalPrinter() {
        let root = ManifestFixture.repositoryRoot
        let files = SourceTree.swiftFiles(in: Self.folders, moreThan: 40)
        var found: [String] = []
        for file in files where !file.hasSuffix("/" + Self.printer) && !file.hasSuffix("/OutputRule.swift") {
            found += Self.bypasses(in: readFile(file) ?? "").map { "\(file.dropFirst(root.count + 1)):\($0)" }
        }
        #expect(
            found.isEmpty,
            "print through Terminal (Terminal.print, .error, .json, .logLine):\n\(found.joined(separator: "\n"))")
    }

    @Test func eachModuleThatPrints_shadowsPrintAndStandardError() {
        let root = ManifestFixture.repositoryRoot
        for folder in ["Shared/SupervisorCommands", "Services/Supervisor/svc-supervisor-engine"] {
            let rule = readFile("\(root)/\(folder)/OutputRule.swift") ?? ""
            #expect(rule.contains("@available(*, unavailable"), "\(folder)/OutputRule.swift")
            #expect(
                rule.contains("func print(_ items: Any..., separator: String = \" \", terminator: String = \"\\n\")"))
            #expect(rule.contains("enum StandardError"))
        }
        // The lean program's own files print nothing: its commands are the shared ones.
        let lean = SourceTree.swiftFiles(under: "\(root)/Services/Supervisor/svc-supervisor")
        #expect(!lean.isEmpty)
        for file in lean {
            #expect(!(readFile(file) ?? "").contains("print("), "\(file)")
        }
    }

    @Test func theScan_findsABypass_butNotOneInAComment() {
        let text = """
            /// Swift.print(x) in a doc comment is prose
            Swift.print(message)
            let n = fputs(text, stderr)
            Terminal.print("fine")
            """
        #expect(Self.bypasses(in: text) == ["2: Swift.print(", "3: fputs("])
    }

    /// Each bypass in `text` outside comments, as "line: bypass".
    static func bypasses(in text: String) -> [String] {
        var found: [String] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            for bypass in bypasses where code.contains(bypass) {
                found.append("\(index + 1): \(bypass)")
            }
        }
        return found
    }
}
