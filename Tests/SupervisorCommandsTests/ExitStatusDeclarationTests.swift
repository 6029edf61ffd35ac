import Glibc
import VerticalsSupervisorCommands
import Testing
import VerticalsContract
import VerticalsTesting
import VerticalsSharedTesting

/// `svc-supervisor`'s exit statuses are declared once (``CLIExitStatus``), and its manual is written
/// from that list: a command that exits with a status the list lacks, or a discussion that promises
/// one, fails here.
struct ExitStatusDeclarationTests {
    /// The folders of the two programs' sources (vt-fuzz-live and the product templates are others').
    static let folders = [
        "Services/Supervisor/svc-supervisor-engine", "Shared/SupervisorCommands", "Services/Supervisor/svc-supervisor",
    ]
    static let files = ["Shared/Supervisor/Control/SupervisorDaemon.swift"]

    /// Every status the sources exit with, as `ExitCode(N)`, `CLIError(.code, status: N`,
    /// `CLIError.system(status: N`, `exit(N)`, or in a discussion's "Exit status:" paragraph, with where.
    static func usedStatuses(in text: String, file: String) throws -> [(code: Int32, place: String)] {
        var used: [(Int32, String)] = []
        var patterns = [
            #"ExitCode\((\d+)\)"#, #"CLIError(?:\.system)?\(\s*(?:\.`?\w+`?,\s*)?status:\s*(\d+)"#, #"\bexit\((\d+)\)"#,
        ]
        // `up`'s status is what the supervisor daemon's run returns.
        if file.hasSuffix("SupervisorDaemon.swift") { patterns.append(#"return (\d+)\n"#) }
        for pattern in patterns {
            for match in text.matches(of: try Regex(pattern)) {
                if let code = match.output[1].substring.flatMap({ Int32($0) }) {
                    used.append((code, "\(file): \(text[match.range].prefix(40))"))
                }
            }
        }
        // A discussion's paragraph: from "Exit status:" to its blank line or the string's end.
        for match in text.matches(of: try Regex(#"Exit status:([^\n]*(\n[ \t]*[^ \t\n"][^\n]*)*)"#)) {
            let paragraph = String(match.output[1].substring ?? "")
            for number in paragraph.matches(of: try Regex(#"(?:^|[^\w.=-])(\d{1,3})(?![\w.])"#)) {
                if let code = number.output[1].substring.flatMap({ Int32($0) }) {
                    used.append((code, "\(file): Exit status: … \(code)"))
                }
            }
        }
        return used
    }

    static func sources() -> [String] {
        var paths = files
        for folder in folders {
            let root = ManifestFixture.repositoryRoot + "/" + folder
            var stack = [root]
            while let directory = stack.popLast() {
                guard let handle = opendir(directory) else { continue }
                while let entry = readdir(handle) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) {
                        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                    }
                    if name.hasPrefix(".") { continue }
                    let path = directory + "/" + name
                    if entry.pointee.d_type == UInt8(DT_DIR) {
                        stack.append(path)
                    } else if name.hasSuffix(".swift") {
                        paths.append(String(path.dropFirst(ManifestFixture.repositoryRoot.count + 1)))
                    }
                }
                closedir(handle)
            }
        }
        return paths.sorted()
    }

    @Test func everyStatusTheCommandsExitWith_isDeclared() throws {
        let declared = Set(CLIExitStatus.all.map(\.code))
        var checked = 0
        var undeclared: [String] = []
        for file in Self.sources() {
            let text = try #require(readFile(ManifestFixture.repositoryRoot + "/" + file), "cannot read \(file)")
            for (code, place) in try Self.usedStatuses(in: text, file: file) {
                checked += 1
                if !declared.contains(code) { undeclared.append("\(code) at \(place)") }
            }
        }
        #expect(checked > 40, "the scan found \(checked) statuses: it no longer reads the sources")
        #expect(
            undeclared.isEmpty, "statuses CLIExitStatus.all lacks (declare them, with their meaning): \(undeclared)")
    }

    @Test func theScan_findsEachWayOfExiting() throws {
        let text = """
            throw ExitCode(66)
            throw CLIError(
                .system, status: 71, "x")
            throw CLIError(.usage, status: 64, "y")
            throw CLIError.system(status: 73, "z")
            exit(9)
            discussion: \"""
                Exit status: 0 on success, 1 when it fails,
                12 for a bad id (of 3.5 kinds, --limit=4).

                Not 99.
                \"""
            """
        let codes = try Self.usedStatuses(in: text, file: "f.swift").map(\.code)
        #expect(codes.sorted() == [0, 1, 9, 12, 64, 66, 71, 73])
    }

    @Test func theDeclarations_haveOneMeaningPerStatus_andTheHelpSaysThem() {
        for list in [CLIExitStatus.all, DaemonExitStatus.all] {
            #expect(Set(list.map(\.code)).count == list.count)
            #expect(list.allSatisfy { !$0.meaning.isEmpty })
        }
        #expect(CLIExitStatus.sentence.contains("64 (EX_USAGE) bad usage"))
        #expect(CLIExitStatus.daemonSentence.contains("78 (EX_CONFIG)"))
    }
}
