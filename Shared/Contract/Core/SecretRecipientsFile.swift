/// The text of `verticals-secrets.conf`, which `svc-supervisor export systemd` writes beside the
/// units: which vertical the manifest names to receive each kind of secret (``SecretKind``), one
/// `KIND = SERVICE` line each, after `#` comments. The CLI reads it on a systemd host, where no
/// svc-supervisor answers `status`, and only when root owns it and its folders
/// (`svc-supervisor login` then knows where the password may go without asking any vertical).
///
/// ```
/// # Generated from the suite manifest …
/// sessions = identity
/// password = identity
/// ```
public enum SecretRecipientsFile {
    /// The file's name, beside the units.
    public static let name = "verticals-secrets.conf"

    /// The lines for `recipients`, in ``SecretKind`` order (a kind nobody receives has none).
    public static func lines(_ recipients: [SecretKind: String]) -> [String] {
        SecretKind.allCases.compactMap { kind in recipients[kind].map { "\(kind) = \($0)" } }
    }

    /// The recipients `text` names; nil when a line is neither a comment, blank, nor `KIND = SERVICE`
    /// with a known kind named once (a file the CLI cannot read entirely is not believed at all).
    public static func parse(_ text: String) -> [SecretKind: String]? {
        var recipients: [SecretKind: String] = [:]
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingSpaces()
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces() }
            guard parts.count == 2, let kind = SecretKind(rawValue: parts[0]), !parts[1].isEmpty,
                recipients[kind] == nil
            else { return nil }
            recipients[kind] = parts[1]
        }
        return recipients
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
