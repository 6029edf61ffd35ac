import VerticalsWire
extension Daemon {
    /// Writes a consistent copy of the vertical's store to a file while it keeps serving
    /// (`svc-supervisor backup NAME DIR`). The daemon writes the file itself (owner-only, 0600),
    /// only under `backups/` in its state directory: given a plain file name, or that folder's
    /// absolute path and a name (the CLI then copies it to DIR from the path it derives itself,
    /// not the one answered). Any other path, `..`, a hidden name, or a link on the way is
    /// `invalidInput`; the file must not exist yet (`conflict`); at most `VERTICALS_BACKUP_KEEP`
    /// files (16) are kept there (`resourceExhausted` past that: move them away). Only the
    /// operator may call it (``OperationMark/operatorOnly``).
    public static let backup = Operation<BackupInput, Backup>(
        name, "backup",
        summary: "Write a consistent copy of the vertical's store to a new file, while serving.",
        errors: [.invalidInput, .conflict, .resourceExhausted, .unimplemented, .internal, .permissionDenied],
        marks: [.operatorOnly])
}
