import Foundation
import Testing

/// docs/CONTRACTS.md lists the built-in contract's messages that stay hand-written Swift; the list
/// is the folder's, so a message made hand-written, generated or moved fails here until the page
/// says so.
@Suite struct HandWrittenMessagesTests {
    static let folder = "Shared/Contract/Daemon"

    /// A message and the file it is declared in.
    struct Declared: Hashable, Comparable, CustomStringConvertible {
        let message: String
        let file: String

        var description: String { "\(message) in \(file)" }
        static func < (lhs: Self, rhs: Self) -> Bool { (lhs.message, lhs.file) < (rhs.message, rhs.file) }
    }

    /// Every message schema declared in the folder's Swift files: `MessageSchema(` and its name.
    static func handWritten(root: String) throws -> [Declared] {
        let directory = "\(root)/\(folder)"
        let schema = try Regex(#"MessageSchema\(\s*"([A-Za-z0-9_.]+)""#)
        var found: [Declared] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory) where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: "\(directory)/\(file)", encoding: .utf8)
            for match in text.matches(of: schema) {
                found.append(Declared(message: String(match.output[1].substring ?? ""), file: file))
            }
        }
        return found.sorted()
    }

    /// The messages the contract file of the folder declares, qualified (`daemon.Health`).
    static func declaredInContractFile(root: String) throws -> Set<String> {
        let text = try String(contentsOfFile: "\(root)/\(folder)/daemon.vcontract", encoding: .utf8)
        let declaration = try Regex(#"^(?:message|input|output|enum)\s+([A-Za-z0-9_]+)"#).anchorsMatchLineEndings()
        return Set(text.matches(of: declaration).map { "daemon.\($0.output[1].substring ?? "")" })
    }

    /// The rows of CONTRACTS.md's table of hand-written messages: its first two cells.
    static func listed(in page: String) throws -> [Declared] {
        let row = try Regex(#"^\| `([A-Za-z0-9_.]+)` \| `([^`]+)` \|"#)
        var rows: [Declared] = []
        var inTable = false
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("| hand-written message |") {
                inTable = true
                continue
            }
            guard inTable else { continue }
            guard line.hasPrefix("|") else { break }
            if let match = try row.prefixMatch(in: String(line)) {
                rows.append(
                    Declared(
                        message: String(match.output[1].substring ?? ""), file: String(match.output[2].substring ?? ""))
                )
            }
        }
        return rows.sorted()
    }

    @Test func theListOfHandWrittenMessages_isTheFoldersOwn() throws {
        let root = TrackerReferenceTests.repositoryRoot
        let page = try String(contentsOfFile: "\(root)/docs/CONTRACTS.md", encoding: .utf8)
        let listed = try Self.listed(in: page)
        let handWritten = try Self.handWritten(root: root)
        #expect(
            listed == handWritten,
            "docs/CONTRACTS.md lists \(listed); \(Self.folder) declares \(handWritten) by hand")
    }

    @Test func aHandWrittenMessage_isNotAlsoInTheContractFile() throws {
        let root = TrackerReferenceTests.repositoryRoot
        let both = Set(try Self.handWritten(root: root).map(\.message))
            .intersection(try Self.declaredInContractFile(root: root))
        #expect(both.isEmpty, "declared both by hand and in daemon.vcontract: \(both.sorted())")
        #expect(try Self.declaredInContractFile(root: root).isSuperset(of: ["daemon.FieldInfo", "daemon.Description"]))
    }

    @Test func theTableReader_findsEachRow_andStopsAtTheTablesEnd() throws {
        let page = """
            Some text.

            | hand-written message | file | why |
            |---|---|---|
            | `daemon.A` | `A.swift` | a reason |
            | `daemon.B` | `B+C.swift` | another |

            | `daemon.C` | `C.swift` | another table |
            """
        #expect(
            try Self.listed(in: page) == [
                Declared(message: "daemon.A", file: "A.swift"), Declared(message: "daemon.B", file: "B+C.swift"),
            ])
    }
}
