import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsSupervisorClient

/// What of the supervisor's own environment a service's process starts from: an allow-list, as
/// systemd starts a unit from a clean environment and passes only what `PassEnvironment=` names.
///
/// A service receives a short fixed list (``fixedNames``, the `LC_*` locale variables), the
/// variables `VERTICALS_PASS_ENVIRONMENT` names, and then what the manifest gives it and what the
/// supervisor sets for it. Nothing else of the supervisor's environment reaches it: the operator's
/// TLS files exported for the CLI, a token, a proxy password. The TLS settings and the hand-off
/// variables (``neverPassed``) are not passed even when named: a service's key comes from the
/// manifest or its certificates folder, and its sockets from the supervisor.
///
/// ```swift
/// // VERTICALS_PASS_ENVIRONMENT="VT_TEST_TAG OTEL_*"
/// let base = ChildEnvironment.inherited(from: ProcessEnvironment.current)
/// ```
public enum ChildEnvironment {
    /// Passed whenever the supervisor has them: how to find programs, the locale and the time zone.
    public static let fixedNames: Set<String> = ["PATH", "LANG", "LANGUAGE", "TZ"]
    /// Every name starting with one of these is passed, as the fixed names are.
    public static let fixedPrefixes = ["LC_"]
    /// Never passed, whatever `VERTICALS_PASS_ENVIRONMENT` names: credentials a service gets from
    /// its manifest alone, and what the supervisor sets itself.
    public static let neverPassed: [String] = [
        DaemonSettings.tls.name, "LISTEN_", "NOTIFY_SOCKET", "WATCHDOG_", "STATE_DIRECTORY", "RUNTIME_DIRECTORY",
        SocketDirectory.endpointVariablePrefix,
    ]

    /// The part of `environment` (the supervisor's own) a service starts from, with the names
    /// `VERTICALS_PASS_ENVIRONMENT` in it lists.
    public static func inherited(from environment: [String: String]) -> [String: String] {
        let patterns = passed(environment[SupervisorSettings.passEnvironment.name] ?? "")
        return environment.filter { name, _ in isPassed(name, patterns: patterns) }
    }

    /// Whether `name` reaches a service when the pass-on setting lists `patterns`.
    static func isPassed(_ name: String, patterns: [String]) -> Bool {
        guard !neverPassed.contains(where: { name.hasPrefix($0) }) else { return false }
        if fixedNames.contains(name) || fixedPrefixes.contains(where: { name.hasPrefix($0) }) { return true }
        return patterns.contains { pattern in
            pattern.hasSuffix("*") ? name.hasPrefix(pattern.dropLast()) : name == pattern
        }
    }

    /// The names and `PREFIX*` patterns of a `VERTICALS_PASS_ENVIRONMENT` value, split at spaces
    /// and commas; a lone `*` passes nothing (it would pass everything).
    static func passed(_ value: String) -> [String] {
        value.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init).filter { $0 != "*" }
    }
}
