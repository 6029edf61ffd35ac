#if canImport(Glibc)
import Glibc
#endif
import Logging
import VerticalsContract
import VerticalsSupervisorClient

// Which vertical receives each kind of secret, written where a CLI that may not ask the
// supervisor (its control socket is root's alone) still finds it: the run folder.
extension SupervisorEngine {
    /// Writes `<run>/verticals-secrets.conf` from the running manifest's `receives` (0644: it
    /// names services, nothing secret), replacing the previous one whole. A failure is logged:
    /// a CLI then refuses to send a secret, and says where it looked.
    func writeSecretRecipients() {
        let path = configuration.runDirectory.secretRecipientsFile
        let lines =
            ["# Which vertical receives each kind of secret (the running manifest's receives)."]
            + SecretRecipientsFile.lines(manifest.secretRecipients)
        do {
            try ReplacedFile.write(Array((lines.joined(separator: "\n") + "\n").utf8), to: path, mode: 0o644)
        } catch {
            logger.error("\(error); the CLI will not send secrets without it")
        }
    }
}
