/// The name of a new vertical in each form the checkout needs: `billing` for the manifest,
/// the socket and the operations; `Billing` for the contract, the folders and the targets.
public struct VerticalName: Sendable, Equatable, CustomStringConvertible {
    /// The service name, e.g. `billing`.
    public let name: String

    /// The Swift type and folder name, e.g. `Billing`.
    public var typeName: String { name.prefix(1).uppercased() + name.dropFirst() }
    /// The daemon's executable, e.g. `svc-billing`.
    public var executable: String { "svc-\(name)" }

    /// Names the tools or the suite use themselves, and Swift keywords a type cannot take.
    static let reserved: Set<String> = [
        "supervisor", "daemon", "all", "suite", "test", "tests", "shared", "services", "wire", "eventloop",
        "iointerface", "servicekit", "storage", "contracts", "vt", "self", "type", "protocol", "any", "some",
    ]

    /// The framework package's own verticals: in a product, a vertical of one of these names would
    /// declare targets (`ClinicsService`, `svc-clinics`) the framework's package already has, and
    /// SwiftPM refuses two targets of one name in a package graph.
    static let frameworkVerticals: Set<String> = ["identity", "clinics", "appointments", "records", "notifications"]

    /// Refuses a name whose targets the framework's package already declares (for a product's vertical).
    func checkOutsideTheFramework() throws(ScaffoldError) {
        guard !Self.frameworkVerticals.contains(name) else {
            throw .invalidName(
                name, reason: "the Verticals package has a vertical \"\(name)\" (\(typeName)Service, \(executable)), and SwiftPM"
                    + " refuses two targets of one name in a package graph: choose another name")
        }
    }

    /// Validates `name`: a lower-case letter, then lower-case letters and digits, at most 32 characters.
    public init(_ name: String) throws(ScaffoldError) {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first),
            name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) }),
            name.count <= 32
        else {
            throw .invalidName(
                name, reason: "a vertical's name is a lower-case letter followed by lower-case letters or digits"
                    + " (at most 32), e.g. billing: it names the socket, the operations and a Swift type")
        }
        guard !Self.reserved.contains(name) else {
            throw .invalidName(name, reason: "\"\(name)\" is reserved by the suite or by Swift")
        }
        self.name = name
    }

    public var description: String { name }
}
