import Glibc
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// The five real daemons of the reference suite, each a separate process, in one run
/// directory; a small launcher until svc-supervisor runs the tests' suites.
final class SuiteLauncher {
    static let order = ["identity", "clinics", "notifications", "records", "appointments"]

    let directory = TemporaryDirectory()
    let loop: EventLoop
    let client: ServiceClient
    private(set) var daemons: [String: DaemonProcess] = [:]

    var sockets: SocketDirectory { SocketDirectory(directory.file("sockets")) }

    init() throws {
        loop = try EventLoop(name: "suite-test-client")
        client = ServiceClient(
            loop: loop, sockets: SocketDirectory(directory.file("sockets")), defaultTimeout: .seconds(10))
    }

    /// Starts every vertical in dependency order.
    func startAll() throws {
        for name in Self.order { try start(name) }
    }

    /// Starts vertical `name`, with `extra` in its environment, and waits until it accepts connections.
    /// With `standardError`, the daemon's standard error (its log) goes to that file.
    func start(_ name: String, extra: [String: String] = [:], standardError: String? = nil) throws {
        var environment = VerticalTestEnvironment.variables(
            for: name, sockets: sockets.path, runDirectory: directory.path)
        environment["APPOINTMENTS_RETRY_MAX_MS"] = "200"
        environment.merge(ReferenceSuiteSettings.fastPasswordHashing) { $1 }
        environment.merge(extra) { $1 }
        let daemon: DaemonProcess
        if let standardError {
            // sh execs the daemon in its own place: same pid, its fd 2 on the file.
            let program = "\(DaemonProcess.productsDirectory)/svc-\(name)"
            daemon = try DaemonProcess(
                "/bin/sh", ["-c", #"exec "$0" 2>>"$1""#, program, standardError], environment: environment)
        } else {
            daemon = try DaemonProcess("svc-\(name)", environment: environment)
        }
        daemons[name] = daemon
        let path = sockets.socketPath(for: name)
        let listening = eventually(timeout: .seconds(20)) { (try? RawClient(path: path)) != nil }
        #expect(listening, "\(name) never listened at \(path)")
    }

    /// The first start at 10, 11 or 14 h UTC, `after` days or more from now and later than
    /// `later`, that clinics says is bookable for a GP. (Days are not enough to keep two slots
    /// apart: over a weekend the first open day after one and after two days is the same Monday.)
    func openSlot(clinic: String, after days: Int, laterThan later: Timestamp? = nil) async -> Timestamp? {
        let today = Timestamp.now.microsecondsSinceEpoch / 86_400_000_000 * 86_400
        for day in days..<(days + 14) {
            for hour in [10, 11, 14] {
                let start = Timestamp(secondsSinceEpoch: today + Int64(day) * 86_400 + Int64(hour) * 3_600)
                if let later, start <= later { continue }
                let check = try? await client.call(
                    Clinics.checkSlot,
                    .init(clinicID: clinic, service: .gp, startsAt: start, endsAt: start.adding(.seconds(1_200))))
                if check?.isOpen == true && check?.offersService == true { return start }
            }
        }
        return nil
    }

    /// Stops vertical `name` with SIGTERM and waits for it to exit.
    func stop(_ name: String) {
        daemons[name]?.stop()
        daemons[name] = nil
    }

    deinit {
        for name in Self.order.reversed() { daemons[name]?.stop() }
        client.close()
        loop.shutdown()
    }

    /// `svc-supervisor COMMAND --socket-dir SOCKETS ARGUMENTS…`: a command against this suite's
    /// daemons, run in its folder.
    func supervisor(
        _ command: String, _ arguments: [String], environment: [String: String] = [:], standardInput: String? = nil
    ) throws -> CommandResult {
        try runCommand(
            "svc-supervisor", [command, "--socket-dir", sockets.path] + arguments, environment: environment,
            in: directory,
            standardInput: standardInput)
    }
}
