import Testing
import VerticalsTesting

/// Counts the code keeps, never typed into the docs: how many built-in operations every daemon
/// answers, and how many operations a vertical serves, change with the code. A page states one
/// only in a transcript the docs test runs against a live suite (``DocsTests``, where a stale count
/// fails), or not at all (`serving … operations`, "the `daemon.*` built-ins").
struct DocCountsTests {
    /// Numbers as words, as prose writes a small count.
    static let numberWords: Set<Substring> = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    ]

    /// Each line of `text` (the page `page`) outside a run `sh` block that states a count of built-ins
    /// or of the operations a vertical serves, as `page:line: text`.
    static func findings(in text: String, page: String) -> [String] {
        var findings: [String] = []
        var fence: (isRun: Bool, open: Bool) = (false, false)
        var previous: Substring = ""
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                if fence.open {
                    fence = (false, false)
                } else {
                    let isSh = line.dropFirst(3).split(separator: " ").first == "sh"
                    fence = (isSh && !previous.hasPrefix(DocBlock.skipMarker), true)
                }
            } else if !(fence.open && fence.isRun), statesACount(line) {
                findings.append("\(page):\(index + 1): \(line)")
            }
            if !line.allSatisfy(\.isWhitespace) { previous = line }
        }
        return findings
    }

    /// Whether `line` says how many built-ins there are, or how many operations a vertical serves.
    static func statesACount(_ line: Substring) -> Bool {
        let words = line.lowercased().split { $0 == " " || $0 == "(" || $0 == ")" || $0 == "," }
            .map { $0.drop { $0 == "`" || $0 == "*" } }
        for (index, word) in words.enumerated() {
            let isNumber = word.allSatisfy(\.isNumber) && !word.isEmpty
            guard isNumber || numberWords.contains(word), index + 1 < words.count else { continue }
            let next = words[index + 1]
            if next.hasPrefix("built-in") { return true }
            if isNumber, index > 0, words[index - 1] == "serving", next.hasPrefix("operation") { return true }
        }
        return false
    }

    @Test func noPage_statesACountTheCodeKeeps_outsideARunTranscript() throws {
        var findings: [String] = []
        for page in DocsTests.pages() {
            let text = try #require(readFile(DocsTests.packageRoot + "/" + page), "cannot read \(page)")
            findings += Self.findings(in: text, page: page)
        }
        #expect(
            findings.isEmpty,
            """
            counts that change with the code, typed into a page: write `serving … operations` or \
            "the `daemon.*` built-ins", or show them in a transcript the docs test runs:
            \(findings.map { "  \($0)" }.joined(separator: "\n"))
            """)
    }

    @Test func aCount_isFound_unlessARunTranscriptShowsIt() {
        let page = """
            Plus the six built-ins every daemon answers.
            Plus the `daemon.*` built-ins every daemon answers.

            ```console
            identity  ready  serving 15 operations
            ```

            ```sh
            $ svc-supervisor status
            identity  ready  serving 17 operations
            ```

            <!-- not run: needs a cluster -->
            ```sh
            echo serving 3 operations
            ```

            Each of the 7 built-ins; serving … operations.
            """
        #expect(
            Self.findings(in: page, page: "p.md") == [
                "p.md:1: Plus the six built-ins every daemon answers.",
                "p.md:5: identity  ready  serving 15 operations",
                "p.md:15: echo serving 3 operations",
                "p.md:18: Each of the 7 built-ins; serving … operations.",
            ])
    }
}
