/// The environment a test gives a real vertical: its sockets, run and state folders, and Argon2id at its cheapest (its real limits cost ~100 ms and
/// 64 MiB a hash; tests keep its shape, not its price).
public enum VerticalTestEnvironment {
    /// The variables for vertical `name`, with sockets in `sockets` and everything else under `runDirectory`.
    public static func variables(for name: String, sockets: String, runDirectory: String) -> [String: String] {
        [
            "VERTICALS_SOCKET_DIR": sockets,
            "VERTICALS_RUN_DIR": runDirectory,
            "STATE_DIRECTORY": "\(runDirectory)/state-\(name)",
            "IDENTITY_PWHASH_OPSLIMIT": "1",
            "IDENTITY_PWHASH_MEMLIMIT": "8192",
        ]
    }
}
