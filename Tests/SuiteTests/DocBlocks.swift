/// The fenced `sh` blocks of a documentation page, as the docs test runs them.
///
/// - A block right after a line `<!-- not run: REASON -->` is skipped; REASON must be one of
///   ``SkipReason``'s forms, and any other is a ``DocBlockProblem``. The mark stands outside the
///   block, where a reader who copies the block does not copy it: a `# not run` line inside a
///   block is a ``DocBlockProblem`` too.
/// - A block with lines starting `$ ` is a transcript: each such line is a command, continued on
///   the next lines while it ends in `\` or leaves a quote open, and the lines after it, up to
///   the next `$ ` line, are its expected output (``OutputPattern``). A command with no lines
///   after it has its output unchecked.
/// - Any other block is a script: it runs whole (a loop may span lines) under `set -e`, so it
///   passes when no command in it fails; its output is not checked.
///
/// Pure text work: the live run is the test's.
struct DocBlock: Sendable, Equatable {
    /// One command of a block and what it must print.
    struct Command: Sendable, Equatable {
        /// The command as written, lines joined by newlines (continuations kept for the shell).
        var text: String
        /// The line of the page it starts on (1-based).
        var line: Int
        /// The lines it must print, or nil when its output is not checked.
        var expected: [String]?
        /// Whether it is a whole script block, run under `set -e`.
        var isScript = false
    }

    /// The page the block is on, as given.
    var page: String
    /// The line of the opening fence (1-based).
    var line: Int
    /// Why it is not run, or nil when it is.
    var skip: SkipReason?
    /// Its commands, in order (empty for a skipped block).
    var commands: [Command]

    /// Where the block is, for messages: `docs/operations.md:19`.
    var location: String { "\(page):\(line)" }
}

/// Why a documented block is not run: the only four reasons there are.
enum SkipReason: Sendable, Equatable, CustomStringConvertible {
    /// It needs a Kubernetes cluster.
    case needsACluster
    /// It needs systemd as PID 1.
    case needsSystemd
    /// It runs the test suite itself (`make test`).
    case runsTheTestSuite
    /// It takes long, and the make target named covers it.
    case long(makeTarget: String)

    /// The reason a `# not run: ` line gives, or nil when it gives none of the four.
    init?(text: String) {
        switch text {
        case "needs a cluster": self = .needsACluster
        case "needs systemd as PID 1": self = .needsSystemd
        case "runs the test suite itself": self = .runsTheTestSuite
        default:
            let prefix = "long: run by make "
            guard text.hasPrefix(prefix) else { return nil }
            let target = String(text.dropFirst(prefix.count))
            guard !target.isEmpty, target.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                return nil
            }
            self = .long(makeTarget: target)
        }
    }

    var description: String {
        switch self {
        case .needsACluster: "needs a cluster"
        case .needsSystemd: "needs systemd as PID 1"
        case .runsTheTestSuite: "runs the test suite itself"
        case .long(let target): "long: run by make \(target)"
        }
    }
}

/// A block the docs test cannot run as written.
struct DocBlockProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where: `page:line`.
    var location: String
    /// What is wrong.
    var problem: String

    var description: String { "\(location): \(problem)" }
}

extension DocBlock {
    /// What opens the HTML comment, on the line before a block's fence, that marks it skipped.
    static let skipMarker = "<!-- not run: "
    /// What closes it.
    static let skipMarkerEnd = " -->"

    /// Every `sh` block of `text` (the page `page`), in order.
    ///
    /// - Throws: ``DocBlockProblem`` for a `# not run:` line with another reason, or a fence
    ///   left open.
    static func blocks(in text: String, page: String) throws(DocBlockProblem) -> [DocBlock] {
        var blocks: [DocBlock] = []
        var open: (line: Int, lines: [(Int, String)])?
        var inOtherFence = false
        var skip: SkipReason?
        var previous = ""
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw)
            let number = index + 1
            let fence = line.trimmingSpaces.hasPrefix("```")
            defer { previous = line.trimmingSpaces }
            if let started = open {
                if fence {
                    blocks.append(try block(started.lines, page: page, line: started.line, skip: skip))
                    open = nil
                } else {
                    open?.lines.append((number, line))
                }
            } else if inOtherFence {
                if fence { inOtherFence = false }
            } else if fence {
                if line.trimmingSpaces == "```sh" {
                    open = (number, [])
                    skip = try skipReason(previous, location: "\(page):\(number - 1)")
                } else {
                    inOtherFence = true
                }
            }
        }
        if let open { throw DocBlockProblem(location: "\(page):\(open.line)", problem: "the sh block is never closed") }
        return blocks
    }

    /// The reason a line before a block's fence gives, or nil when it is no `<!-- not run: … -->` mark.
    private static func skipReason(_ line: String, location: String) throws(DocBlockProblem) -> SkipReason? {
        guard line.hasPrefix("<!--"), line.contains("not run") else { return nil }
        guard line.hasPrefix(skipMarker), line.hasSuffix(skipMarkerEnd),
            let reason = SkipReason(text: String(line.dropFirst(skipMarker.count).dropLast(skipMarkerEnd.count)))
        else {
            throw DocBlockProblem(
                location: location,
                problem: "\"\(line)\" gives no reason the docs test knows: write `<!-- not run: needs a cluster -->`, "
                    + "`needs systemd as PID 1`, `runs the test suite itself` or `long: run by make TARGET`")
        }
        return reason
    }

    private static func block(
        _ lines: [(Int, String)], page: String, line: Int, skip: SkipReason?
    ) throws(DocBlockProblem) -> DocBlock {
        let location = "\(page):\(line)"
        if let first = lines.first?.1.trimmingSpaces, first.hasPrefix("#"), first.contains("not run") {
            throw DocBlockProblem(
                location: location,
                problem: "\"\(first)\" inside the block is copied with it: mark the block with "
                    + "`<!-- not run: REASON -->` on the line before its fence")
        }
        if let skip { return DocBlock(page: page, line: line, skip: skip, commands: []) }
        guard lines.contains(where: { $0.1.hasPrefix("$ ") }) else {
            let script = lines.map(\.1).joined(separator: "\n")
            return DocBlock(
                page: page, line: line, skip: nil,
                commands: [Command(text: script, line: (lines.first?.0 ?? line), expected: nil, isScript: true)])
        }
        return DocBlock(page: page, line: line, skip: nil, commands: commands(lines, transcript: true))
    }

    /// The commands of a transcript's lines: each `$ ` line with the output after it.
    private static func commands(_ lines: [(Int, String)], transcript: Bool) -> [Command] {
        var commands: [Command] = []
        var pending: (line: Int, text: String)?
        for (number, line) in lines {
            if let started = pending {
                let joined = started.text + "\n" + line
                if ShellText.continues(joined) {
                    pending = (started.line, joined)
                } else {
                    commands.append(Command(text: joined, line: started.line, expected: transcript ? [] : nil))
                    pending = nil
                }
                continue
            }
            let text: String
            if transcript {
                guard line.hasPrefix("$ ") else {
                    // Output of the command before it; text before the first command is not allowed to hide.
                    if !commands.isEmpty { commands[commands.count - 1].expected?.append(line) }
                    continue
                }
                text = String(line.dropFirst(2))
            } else {
                let trimmed = line.trimmingSpaces
                guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
                text = line
            }
            if ShellText.continues(text) {
                pending = (number, text)
            } else {
                commands.append(Command(text: text, line: number, expected: transcript ? [] : nil))
            }
        }
        if let pending {
            commands.append(Command(text: pending.text, line: pending.line, expected: transcript ? [] : nil))
        }
        // A transcript command with no lines after it has its output unchecked; trailing blank lines are not output.
        return commands.map { command in
            var command = command
            if var expected = command.expected {
                while expected.last?.trimmingSpaces.isEmpty == true { expected.removeLast() }
                command.expected = expected.isEmpty ? nil : expected
            }
            return command
        }
    }
}

/// Where a shell command ends: the rules of `sh` for the cases documentation uses.
enum ShellText {
    /// Whether `text` goes on on the next line: it leaves a quote open, or its last line ends
    /// in a backslash. A `#` at the start of a word outside quotes starts a comment to the end of its line.
    static func continues(_ text: String) -> Bool {
        var single = false
        var double = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var previous: Character = " "
            for character in line {
                if !single, !double, character == "#", previous == " " || previous == "\t" { break }
                if character == "'", !double { single.toggle() }
                if character == "\"", !single, previous != "\\" { double.toggle() }
                previous = character
            }
        }
        let lastLine = text.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
        return single || double || lastLine.hasSuffix("\\")
    }
}

/// An expected output line: text, where `…` matches any text within the line, and a run of
/// spaces matches any run of spaces (a table's columns align to what they hold).
enum OutputPattern {
    /// Whether `line` matches `pattern` (trailing spaces ignored on both).
    static func matches(_ line: String, _ pattern: String) -> Bool {
        let parts = pattern.collapsingSpaces.components(separatedBy: "…")
        var rest = Substring(line.collapsingSpaces)
        guard rest.hasPrefix(parts[0]) else { return false }
        rest = rest.dropFirst(parts[0].count)
        if parts.count == 1 { return rest.isEmpty }
        for (index, part) in parts.enumerated().dropFirst() {
            if index == parts.count - 1 { return part.isEmpty || rest.hasSuffix(part) }
            guard let found = rest.range(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    /// The first difference between `output` and `expected`, or nil when they match line by line.
    static func difference(_ output: [String], _ expected: [String]) -> String? {
        for (index, pattern) in expected.enumerated() {
            guard index < output.count else { return "expected line \(index + 1) \"\(pattern)\", but the output ended" }
            guard matches(output[index], pattern) else {
                return "line \(index + 1) is \"\(output[index])\", expected \"\(pattern)\""
            }
        }
        if output.count > expected.count {
            return "unexpected line \(expected.count + 1): \"\(output[expected.count])\""
        }
        return nil
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let characters = Array(self)
        guard let first = characters.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = characters.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(characters[first...last])
    }

    /// Each run of spaces as one space, without trailing spaces.
    var collapsingSpaces: String {
        var text = ""
        for character in self where !(character == " " && text.last == " ") {
            text.append(character)
        }
        while text.last == " " { text.removeLast() }
        return text
    }
}
