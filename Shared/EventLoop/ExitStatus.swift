/// How a child process ended.
public struct ExitStatus: Sendable, Equatable, CustomStringConvertible {
    /// The exit code passed to `exit`, or 0 when a signal ended the process.
    public var exitCode: Int64
    /// The signal that ended the process, or 0 when it exited.
    public var signal: Int32

    /// A status with the given code and signal.
    public init(exitCode: Int64, signal: Int32) {
        self.exitCode = exitCode
        self.signal = signal
    }

    /// True for `exit(0)`.
    public var isSuccess: Bool { exitCode == 0 && signal == 0 }

    /// "exited with code N" or "killed by signal N".
    public var description: String {
        signal != 0 ? "killed by signal \(signal)" : "exited with code \(exitCode)"
    }
}
