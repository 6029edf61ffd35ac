/// Every setting one program or module reads, declared in one file: what `--check` validates and
/// what the ENVIRONMENT reference lists (``markdown``, ``mdoc``).
///
/// ```swift
/// public static let declaration = SettingsDeclaration(
///     "svc-clinics", summary: "what the clinics daemon reads beside every daemon's settings", [seed])
/// ```
public struct SettingsDeclaration: Sendable {
    /// The program or module whose settings these are.
    public var owner: String
    /// One line on who reads them.
    public var summary: String
    /// The settings, in the reference's order.
    public var entries: [SettingEntry]

    /// Declares `settings` as `owner`'s.
    public init(_ owner: String, summary: String, _ settings: [any AnySetting]) {
        self.owner = owner
        self.summary = summary
        entries = settings.map(\.entry)
    }

    /// Every declared setting `environment` sets to a value it does not allow, in declaration order.
    public func problems(in environment: [String: String]) -> [SettingError] {
        entries.compactMap { $0.problem(in: environment) }
    }

    /// The reference: a `## owner` heading, the summary, and one table row per setting.
    public var markdown: String {
        var lines = [
            "## \(owner)", "", summary, "", "| variable | type | default | allowed | what it does |",
            "|---|---|---|---|---|",
        ]
        for entry in entries {
            let cells = [entry.name, entry.type, entry.defaultText, entry.allowed, entry.doc].map {
                $0.replacingAll("|", with: "\\|")
            }
            lines.append("| `\(cells[0])` | \(cells[1]) | \(cells[2]) | \(cells[3]) | \(cells[4]) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The man page's ENVIRONMENT section (mdoc): one tagged item per setting.
    public var mdoc: String {
        var lines = [".Sh ENVIRONMENT", Self.mdocText(summary), ".Bl -tag -width 6n"]
        for entry in entries {
            lines.append(".It Ev \(entry.name)")
            lines.append(
                Self.mdocText("\(entry.doc) (\(entry.type); default \(entry.defaultText); allowed \(entry.allowed))"))
        }
        lines.append(".El")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` as one mdoc text line: a leading dot or quote would start a macro.
    static func mdocText(_ text: String) -> String {
        let escaped = text.replacingAll("\\", with: "\\e")
        return escaped.first == "." || escaped.first == "'" ? "\\&" + escaped : escaped
    }
}

extension String {
    /// This text with every `target` replaced by `replacement` (no Foundation here).
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
