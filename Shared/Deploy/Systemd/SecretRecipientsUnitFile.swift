import VerticalsContract
import VerticalsManifest

/// `verticals-secrets.conf`, beside the units: which vertical receives each kind of secret, as
/// the manifest's `receives` names it (``SecretRecipientsFile``). Installed root-owned, it is what
/// the CLI believes on a systemd host about where a password or a token may go.
enum SecretRecipientsUnitFile {
    // Its path under the export folder: `SystemdLayout/secretsFile`.

    /// The file's text.
    static func text(_ manifest: Manifest) -> String {
        var lines = SystemdExport.generatedHeader.map { "# \($0)" }
        lines += [
            "# Which vertical receives each kind of secret (the manifest's receives): svc-supervisor login,",
            "# admin and password read it here, never from what a vertical describes.", "",
        ]
        lines += SecretRecipientsFile.lines(manifest.secretRecipients)
        return lines.joined(separator: "\n") + "\n"
    }
}
