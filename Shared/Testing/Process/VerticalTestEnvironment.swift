import VerticalsContract

/// The environment a test gives a real vertical: its sockets, run and state folders. A product's
/// own settings (a cheaper password hash, shorter retries) are the product's tests' to add.
public enum VerticalTestEnvironment {
    /// The variables for vertical `name`, with sockets in `sockets` and everything else under `runDirectory`.
    public static func variables(for name: String, sockets: String, runDirectory: String) -> [String: String] {
        [
            DaemonSettings.socketDir.name: sockets,
            DaemonSettings.runDir.name: runDirectory,
            "STATE_DIRECTORY": "\(runDirectory)/state-\(name)",
        ]
    }
}
