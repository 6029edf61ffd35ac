import VerticalsContract
import VerticalsWire

/// What a daemon's build says of itself with `--describe`, before it opens anything: the contract
/// it serves (what `daemon.describe` answers) and, for each vertical it calls, the operations it
/// declares as it was compiled against them. `svc-supervisor can-i-deploy` reads it from a new
/// build, and from the executable of each running caller.
///
/// ```swift
/// let build = try BuildDescription.read(stdoutBytes)   // typed error on anything malformed
/// build.callees.first { $0.name == "identity" }?.operations.map(\.name)
/// ```
public struct BuildDescription: WireMessage {
    /// What the build serves: its operations (the built-ins included), messages and enumerations.
    public var serves: Daemon.Description
    /// For each called vertical, the operations it declares and the messages they reach, as this
    /// build links them (`Callees/builtAgainst`).
    public var callees: [Daemon.Description]
    /// Declared calls whose schemas the build does not know (given by name alone).
    public var undescribed: [String]
    /// Whether the daemon's `main` said what it calls (`DaemonMain.run(_:calls:_:)`); when it did
    /// not, ``callees`` is empty and says nothing.
    public var callsDeclared: Bool
    /// The framework version the build was made with (`VerticalsVersion/current`).
    public var version: String

    /// Creates the value from its fields.
    public init(
        serves: Daemon.Description, callees: [Daemon.Description], undescribed: [String], callsDeclared: Bool,
        version: String
    ) {
        self.serves = serves
        self.callees = callees
        self.undescribed = undescribed
        self.callsDeclared = callsDeclared
        self.version = version
    }

    /// The description of a build that serves `operations` as vertical `name` and calls `calls`
    /// (nil: its `main` did not say). The built-ins are added as `daemon.describe` adds them.
    public static func of(
        name: String, summary: String, operations: [OperationDescriptor], calls: Callees?
    ) -> BuildDescription {
        var served = operations
        for builtin in Daemon.operations where !served.contains(where: { $0.fullName == builtin.fullName }) {
            served.append(builtin)
        }
        return BuildDescription(
            serves: ServiceDescription.make(name: name, summary: summary, operations: served),
            callees: calls?.builtAgainst ?? [], undescribed: calls?.undescribedEntries ?? [],
            callsDeclared: calls != nil, version: VerticalsVersion.current)
    }

    /// What this build was compiled against for `service`, or nil when it declares no described
    /// operation of it.
    public func builtAgainst(_ service: String) -> Daemon.Description? {
        callees.first { $0.name == service }
    }

    /// Whether the build declares any call to `service`, described or not.
    public func calls(_ service: String) -> Bool {
        builtAgainst(service) != nil || undescribed.contains { Callees.service(of: $0) == service }
    }

    public static let schema = MessageSchema(
        "daemon.BuildDescription",
        [
            .required(1, "serves", .message(Daemon.Description.self)),
            .repeated(2, "callees", .message(Daemon.Description.self)),
            .repeated(3, "undescribed", .string),
            .defaulted(4, "callsDeclared", .bool, .bool(false)),
            .defaulted(5, "version", .string, .string("")),
        ],
        doc: "A build's own account of its contract and of what it was compiled against (`--describe`).")

    public func encode(to body: inout BodyWriter) {
        body.write(1, serves)
        body.write(2, callees)
        body.write(3, undescribed)
        body.write(4, callsDeclared)
        body.write(5, version)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var serves: Daemon.Description?
        var callees: [Daemon.Description] = []
        var undescribed: [String] = []
        var callsDeclared = false
        var version = ""
        while let tag = try body.nextTag() {
            switch tag {
            case 1: serves = try body.read()
            case 2: try body.append(to: &callees)
            case 3: try body.append(to: &undescribed)
            case 4: callsDeclared = try body.read()
            case 5: version = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            serves: try body.required(serves, 1), callees: callees, undescribed: undescribed,
            callsDeclared: callsDeclared, version: version)
    }
}
