#if canImport(Glibc)
import Glibc
#endif
import VerticalsWire

/// Turns a manifest's `executable` into the absolute path the supervisor runs, and checks
/// that a program is there.
///
/// - a bare name (`"svc-identity"`) is looked up in `binDirectory`, beside svc-supervisor;
/// - a relative path (`"bin/tool"`, `"./run.sh"`) is taken from the manifest's folder;
/// - an absolute path is used as it is.
public struct ExecutableResolver: Sendable {
    /// The manifest's folder.
    public var baseDirectory: String
    /// svc-supervisor's own folder.
    public var binDirectory: String
    /// Whether a path that holds no executable is a problem (true but for offline tools,
    /// such as generating units before a build).
    public var checksFiles: Bool

    /// A resolver for a manifest in `baseDirectory` and programs in `binDirectory`.
    public init(baseDirectory: String, binDirectory: String, checksFiles: Bool = true) {
        self.baseDirectory = baseDirectory
        self.binDirectory = binDirectory
        self.checksFiles = checksFiles
    }

    /// The absolute path `executable` names, or what is wrong with it.
    public func resolve(_ executable: String) -> Result<String, ManifestError> {
        let path: String
        if executable.hasPrefix("/") {
            path = Self.normalized(executable)
        } else if !executable.contains("/") {
            path = Self.normalized("\(binDirectory)/\(executable)")
        } else {
            path = Self.normalized("\(baseDirectory)/\(executable)")
        }
        guard checksFiles else { return .success(path) }
        var info = stat()
        guard stat(path, &info) == 0 else {
            let whereFrom =
                executable.hasPrefix("/")
                ? ""
                : !executable.contains("/")
                    ? " (a bare name is looked up beside svc-supervisor, in \(binDirectory); "
                        + "build it first, or give a path)"
                    : " (a relative path is taken from the manifest's folder, \(baseDirectory))"
            return .failure(
                ManifestError(.badExecutable, "\(path) not found\(whereFrom)", values: [ErrorDetail("path", path)]))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            return .failure(
                ManifestError(.badExecutable, "\(path) is not a regular file", values: [ErrorDetail("path", path)]))
        }
        guard access(path, X_OK) == 0 else {
            let mode = String(info.st_mode & 0o777, radix: 8)
            return .failure(
                ManifestError(
                    .badExecutable, "\(path) is not executable (mode \(mode)): chmod +x it",
                    values: [ErrorDetail("path", path)]))
        }
        return .success(path)
    }

    /// `path` without `.` and `..` components or repeated slashes (symbolic links are kept).
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
