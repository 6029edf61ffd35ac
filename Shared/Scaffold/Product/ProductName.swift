import VerticalsManifest

/// The name of a new product in each form it needs: `Acme` for the package and its contracts
/// module (`AcmeInterface`), `acme` for its contract tool (`acme-contracts`).
public struct ProductName: Sendable, Equatable, CustomStringConvertible {
    /// The package's name, e.g. `Acme`.
    public let typeName: String

    /// The lower-case form, e.g. `acme`.
    public var name: String { typeName.lowercased() }
    /// The contracts module, e.g. `AcmeInterface` (not `IOInterface`: the framework's package has a
    /// target of that name, and SwiftPM refuses two targets of one name in a package graph).
    public var interfaceModule: String { "\(typeName)Interface" }
    /// The contract tool's executable, e.g. `acme-contracts`.
    public var contractsTool: String { "\(name)-contracts" }

    /// Validates `name`: a letter, then letters and digits, at most `SuiteName.maxLength`; the
    /// first letter is upper-cased. Its lower-case form is the manifest's `[suite] name`, which
    /// names the product's users and units on a host, hence the bound.
    public init(_ name: String) throws(ScaffoldError) {
        guard let first = name.unicodeScalars.first, first.isASCIILetter,
            name.unicodeScalars.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) }),
            name.count <= SuiteName.maxLength
        else {
            throw .invalidName(
                name,
                reason: "a product's name is a letter followed by letters or digits (at most \(SuiteName.maxLength)), "
                    + "e.g. Acme: it names the Swift package and its contracts module, and its users and units "
                    + "on a host; pass --name")
        }
        let typeName = name.prefix(1).uppercased() + name.dropFirst()
        guard !["Verticals", "IOInterface", "Contracts", "Package"].contains(typeName) else {
            throw .invalidName(name, reason: "\"\(name)\" is taken by the framework")
        }
        self.typeName = typeName
    }

    public var description: String { typeName }
}

extension Unicode.Scalar {
    /// Whether this is `a`–`z` or `A`–`Z`.
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
