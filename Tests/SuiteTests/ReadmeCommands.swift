/// The `svc-supervisor …` commands of a documentation page's code blocks, as a reader would paste them
/// (docs/operations.md, "Using the suite").
///
/// Only level-2 sections named in ``sections`` count (with their subsections), and only fenced
/// code lines whose first word is `svc-supervisor`. A command runs on over lines ending in `\`
/// and lines inside an open quote (a JSON argument may wrap); `# comments` outside quotes are
/// dropped. Pure text work, so an edit elsewhere in the page cannot break it.
enum ReadmeCommands {
    /// The sections whose commands a live suite must accept.
    static let sections = ["Using the suite"]

    /// Every command of `sections` in `page`, in order.
    static func extract(from page: String, sections: [String] = sections) -> [String] {
        var commands: [String] = []
        var inSection = false
        var inFence = false
        var pending: String?
        for rawLine in page.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(rawLine)
            if !inFence, line.hasPrefix("## ") {
                inSection = sections.contains(String(line.dropFirst(3)).trimmingSpaces)
                continue
            }
            if line.trimmingSpaces.hasPrefix("```") {
                inFence.toggle()
                pending = nil
                continue
            }
            guard inSection, inFence else { continue }
            let text: String
            if let started = pending {
                text = started + " " + line.trimmingSpaces
            } else if line.trimmingSpaces.hasPrefix("svc-supervisor ") || line.trimmingSpaces == "svc-supervisor" {
                text = line.trimmingSpaces
            } else {
                continue
            }
            let scanned = scan(text)
            if scanned.continues {
                pending = scanned.command
            } else {
                pending = nil
                commands.append(scanned.command)
            }
        }
        return commands
    }

    /// `text` without its comment, and whether the command goes on on the next line
    /// (an open quote, or a trailing backslash).
    static func scan(_ text: String) -> (command: String, continues: Bool) {
        var single = false
        var double = false
        var kept = ""
        var previous: Character = " "
        for character in text {
            if character == "#", !single, !double, previous == " " { break }
            if character == "'", !double { single.toggle() }
            if character == "\"", !single, previous != "\\" { double.toggle() }
            kept.append(character)
            previous = character
        }
        var command = kept.trimmingSpaces
        if !single, !double, command.hasSuffix("\\") {
            command.removeLast()
            return (command.trimmingSpaces, true)
        }
        return (command, single || double)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        let characters = Array(self)
        guard let first = characters.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = characters.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(characters[first...last])
    }
}
