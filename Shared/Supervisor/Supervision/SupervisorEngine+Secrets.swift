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
        let temporary = "\(path).\(getpid())"
        unlink(temporary)  // a new file, never through a link left there
        let lines = ["# Which vertical receives each kind of secret (the running manifest's receives)."]
            + SecretRecipientsFile.lines(manifest.secretRecipients)
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        let written = descriptor < 0 ? -1 : bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        if descriptor >= 0 { Glibc.close(descriptor) }
        guard written == bytes.count, rename(temporary, path) == 0 else {
            logger.error("cannot write \(path): \(SupervisorError.errnoText()); the CLI will not send secrets without it")
            unlink(temporary)
            return
        }
    }
}
