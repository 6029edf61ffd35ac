import VerticalsContract
import VerticalsWire

/// A caller that makes only the calls its vertical declares (``Callees``), and refuses any
/// other before it reaches the wire, as `permissionDenied` naming the missing declaration.
///
/// Every World's caller is one (VerticalsStorage's `WorldParts` wraps the daemon's client and a
/// unit test's stub in it), so a use case that calls an undeclared vertical fails its first
/// test, not a production request. The check is one comparison against a handful of names.
public struct DeclaredCaller: ServiceCalling {
    /// The caller that makes the declared calls.
    public let base: any ServiceCalling
    /// What may be called.
    public let callees: Callees
    /// The vertical whose calls these are, for the refusal's message.
    public let vertical: String

    /// `base`, limited to `callees`.
    public init(_ base: any ServiceCalling, callees: Callees, vertical: String) {
        self.base = base
        self.callees = callees
        self.vertical = vertical
    }

    public func call<Input, Output>(
        _ operation: Operation<Input, Output>, _ input: Input, timeout: Duration?
    ) async throws(ServiceError) -> Output {
        guard callees.contains(operation.service) else { throw refusal(operation.fullName, operation.service) }
        return try await base.call(operation, input, timeout: timeout)
    }

    /// The refusal of a call to `service`'s `operation`.
    func refusal(_ operation: String, _ service: String) -> ServiceError {
        ServiceError(
            .permissionDenied,
            "\(vertical) calls \(operation), but its World declares no call to \(service) "
                + "(calls: \(callees)); declare it in World.calls and the manifest's depends_on",
            details: [ErrorDetail("service", service)])
    }
}
