import VerticalsEventLoop

/// The process's environment variables, read without Foundation.
public enum ProcessEnvironment {
    /// A snapshot of `environ` (`ChildProcess/currentEnvironment`).
    public static var current: [String: String] { ChildProcess.currentEnvironment }
}
