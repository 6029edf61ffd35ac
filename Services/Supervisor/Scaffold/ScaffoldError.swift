/// Why `svc-supervisor new` or `init` refused; nothing was written.
public enum ScaffoldError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name cannot name a vertical.
    case invalidName(String, reason: String)
    /// Something of that name is already in the checkout.
    case exists(String, at: [String])
    /// A `--calls` name that is not a service of the manifest.
    case unknownPeer(String, known: [String])
    /// The folder is not a Verticals checkout, or a file it needs has an unexpected shape.
    case checkout(String)
    /// `init`'s folder exists and holds something: a product is made in an empty or new folder only.
    case notEmpty(String, holding: [String])
    /// Writing failed part-way; what had been written was taken back.
    case write(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidName(let name, let reason): "cannot create \"\(name)\": \(reason)"
        case .exists(let name, let paths):
            "a vertical named \"\(name)\" already exists: " + paths.joined(separator: ", ")
        case .unknownPeer(let name, let known):
            "--calls \(name): the manifest has no such service; it has \(known.joined(separator: ", "))"
        case .checkout(let reason): reason
        case .notEmpty(let path, let entries):
            "\(path) is not empty (it holds \(entries.prefix(5).joined(separator: ", "))\(entries.count > 5 ? ", …" : "")):"
                + " a product is made in an empty or new folder; nothing was written"
        case .write(let path, let reason): "could not write \(path): \(reason); nothing was changed"
        }
    }
}
