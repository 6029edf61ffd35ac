import Glibc
import Testing
import VerticalsTesting

/// Every relative link of README.md and docs/*.md leads somewhere: the file or folder exists,
/// and a `#fragment` names a heading of the page it points to (GitHub's anchors: lower case,
/// spaces as `-`, other punctuation dropped). A renamed page or section fails here, not in a reader's browser.
struct DocLinksTests {
    @Test func everyRelativeLink_leadsToAFileAndAHeadingThatExist() {
        var broken: [String] = []
        for page in DocsTests.pages() {
            guard let text = readFile(DocsTests.packageRoot + "/" + page) else {
                broken.append("\(page): cannot be read")
                continue
            }
            let folder = page.split(separator: "/").dropLast().joined(separator: "/")
            for target in Self.links(in: text) where !target.contains("://") && !target.hasPrefix("mailto:") {
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(
                    String.init)
                let path = parts[0].isEmpty ? page : Self.normalized((folder.isEmpty ? "" : folder + "/") + parts[0])
                var info = stat()
                guard stat(DocsTests.packageRoot + "/" + path, &info) == 0 else {
                    broken.append("\(page): \(target): no \(path)")
                    continue
                }
                guard parts.count == 2, path.hasSuffix(".md") else { continue }
                let anchors = Set(
                    Self.headings(in: readFile(DocsTests.packageRoot + "/" + path) ?? "").map(Self.anchor))
                if !anchors.contains(parts[1]) {
                    broken.append("\(page): \(target): \(path) has no heading #\(parts[1])")
                }
            }
        }
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    @Test(arguments: [
        ("## 14. Built-in operations: `daemon.describe`", "14-built-in-operations-daemondescribe"),
        ("## 1b. One host with TLS: a recipe", "1b-one-host-with-tls-a-recipe"),
        ("### Two real hosts", "two-real-hosts"),
    ])
    func anchor_isGitHubsSlugOfTheHeading(heading: String, anchor: String) {
        #expect(Self.anchor(heading) == anchor)
    }

    /// The targets of `[text](target)` links outside fenced blocks and inline code.
    static func links(in text: String) -> [String] {
        var targets: [String] = []
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.drop(while: { $0 == " " }).hasPrefix("```") { fenced.toggle() }
            guard !fenced else { continue }
            let prose = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
            var rest = Substring(prose)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                let target = after[..<close]
                if !target.isEmpty, !target.contains(" ") { targets.append(String(target)) }
                rest = after[close...]
            }
        }
        return targets
    }

    /// The heading lines of a page, outside fenced blocks.
    static func headings(in text: String) -> [String] {
        var fenced = false
        return text.split(separator: "\n").compactMap { line in
            if line.drop(while: { $0 == " " }).hasPrefix("```") { fenced.toggle() }
            return !fenced && line.hasPrefix("#") ? String(line) : nil
        }
    }

    /// GitHub's anchor for a heading line.
    static func anchor(_ heading: String) -> String {
        let title = heading.drop { $0 == "#" }.drop { $0 == " " }
        var slug = ""
        for character in title.lowercased() {
            if character == " " {
                slug.append("-")
            } else if character.isLetter || character.isNumber || character == "-" || character == "_" {
                slug.append(character)
            }
        }
        return slug
    }

    /// `a/b/../c` as `a/c`.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == ".." { _ = parts.popLast() } else if part != "." { parts.append(part) }
        }
        return parts.joined(separator: "/")
    }
}
