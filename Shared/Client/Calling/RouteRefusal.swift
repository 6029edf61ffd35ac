import VerticalsContract
import VerticalsWire

/// The refusals of a call the routes do not allow, the same typed error on both sides: the
/// caller's ``DeclaredCaller`` (its code does not declare the call) and the callee's host (the
/// manifest's `depends_on` does not, or the operation is operator-only). Each is
/// `permissionDenied`, never retryable, and names the edge in its message and its details:
///
/// | detail | value |
/// |---|---|
/// | `reason` | ``Reason`` |
/// | `edge` | `clinics → identity.grantRole` |
/// | `caller` | the calling vertical, user, uid or certificate name |
/// | `operation` | `identity.grantRole` |
/// | `service` | `identity` |
public enum RouteRefusal {
    /// Why a call was refused.
    public enum Reason: String, Sendable {
        /// The caller's World does not declare the operation (refused before a byte is sent).
        case undeclaredInCode
        /// The caller's manifest `depends_on` does not name the operation (refused by the callee).
        case undeclaredRoute
        /// The operation is `OperationMark/operatorOnly` and the caller is not the operator.
        case operatorOnly
    }

    /// `caller → operation`.
    public static func edge(_ caller: String, _ operation: String) -> String { "\(caller) → \(operation)" }

    /// A World's call that its ``Callees`` lacks.
    public static func undeclaredInCode(
        caller: String, operation: String, service: String, operatorOnly: Bool, declared: String
    ) -> ServiceError {
        let message =
            operatorOnly
            ? "\(caller) calls \(operation), which only the operator may call (operatorOnly): no vertical may declare it"
            : "\(caller) calls \(operation), but its World declares no call to it (calls: \(declared)); "
                + "declare it in World.calls and the manifest's depends_on = [\"\(operation)\"]"
        return error(
            operatorOnly ? .operatorOnly : .undeclaredInCode, caller: caller, operation: operation, service: service,
            message)
    }

    /// A caller the callee knows (a vertical of the suite, by uid or certificate) calling an
    /// operation its `depends_on` does not name.
    public static func undeclaredRoute(caller: String, operation: String, service: String, declared: [String])
        -> ServiceError
    {
        let has = declared.isEmpty ? "none of \(service)'s operations" : declared.joined(separator: ", ")
        return error(
            .undeclaredRoute, caller: caller, operation: operation, service: service,
            "\(caller) may not call \(operation): its depends_on lacks it (it declares \(has) of \(service)); "
                + "add \"\(operation)\" to [services.\(caller)] depends_on if its code calls it")
    }

    /// A caller that is not the operator calling an operator-only operation.
    public static func operatorOnly(caller: String, operation: String, service: String) -> ServiceError {
        error(
            .operatorOnly, caller: caller, operation: operation, service: service,
            "\(caller) may not call \(operation): it is operator-only (root, the operator group, the daemon's own "
                + "user, or the operator certificate), and no depends_on can grant it")
    }

    private static func error(
        _ reason: Reason, caller: String, operation: String, service: String, _ message: String
    ) -> ServiceError {
        ServiceError(
            .permissionDenied, message,
            details: [
                ErrorDetail("reason", reason.rawValue), ErrorDetail("edge", edge(caller, operation)),
                ErrorDetail("caller", caller), ErrorDetail("operation", operation), ErrorDetail("service", service),
            ],
            retryable: false)
    }
}
