import VerticalsWire
extension Daemon {
    /// Writes a consistent copy of the vertical's store to a file while it keeps serving
    /// (`svc-supervisor backup NAME DIR`). The daemon writes the file itself (owner-only, 0600):
    /// at an absolute path in a folder its user can write, or, given a plain file name, under
    /// `backups/` in its state directory (the CLI then copies it to DIR from the path it derives
    /// itself, not the one answered). The file must not exist yet.
    public static let backup = Operation<BackupInput, Backup>(
        name, "backup",
        summary: "Write a consistent copy of the vertical's store to a new file, while serving.",
        errors: [.invalidInput, .conflict, .resourceExhausted, .unimplemented, .internal])
}
