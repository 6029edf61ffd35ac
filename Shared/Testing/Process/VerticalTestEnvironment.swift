/// The environment a test gives a real vertical: its sockets, run and state folders. A product's
/// own settings (a cheaper password hash, shorter retries) are the product's tests' to add.
public enum VerticalTestEnvironment {
    /// The variables for vertical `name`, with sockets in `sockets` and everything else under `runDirectory`.
    public static func variables(for name: String, sockets: String, runDirectory: String) -> [String: String] {
        [
            "VERTICALS_SOCKET_DIR": sockets,
            "VERTICALS_RUN_DIR": runDirectory,
            "STATE_DIRECTORY": "\(runDirectory)/state-\(name)",
        ]
    }
}
