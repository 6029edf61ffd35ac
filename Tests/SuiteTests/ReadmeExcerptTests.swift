import Testing
import VerticalsTesting

/// The Swift a reader sees on the front page is the Swift that builds: every block of README.md
/// marked `<!-- excerpt: PATH -->` appears, line for line (indentation aside), in that file of the
/// repository, which the package compiles.
@Suite struct ReadmeExcerptTests {
    /// One marked block: the file it names and its lines.
    struct Excerpt: Sendable, CustomStringConvertible {
        var path: String
        var line: Int
        var lines: [String]
        var description: String { "README.md:\(line) (\(path))" }
    }

    static let marker = "<!-- excerpt: "

    /// Every marked block of `text`: the fenced block right after each marker line.
    static func excerpts(in text: String) -> [Excerpt] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var found: [Excerpt] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix(marker), line.hasSuffix(" -->"), index + 1 < lines.count,
                lines[index + 1].hasPrefix("```")
            {
                let path = String(line.dropFirst(marker.count).dropLast(" -->".count))
                var body: [String] = []
                var cursor = index + 2
                while cursor < lines.count, !lines[cursor].hasPrefix("```") {
                    body.append(lines[cursor])
                    cursor += 1
                }
                found.append(Excerpt(path: path, line: index + 2, lines: body))
                index = cursor
            }
            index += 1
        }
        return found
    }

    /// Whether `needle` occurs in `haystack` as consecutive lines, each compared without its leading spaces.
    static func contains(_ haystack: [String], _ needle: [String]) -> Bool {
        let strip = { (line: String) in String(line.drop { $0 == " " }) }
        let wanted = needle.map(strip)
        let lines = haystack.map(strip)
        guard !wanted.isEmpty, lines.count >= wanted.count else { return false }
        return (0...(lines.count - wanted.count)).contains { start in
            Array(lines[start..<(start + wanted.count)]) == wanted
        }
    }

    @Test func everyExcerpt_isTheCodeOfTheFileItNames() throws {
        let root = DocsTests.packageRoot
        let excerpts = Self.excerpts(in: try #require(readFile(root + "/README.md")))
        #expect(excerpts.count >= 4, "README.md shows a vertical in Swift through marked excerpts")
        #expect(excerpts.contains { $0.path.hasSuffix(".swift") })
        for excerpt in excerpts {
            let source = try #require(readFile(root + "/" + excerpt.path), "\(excerpt): no such file")
            let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(Self.contains(lines, excerpt.lines), "\(excerpt) is not the code of \(excerpt.path): copy it again")
        }
    }

    @Test func aChangedLine_isNotFound() {
        #expect(Self.contains(["a", "    b", "c"], ["b", "c"]))
        #expect(!Self.contains(["a", "    b", "c"], ["b", "d"]))
        #expect(!Self.contains(["a"], []))
    }
}
