/// One exit status a program declares, with its sysexits(3) name and what it means: programs list
/// theirs once (``DaemonExitStatus/all``, the CLI's own list), and their manual pages are written
/// from the list (``sentence(_:)``), so a page cannot name a status the code does not use.
public struct ExitStatusMeaning: Sendable, Equatable {
    /// The process exit status.
    public let code: Int32
    /// Its sysexits(3) name (`EX_USAGE`), or empty for a status sysexits does not name.
    public let name: String
    /// What it means, as a phrase that follows the number ("bad usage").
    public let meaning: String

    /// The status `code`, named `name` in sysexits(3), meaning `meaning`.
    public init(_ code: Int32, _ name: String, _ meaning: String) {
        self.code = code
        self.name = name
        self.meaning = meaning
    }

    /// The status `code`, which sysexits(3) does not name, meaning `meaning`.
    public init(_ code: Int32, _ meaning: String) {
        self.init(code, "", meaning)
    }

    /// The statuses as one sentence a manual page and `--help` show alike
    /// ("0 success; 64 (EX_USAGE) bad usage."): a paragraph, which a man page's filling keeps readable.
    public static func sentence(_ statuses: [ExitStatusMeaning]) -> String {
        statuses.map { status in
            "\(status.code)" + (status.name.isEmpty ? "" : " (\(status.name))") + " \(status.meaning)"
        }.joined(separator: "; ") + "."
    }
}
