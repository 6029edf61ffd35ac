import Glibc
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// The edges `can-i-deploy` judges for a new build of one vertical, gathered the same way by
/// the command and by the engine's `upgrade`: each caller's running build (or its program on
/// disk) described as untrusted code, each callee asked `daemon.describe`, and every pair judged
/// by `DeployCheck` (VerticalsServiceKit).
public enum DeployEdges {
    /// One caller of the vertical, as the suite runs it.
    public struct Caller: Sendable {
        /// Its name.
        public var name: String
        /// Its running process, if it runs: its build is read from `/proc/PID/exe`, the build
        /// that runs even when its file was replaced since.
        public var pid: Int32?
        /// Its program on disk, for a caller that does not run.
        public var program: String
        /// Who its build is described as (nil: the asker itself, not root).
        public var account: Result<BuildDescriber.Account?, BuildDescribeError>

        /// Creates the caller.
        public init(
            name: String, pid: Int32?, program: String, account: Result<BuildDescriber.Account?, BuildDescribeError>
        ) {
            self.name = name
            self.pid = pid
            self.program = program
            self.account = account
        }
    }

    /// The edge from `caller` to `name`, whose new build is `newBuild`; nil when the caller's build
    /// calls nothing of it. Runs the caller's build (`--describe`), so off any event loop.
    public static func edge(
        from caller: Caller, to name: String, newBuild: BuildDescription, describer: BuildDescriber
    ) -> DeployEdge? {
        let build: BuildDescription
        do {
            build = try describer.describe(caller.pid.map(runningBuild) ?? caller.program, as: try caller.account.get())
        } catch {
            let which = caller.pid.map { "its running build (pid \($0))" } ?? "its program"
            return DeployEdge(
                caller: caller.name, callee: name, outcome: .unknown("\(which) cannot describe itself: \(error)"))
        }
        guard build.callsDeclared else {
            return DeployEdge(
                caller: caller.name, callee: name,
                outcome: .unknown("its build does not say what it calls (DaemonMain.run without calls:)"))
        }
        if let against = build.builtAgainst(name) {
            return DeployCheck.judge(caller: caller.name, builtAgainst: against, serves: newBuild.serves)
        }
        if build.calls(name) {
            return DeployEdge(
                caller: caller.name, callee: name,
                outcome: .unknown("it declares its calls to \(name) by name alone: no schema to compare"))
        }
        return nil // depends_on names it, but its build calls nothing of it.
    }

    /// The file process `pid` runs, as a path the describing user can execute: the path it was
    /// started from while that path still holds the same file (device and inode), else
    /// `/proc/PID/exe`, which holds the build even when its file was replaced since. Another user
    /// may not follow `/proc/PID/exe` (it takes the right to trace the process): a service that
    /// runs as root, with service users off, is described as its manifest's user, who may not.
    static func runningBuild(_ pid: Int32) -> String {
        let link = "/proc/\(pid)/exe"
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(link, &buffer, buffer.count - 1)
        guard count > 0 else { return link }
        let path = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var running = stat()
        var named = stat()
        guard path.hasPrefix("/"), stat(link, &running) == 0, stat(path, &named) == 0,
            running.st_dev == named.st_dev, running.st_ino == named.st_ino
        else { return link }
        return path
    }

    /// What each vertical `newBuild` (of `name`) calls serves, asked with `daemon.describe` as
    /// `client` reaches it; ``calleeEdges(of:newBuild:served:)`` judges them.
    public static func servedByCallees(
        of newBuild: BuildDescription, client: ServiceClient, timeout: Duration
    ) async -> [String: Result<Daemon.Description, DescribeFailure>] {
        var served: [String: Result<Daemon.Description, DescribeFailure>] = [:]
        for against in newBuild.callsDeclared ? newBuild.callees : [] {
            do {
                let reply = try await client.callRaw(
                    service: against.name, operation: Daemon.describe.fullName, body: Empty().encodedBody(),
                    timeout: timeout)
                served[against.name] = .success(try Daemon.Description(decoding: reply))
            } catch let error as ServiceError {
                served[against.name] = .failure(
                    DescribeFailure(
                        .unreachable, callee: against.name,
                        "\(against.name) cannot be reached: \(error.code): \(error.message)", cause: error))
            } catch {
                served[against.name] = .failure(
                    DescribeFailure(
                        .notADescription, callee: against.name,
                        "\(against.name) answered daemon.describe with what is not a description: \(error)",
                        cause: error))
            }
        }
        return served
    }

    /// Why a callee's description could not be had.
    ///
    /// Its ``code`` is `unreachable` or `notADescription`, the callee is
    /// also the detail `callee`, and the error met asking is its ``cause``.
    public struct DescribeFailure: StoredCodedError {
        /// What kind of failure it is.
        public typealias Code = ErrorKind<DescribeFailure>

        /// What kind of failure it is, the message (which callee, and what it answered), the
        /// detail `callee`, and what the call or the decoding threw.
        public let storage: CodedErrorStorage<DescribeFailure>

        /// The failure `storage` describes.
        public init(storage: CodedErrorStorage<DescribeFailure>) { self.storage = storage }

        /// A failure of `code` asking `callee`, saying `message`.
        public init(_ code: Code, callee: String, _ message: String, cause: (any Error)? = nil) {
            self.init(code, message, details: [ErrorDetail("callee", callee)], cause: cause)
        }

        /// The vertical asked: the detail `callee` (empty for a failure made without it).
        public var callee: String { detail("callee") ?? "" }

        /// The ``message``.
        @available(*, deprecated, renamed: "message")
        public var reason: String { message }
    }

    /// Each vertical `newBuild` (of `name`) calls, judged against what it `served`
    /// (`servedByCallees(of:client:timeout:)`). Pure, but as long as the descriptions: off any
    /// event loop when they came from peers.
    public static func calleeEdges(
        of name: String, newBuild: BuildDescription, served: [String: Result<Daemon.Description, DescribeFailure>]
    ) -> [DeployEdge] {
        guard newBuild.callsDeclared else {
            return [
                DeployEdge(
                    caller: name, callee: "*",
                    outcome: .unknown("the new build does not say what it calls (DaemonMain.run without calls:)"))
            ]
        }
        var edges = newBuild.undescribed.map {
            DeployEdge(
                caller: name, callee: Callees.service(of: $0),
                outcome: .unknown("\($0) is declared by name alone: no schema to compare"))
        }
        for against in newBuild.callees {
            switch served[against.name] {
            case .success(let description)?:
                edges.append(DeployCheck.judge(caller: name, builtAgainst: against, serves: description))
            case .failure(let failure)?:
                edges.append(DeployEdge(caller: name, callee: against.name, outcome: .unknown(failure.message)))
            case nil:
                edges.append(
                    DeployEdge(caller: name, callee: against.name, outcome: .unknown("\(against.name) was not asked")))
            }
        }
        return edges
    }
}

extension ErrorKind where Domain == DeployEdges.DescribeFailure {
    /// The callee could not be reached, or answered `daemon.describe` with an error.
    public static var unreachable: Self { Self("unreachable") }
    /// The callee answered `daemon.describe` with what is not a description.
    public static var notADescription: Self { Self("notADescription") }
}
