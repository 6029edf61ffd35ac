import Glibc

/// The command-line tools a test runs that are not the package's own (systemd's, the Kubernetes
/// validator, Python, `ldd`, Litestream, `swiftc`), found on the test process's `PATH`.
public enum ToolLookup {
    /// The absolute path of `program` on the test process's `PATH`, if there is one.
    public static func which(_ program: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where access("\(folder)/\(program)", X_OK) == 0 {
            return "\(folder)/\(program)"
        }
        return nil
    }

    /// The environment a Python tool needs from the test process (pyenv's shims read HOME and PATH).
    public static var toolEnvironment: [String: String] {
        var environment: [String: String] = [:]
        for key in ["PATH", "HOME", "PYENV_ROOT", "PYENV_VERSION", "LANG"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        return environment
    }
}
