import VerticalsWire

/// What makes a service name valid: it names the socket `<name>.sock`, the log `<name>.log`,
/// a state folder and, under systemd, a unit, so it is kept to `[a-z][a-z0-9-]*`, at most
/// 32 characters.
public enum ServiceName {
    /// The longest name.
    public static let maxLength = 32
    /// The longest socket path libuv binds without truncating it (sun_path less its NUL).
    public static let maxSocketPathBytes = 107

    /// What is wrong with `name` as a service name, as one problem; empty when it is valid.
    public static func problems(_ name: String) -> [ManifestError] {
        let reasons = identifierReasons(name, maxLength: maxLength, naming: "files and sockets")
        return reasons.isEmpty ? [] : [ManifestError(.invalidName, service: name, reasons.joined(separator: "; "))]
    }

    /// Why `name` is not a lowercase letter followed by `a–z`, `0–9` and `-`, at most `maxLength`
    /// characters (each reason a clause; empty when it is one): the grammar of every name the suite
    /// gives a file, a socket, a user or a unit. `naming` says what such a name names.
    static func identifierReasons(_ name: String, maxLength: Int, naming: String) -> [String] {
        var reasons: [String] = []
        let scalars = Array(name.unicodeScalars)
        if scalars.isEmpty {
            reasons.append("the name is empty")
        } else if !("a"..."z").contains(scalars[0]) {
            reasons.append("the name must start with a lowercase letter (a–z)")
        }
        let invalid = scalars.dropFirst().filter {
            !(("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-")
        }
        if !invalid.isEmpty {
            let shown = String(String.UnicodeScalarView(invalid)).debugDescription
            reasons.append("the name may hold only a–z, 0–9 and '-' (it names \(naming)); found \(shown)")
        }
        if scalars.count > maxLength {
            reasons.append("the name is \(scalars.count) characters long; at most \(maxLength)")
        }
        return reasons
    }

    /// `<socketDirectory>/<name>.sock`.
    public static func socketPath(_ name: String, in socketDirectory: String) -> String {
        "\(socketDirectory)/\(name).sock"
    }
}

extension Manifest {
    /// Each service whose socket path in `socketDirectory` (`<run dir>/sockets`) is longer
    /// than a Unix socket address holds (107 bytes); libuv would silently bind a truncated
    /// path. Services with `socket = false` are not checked.
    public func socketPathProblems(socketDirectory: String) -> [ManifestError] {
        services.filter(\.socket).compactMap { service in
            let path = ServiceName.socketPath(service.name, in: socketDirectory)
            let length = path.utf8.count
            guard length > ServiceName.maxSocketPathBytes else { return nil }
            return ManifestError(
                .invalidName, service: service.name,
                "its socket path \(path) is \(length) bytes; a Unix socket path holds at most "
                    + "\(ServiceName.maxSocketPathBytes): use a shorter run directory or name",
                values: [ErrorDetail("path", path)])
        }
    }
}
