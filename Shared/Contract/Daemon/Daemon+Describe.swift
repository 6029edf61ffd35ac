// `daemon.describe`: a running daemon's own account of its contract, built from the same
// field tables (`MessageSchema`) the codec, the JSON form and the contract lock file use.
// `MessageInfo`, `FieldInfo` and `EnumInfo` are the wire form of `MessageSchema`,
// `FieldDescriptor` and `EnumSchema`, no second model: ServiceKit's `ServiceDescription`
// converts both ways (`info(_:)`, `catalog(of:)`), so a client that never linked a vertical
// validates, encodes, decodes and prints its messages with the same generic codec.
//
// `Description`, `OperationInfo`, `MessageInfo` and the rest are declared in daemon.vcontract.
import VerticalsWire

extension Daemon {
    /// What the daemon serves: its vertical's name and summary, every operation it routes
    /// (built-ins included) with Input/Output message names and error codes, and the field
    /// table of every message and enumeration those reach. `svc-supervisor describe` shows it.
    public static let describe = Operation<Empty, Description>(
        name, "describe", summary: "The vertical's operations with their Input/Output fields and error codes.",
        errors: [.internal])
}

extension Daemon.OperationInfo {
    /// Creates the value of an operation tools rely on for nothing (no ``marks``).
    public init(
        name: String, summary: String = "", input: String, output: String, errors: [ErrorCode], service: String,
        event: String? = nil, route: Daemon.RouteInfo? = nil
    ) {
        self.init(
            name: name, summary: summary, input: input, output: output, errors: errors, service: service, event: event,
            route: route, marks: [])
    }
}
