import Glibc
import VerticalsContract
import VerticalsEventLoop
import VerticalsClient
import VerticalsWire

/// `logs NAME -f` through the running supervisor: its ``Supervisor/logs`` stream gives the last
/// lines and then each new one as the supervisor writes it (no file watching, no race with
/// rotation). Without a supervisor answering, `LogsCommand` reads the file and follows it with
/// inotify instead, as it always did: the file outlives the supervisor.
enum LogsFollow {
    /// How following through the supervisor went.
    enum Outcome {
        /// No supervisor answered: nothing was printed; follow the file instead.
        case noSupervisor
        /// The stream ended (the supervisor stopped): follow the file from its end.
        case ended
    }

    /// Prints `name`'s last `lines` lines and then its new lines until the stream ends.
    /// Lines show through ``VisibleText`` unless `raw`.
    static func run(name: String, lines: Int, runDirectory: String, raw: Bool) async throws -> Outcome {
        let loop = try EventLoop(name: "svc-supervisor-logs")
        let client = ServiceClient(loop: loop, sockets: SocketDirectory(runDirectory))
        defer {
            client.close()
            loop.shutdown()
        }
        do {
            _ = try await client.ping(Supervisor.name, timeout: .seconds(2))
        } catch {
            return .noSupervisor
        }
        let input = Supervisor.LogsInput(name: name, lines: min(lines, Supervisor.LogsInput.maxLines))
        do {
            // Room for the whole tail asked for, which arrives at once, besides the usual buffer.
            let buffer = input.lines + ServiceClient.defaultStreamBuffer
            for try await line in client.stream(Supervisor.logs, input, buffer: buffer) {
                Terminal.logLine(Array(line.text.utf8), raw: raw)
                Terminal.flush()
            }
        } catch  where error.code == .notFound || error.code == .invalidInput {
            throw CLIError(refusal: error, of: Supervisor.logs.fullName)
        } catch {
            Terminal.error("note: the supervisor's log stream ended (\(error.code)); following the file")
        }
        return .ended
    }
}
