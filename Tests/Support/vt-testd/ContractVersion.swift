// The contract versions one vt-testd build can serve and call, chosen by VT_TESTD_CONTRACT: a
// mixed-version suite without a second build. `2` adds an optional field to echo's Input and
// Output (an additive change); `breaking` makes echo's Input require a field earlier callers never
// send. Both keep the schema names, as a later build of the same contract does.
import VerticalsContract
import VerticalsTestSupport
import VerticalsWire

enum ContractVersion: String {
    case v1 = "1"
    case v2 = "2"
    case breaking

    /// The version the environment names; unset is `1`.
    static func from(_ environment: [String: String]) -> ContractVersion {
        environment["VT_TESTD_CONTRACT"].flatMap(ContractVersion.init(rawValue:)) ?? .v1
    }

    /// `service`'s echo as this version serves it, and the versions' handler: `text` in, the
    /// text and pid out.
    func echo(_ service: String) -> OperationDescriptor {
        switch self {
        case .v1: TestEcho(service: service).echo.descriptor
        case .v2: Self.echoV2(service).descriptor
        case .breaking: Self.echoBreaking(service).descriptor
        }
    }

    static func echoV2(_ service: String) -> Operation<TestEcho.EchoInputV2, TestEcho.EchoOutputV2> {
        Operation(service, "echo", summary: "Echo the text, optionally after a delay.")
    }

    static func echoBreaking(_ service: String) -> Operation<TestEcho.EchoInputBreaking, TestEcho.EchoOutput> {
        Operation(service, "echo", summary: "Echo the text, optionally after a delay.")
    }
}
