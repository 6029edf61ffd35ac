import Foundation
import Testing
import VerticalsTesting

/// Every tracked file is text a reader can use: it cites no issue of the project's own tracker
/// (which no reader has), and says where a figure was measured instead of "here". A public
/// upstream reference (`owner/repo#N`) and a section of docs/PROTOCOL.md are fine.
@Suite("No tracker references", .blocking)
struct TrackerReferenceTests {
    @Test func trackedFiles_citeNoTrackerIssue_andNoPlaceOfMeasurement() throws {
        let root = Self.repositoryRoot
        let directory = TemporaryDirectory()
        let listed = try runCommand("/usr/bin/env", ["git", "-C", root, "ls-files", "-z"], in: directory)
        try #require(listed.status == 0, "git ls-files failed: \(listed.standardError)")
        let paths = listed.standardOutput.split(separator: "\0").map(String.init)
        try #require(paths.contains("Package.swift"), "git ls-files listed no Package.swift in \(root)")
        var findings: [String] = []
        for path in paths {
            guard let data = FileManager.default.contents(atPath: "\(root)/\(path)"),
                let text = String(data: data, encoding: .utf8)
            else { continue } // binary, or deleted in the working tree
            findings += TrackerReference.findings(in: text, path: path)
        }
        #expect(
            findings.isEmpty,
            """
            \(findings.count) line(s) cite the project's tracker or a place of measurement; say the fact \
            itself (or the conditions and the command that measures it):
            \(findings.joined(separator: "\n"))
            """)
    }

    /// Lines the matcher must flag, built in pieces so that this file passes its own test.
    static let bad: [String] = [
        "// restarts cost little (" + "issue" + " 26 §" + "5).",
        "/// " + "Issues" + " 22 and 23: routes.",
        "- Every core (" + "Issue" + " 26): loops.",
        "the cost (see §" + "5 of the plan)",
        "a figure measured" + " here on two cores",
        "20 ms on this" + " machine",
    ]

    /// Lines it must pass.
    static let good: [String] = [
        "(swiftlang/swift-package-manager#9254); the verdict is the same",
        "The codec refuses it (docs/PROTOCOL.md § 6).",
        "the hand-over of PROTOCOL.md §11.",
        "an issue of the tracker, without a number",
        "RFC 4648 section 5: base64url",
    ]

    @Test("the matcher flags a tracker citation or a place of measurement", arguments: bad)
    func matcher_flags(line: String) {
        let found = TrackerReference.findings(in: "first line\n\(line)\n", path: "Some/File.swift")
        #expect(found == ["Some/File.swift:2: \(line)"])
    }

    @Test("the matcher passes upstream references, PROTOCOL.md sections and plain words", arguments: good)
    func matcher_passes(line: String) {
        #expect(TrackerReference.findings(in: line, path: "Some/File.swift") == [])
    }

    @Test func matcher_passesAnySectionSign_insidePROTOCOLmd_only() {
        let line = "See § " + "4.3."
        #expect(TrackerReference.findings(in: line, path: "docs/PROTOCOL.md") == [])
        #expect(TrackerReference.findings(in: line, path: "docs/OTHER.md") == ["docs/OTHER.md:1: \(line)"])
    }

    /// The checkout's root, from this file's place in it (Tests/Contracts/Tests/).
    static let repositoryRoot: String = {
        var parts = #filePath.split(separator: "/")
        parts.removeLast(4)
        return "/" + parts.joined(separator: "/")
    }()
}

/// Finds the lines of a file that cite the project's tracker.
enum TrackerReference {
    /// "issue" or "Issues" and a number: an issue of the tracker.
    static let issue = "[Ii]ssues? [0-9]+"
    /// A section sign and a number: outside docs/PROTOCOL.md, an issue's section unless the line
    /// names PROTOCOL before it.
    static let section = "§ ?[0-9]+"
    /// Where a figure was measured, said as if the reader were there.
    static let places = ["measured" + " here", "on this" + " machine"]

    /// Each offending line of `text` as `path:line: text`.
    static func findings(in text: String, path: String) -> [String] {
        let issue = try! Regex(Self.issue)
        let section = try! Regex(Self.section)
        func offends(_ line: Substring) -> Bool {
            if line.contains(issue) { return true }
            let lowered = line.lowercased()
            if places.contains(where: { lowered.contains($0) }) { return true }
            guard path != "docs/PROTOCOL.md" else { return false }
            return line.matches(of: section).contains { match in
                !line[line.startIndex..<match.range.lowerBound].contains("PROTOCOL")
            }
        }
        var found: [String] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where offends(line) {
            found.append("\(path):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
        }
        return found
    }
}
