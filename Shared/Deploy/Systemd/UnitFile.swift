/// A systemd unit file as data: sections of `Key=value` settings, each optionally preceded by
/// comment lines, rendered in the order given (so a fresh export is byte-for-byte stable).
///
/// ```swift
/// var file = UnitFile(header: ["Generated; do not edit."])
/// file.append(UnitFile.Section(name: "Unit").with("Description", "Verticals identity"))
/// file.text  // "# Generated; do not edit.\n\n[Unit]\nDescription=Verticals identity\n"
/// ```
struct UnitFile {
    /// One `[Name]` section.
    struct Section {
        /// The name between the brackets.
        let name: String
        /// Rendered lines, comments included.
        fileprivate(set) var lines: [String] = []

        /// Adds `key=value`, after `comment` lines when given.
        mutating func set(_ key: String, _ value: String, comment: [String] = []) {
            lines += comment.map { "# \($0)" }
            lines.append("\(key)=\(value)")
        }

        /// This section with `key=value` added, for building one in a chain.
        func with(_ key: String, _ value: String, comment: [String] = []) -> Self {
            var copy = self
            copy.set(key, value, comment: comment)
            return copy
        }
    }

    /// Comment lines at the top of the file.
    var header: [String]
    /// The sections, in order.
    private(set) var sections: [Section] = []

    /// Appends `section` (built with ``Section/with(_:_:comment:)``).
    mutating func append(_ section: Section) {
        sections.append(section)
    }

    /// The file's text: the header, then each section after a blank line.
    var text: String {
        var out = header.map { "# \($0)\n" }.joined()
        for section in sections {
            out += "\n[\(section.name)]\n"
            out += section.lines.map { "\($0)\n" }.joined()
        }
        return out
    }
}
