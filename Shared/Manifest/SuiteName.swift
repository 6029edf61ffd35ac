/// The product's name on a host: the manifest's `[suite] name`. Every name the suite takes on a
/// shared host starts from it, so two products side by side share none: under systemd its
/// units (`<name>-<service>.service`, `<name>.target`), users (`<name>-<service>`), group
/// (`<name>`), socket folder (`/run/<name>`), state (`/var/lib/<name>/<service>`) and installed
/// manifest (`<prefix>/etc/<name>/suite.toml`); on Kubernetes its namespace and image. A
/// manifest without it is the framework's own suite, `verticals`.
///
/// It becomes user, group, unit and folder names, so it is an identifier: `[a-z][a-z0-9-]*`, not
/// ending in `-`, at most ``maxLength`` characters, which leaves a service name room in a Linux user
/// name (31 bytes: `<name>-<service>`; the systemd export checks each one).
public enum SuiteName {
    /// The name of a suite whose manifest gives none: the framework's reference suite.
    public static let `default` = "verticals"
    /// The longest name.
    public static let maxLength = 16
    /// The `Description=` of the suite's systemd target (`<name>.target`), the same for every
    /// product: the CLI finds the suites a host runs by it.
    public static let targetDescription = "Verticals: every vertical of the suite"

    /// What is wrong with `name` as a suite name, as one problem of key `suite.name`; empty when it is valid.
    public static func problems(_ name: String) -> [ManifestError] {
        var reasons = ServiceName.identifierReasons(
            name, maxLength: maxLength, naming: "users, a group, units and folders")
        if name.hasSuffix("-") { reasons.append("the name must not end with '-'") }
        guard !reasons.isEmpty else { return [] }
        return [
            ManifestError(
                .invalidName, key: "suite.name", "\(name.debugDescription): " + reasons.joined(separator: "; "))
        ]
    }
}
