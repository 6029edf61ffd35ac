import VerticalsWire

/// Why `svc-supervisor new` or `init` refused; nothing was written.
///
/// Compare ``code`` with the static members of ``Code``; new codes may be added.
public struct ScaffoldError: StoredCodedError {
    /// What made the scaffold refuse.
    public typealias Code = ErrorKind<ScaffoldError>

    /// What made the scaffold refuse, and the message saying what was wrong and what to do.
    public let storage: CodedErrorStorage<ScaffoldError>

    /// The error `storage` describes.
    public init(storage: CodedErrorStorage<ScaffoldError>) { self.storage = storage }

    /// `name` cannot name a vertical, for `reason`.
    public static func invalidName(_ name: String, reason: String) -> ScaffoldError {
        ScaffoldError(.invalidName, "cannot create \"\(name)\": \(reason)")
    }

    /// A vertical named `name` already exists at `paths`.
    public static func exists(_ name: String, at paths: [String]) -> ScaffoldError {
        ScaffoldError(.exists, "a vertical named \"\(name)\" already exists: " + paths.joined(separator: ", "))
    }

    /// `--calls name` names no service of the manifest, which has `known`.
    public static func unknownPeer(_ name: String, known: [String]) -> ScaffoldError {
        ScaffoldError(
            .unknownPeer, "--calls \(name): the manifest has no such service; it has \(known.joined(separator: ", "))")
    }

    /// The folder is not a Verticals checkout, or a file it needs has an unexpected shape: `reason`.
    public static func checkout(_ reason: String) -> ScaffoldError {
        ScaffoldError(.checkout, reason)
    }

    /// `init`'s folder `path` holds `entries`.
    public static func notEmpty(_ path: String, holding entries: [String]) -> ScaffoldError {
        ScaffoldError(
            .notEmpty,
            "\(path) is not empty (it holds \(entries.prefix(5).joined(separator: ", "))\(entries.count > 5 ? ", …" : "")):"
                + " a product is made in an empty or new folder; nothing was written")
    }

    /// Writing `path` failed for `reason`; what had been written was taken back.
    public static func write(path: String, reason: String) -> ScaffoldError {
        ScaffoldError(.write, "could not write \(path): \(reason); nothing was changed")
    }
}

extension ErrorKind where Domain == ScaffoldError {
    /// The name cannot name a vertical.
    public static var invalidName: Self { Self("invalidName") }
    /// Something of that name is already in the checkout.
    public static var exists: Self { Self("exists") }
    /// A `--calls` name that is not a service of the manifest.
    public static var unknownPeer: Self { Self("unknownPeer") }
    /// The folder is not a Verticals checkout, or a file it needs has an unexpected shape.
    public static var checkout: Self { Self("checkout") }
    /// `init`'s folder exists and holds something: a product is made in an empty or new folder only.
    public static var notEmpty: Self { Self("notEmpty") }
    /// Writing failed part-way; what had been written was taken back.
    public static var write: Self { Self("write") }
}
