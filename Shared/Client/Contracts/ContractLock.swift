import VerticalsContract
import VerticalsWire

/// The machine-readable description of every contract of a product (its verticals, then the
/// supervisor's control interface and the `daemon.*` built-ins), committed as
/// `Tests/Contracts/contracts.lock.json` and compared with today's by `Compatibility` of
/// `VerticalsContractTesting`.
/// The product's contracts are passed in (its `Contracts.all`): the library knows none.
///
/// Each entry is a `Daemon/Description`, built by `ServiceDescription` from the field
/// tables: the same data a running daemon answers `daemon.describe` with. The file is its
/// JSON form, printed by Wire's generic codec, so the lock cannot drift from the schemas.
public struct ContractLock: WireMessage {
    /// One description per contract, in the product's order, then `.control`, `.builtin`.
    public var services: [Daemon.Description]

    /// Creates a lock from its services.
    public init(services: [Daemon.Description]) {
        self.services = services
    }

    public static let schema = MessageSchema(
        "contracts.Lock", [.repeated(1, "services", .message(Daemon.Description.self))],
        doc: "Every contract of the suite, as data: the breaking-change guard's reference.")

    public func encode(to body: inout BodyWriter) {
        body.write(1, services)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var services: [Daemon.Description] = []
        while let tag = try body.nextTag() {
            switch tag {
            case 1: services.append(try body.read())
            default: try body.skip()
            }
        }
        self.init(services: services)
    }

    /// Every contract a product with verticals `product` (its `Contracts.all`) declares:
    /// those, then the framework's control and built-in contracts.
    public static func contracts(_ product: [any ServiceContract.Type]) -> [any ServiceContract.Type] {
        product + FrameworkContracts.control + FrameworkContracts.builtin
    }

    /// Today's lock of a product whose verticals are `product` (its `Contracts.all`).
    ///
    /// The lock holds what a peer's decoder relies on, not prose: the docs of every contract
    /// (the verticals', the supervisor's and the built-in `daemon.*`, all declared in `.vcontract`
    /// files; docs/CONTRACTS.md) are left out, so that rewording a field's doc needs no
    /// `make contracts-update` and never shows as a contract change. `describe` still carries them.
    public static func current(_ product: [any ServiceContract.Type]) -> ContractLock {
        ContractLock(services: contracts(product).map { ServiceDescription.of($0).withoutDocs })
    }

    /// The service named `name`.
    public func service(_ name: String) -> Daemon.Description? {
        services.first { $0.name == name }
    }

    /// The lock as committed: pretty JSON and a final newline.
    public func fileText() throws -> String {
        try jsonString(pretty: true) + "\n"
    }
}

extension Daemon.Description {
    /// The description with every message's and field's doc emptied.
    var withoutDocs: Daemon.Description {
        var copy = self
        for index in copy.messages.indices {
            copy.messages[index].doc = ""
            for field in copy.messages[index].fields.indices { copy.messages[index].fields[field].doc = "" }
        }
        return copy
    }
}
