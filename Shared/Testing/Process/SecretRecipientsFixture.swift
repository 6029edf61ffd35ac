import Glibc
import VerticalsContract
import VerticalsSupervisorClient

/// A `verticals-secrets.conf` for a test suite that no supervisor runs: the CLI sends a password
/// or a token only to the vertical such a file (or a supervisor's `status`) names, so a test that
/// runs `login` against a bare daemon names it this way.
///
/// ```swift
/// let environment = SecretRecipientsFixture.environment(in: directory, "sessions = identity")
/// ```
public enum SecretRecipientsFixture {
    /// Every kind of secret, given to `service`: `KIND = SERVICE` lines.
    public static func all(to service: String) -> String {
        SecretKind.allCases.map { "\($0) = \(service)" }.joined(separator: "\n")
    }

    /// Writes `lines` to `<directory>/verticals-secrets.conf` (0644, this user's) and returns the
    /// environment that points the CLI at it (`VERTICALS_SECRETS_FILE`).
    public static func environment(in directory: TemporaryDirectory, _ lines: String) -> [String: String] {
        let path = directory.file("verticals-secrets.conf")
        write(lines, to: path)
        return [SupervisorSettings.secretsFile.name: path]
    }

    /// Writes `lines` to `path`, mode 0644.
    public static func write(_ lines: String, to path: String) {
        let file = fopen(path, "w")
        fputs(lines + "\n", file)
        fclose(file)
        chmod(path, 0o644)
    }
}
