import VerticalsManifest

/// The name of a new vertical in each form the checkout needs: `billing` for the manifest,
/// the socket and the operations; `Billing` for the contract, the folders and the targets.
public struct VerticalName: Sendable, Equatable, CustomStringConvertible {
    /// The service name, e.g. `billing`.
    public let name: String

    /// The Swift type and folder name, e.g. `Billing`.
    public var typeName: String { name.prefix(1).uppercased() + name.dropFirst() }
    /// The daemon's executable, e.g. `svc-billing`.
    public var executable: String { "svc-\(name)" }

    /// Names the tools use themselves, and Swift keywords a type cannot take. The names a product's
    /// vertical may not take because the framework's package has such targets are read from that
    /// package (``FrameworkTargets``), not listed here.
    static let reserved: Set<String> = [
        "supervisor", "daemon", "all", "suite", "test", "tests", "shared", "services", "wire", "eventloop",
        "servicekit", "storage", "contracts", "vt", "self", "type", "protocol", "any", "some",
    ]

    /// The targets it adds to a product's package: its library, its daemon and its tests.
    public var targets: [String] { ["\(typeName)Service", executable, "\(typeName)ServiceTests"] }

    /// Validates `name`: a lower-case letter, then lower-case letters and digits, at most 32 characters.
    public init(_ name: String) throws(ScaffoldError) {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first),
            name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) }),
            name.count <= 32
        else {
            throw .invalidName(
                name,
                reason: "a vertical's name is a lower-case letter followed by lower-case letters or digits"
                    + " (at most 32), e.g. billing: it names the socket, the operations and a Swift type")
        }
        if let role = ServiceName.roleProblem(name) { throw .invalidName(name, reason: role) }
        guard !Self.reserved.contains(name) else {
            throw .invalidName(name, reason: "\"\(name)\" is reserved by the Verticals tools or by Swift")
        }
        self.name = name
    }

    public var description: String { name }
}
