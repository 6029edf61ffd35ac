import ArgumentParser
import EventLoop
import IOInterface
import ServiceKit

/// `--run-dir`, shared by every command that talks to a running supervisor.
struct RunDirectoryOption: ParsableArguments {
    @Option(name: .long, help: "The supervisor's run directory (default: $VERTICALS_RUN_DIR, else .run).")
    var runDir: String?

    /// The run directory as given (relative paths stay relative in messages).
    var path: String {
        runDir ?? ProcessEnvironment.current["VERTICALS_RUN_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? ".run"
    }
}

/// One call to the supervisor's control socket, `<run dir>/supervisor.sock`.
enum ControlClient {
    /// Calls `operation`; a supervisor that does not answer is exit status 69 with a hint.
    static func call<Input, Output>(
        _ operation: Operation<Input, Output>, _ input: Input, runDirectory: String, timeout: Duration = .seconds(60)
    ) async throws -> Output {
        let loop = try EventLoop(name: "svc-supervisor")
        let client = ServiceClient(loop: loop, sockets: SocketDirectory(runDirectory))
        defer {
            client.close()
            loop.shutdown()
        }
        do {
            return try await client.call(operation, input, timeout: timeout)
        } catch {
            let socket = "\(SocketDirectory(runDirectory).path)/supervisor.sock"
            if error.code == .unavailable {
                throw CLIError(status: 69, "no supervisor at \(socket): start it with `make run`")
            }
            throw CLIError(status: 1, "\(operation.fullName) failed: \(error.code): \(error.message)")
        }
    }

    /// Runs `body`, turning a ``CLIError`` into its message on standard error and its exit status.
    static func reporting(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as CLIError {
            StandardError.write("error: \(error)\n")
            throw ExitCode(error.status)
        }
    }
}
