import Glibc
import Testing
import VerticalsSupervisorClient

/// What a finished command printed and how it ended.
public struct CommandResult: Sendable {
    /// The exit status (or 128 + signal).
    public let status: Int32
    /// Everything written to standard output.
    public let standardOutput: String
    /// Everything written to standard error.
    public let standardError: String
}

/// Runs `executable` (a path, or a product name) to completion with its output captured in
/// files of `directory`; kills it after `timeout`.
public func runCommand(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], in directory: TemporaryDirectory,
    standardInput: String? = nil, timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation
) throws -> CommandResult {
    requireOwnThread("runCommand", sourceLocation: sourceLocation)
    let path = executable.hasPrefix("/") ? executable : "\(DaemonProcess.productsDirectory)/\(executable)"
    let id = UInt32.random(in: 0...UInt32.max)
    let outPath = directory.file("out-\(id)")
    let errPath = directory.file("err-\(id)")
    let inPath = directory.file("in-\(id)")
    if let standardInput {
        let file = fopen(inPath, "w")
        fputs(standardInput, file)
        fclose(file)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, standardInput == nil ? "/dev/null" : inPath, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let pid = try TestChild.spawn(path, arguments, environment: TestChild.environment(environment), actions: &actions)
    var status: Int32 = 0
    let deadline = ContinuousClock.now + timeout
    while waitpid(pid, &status, WNOHANG) == 0 {
        if ContinuousClock.now > deadline {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            break
        }
        usleep(5_000)
    }
    let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return CommandResult(status: code, standardOutput: readFile(outPath) ?? "", standardError: readFile(errPath) ?? "")
}
