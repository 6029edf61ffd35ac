import VerticalsEventLoop
import VerticalsManifest
import VerticalsWire

/// Reads one `[services.NAME]` table (with `[defaults]` merged in), or `[defaults]` itself,
/// into a ``ServiceSpec``, noting every problem instead of stopping at the first.
struct ServiceDecoder {
    /// The service the problems are about; nil while reading `[defaults]`.
    let service: String?
    /// Put before each key in a problem: `"defaults."` for `[defaults]`, else empty.
    let keyPrefix: String
    /// Whether the value at a key path (`"backoff.initial"`) is the service's own rather than
    /// inherited from `[defaults]`, whose problems are reported once, under `defaults`.
    let isOwn: (String) -> Bool
    /// Where bare names and relative paths of `executable` are looked up.
    let resolver: ExecutableResolver
    /// What is wrong so far.
    private(set) var problems: [ManifestError] = []

    init(
        service: String?, keyPrefix: String = "", resolver: ExecutableResolver,
        isOwn: @escaping (String) -> Bool = { _ in true }
    ) {
        self.service = service
        self.keyPrefix = keyPrefix
        self.resolver = resolver
        self.isOwn = isOwn
    }

    /// The spec `table` describes; `requireExecutable` is false for `[defaults]`.
    mutating func decode(_ table: [String: ManifestValue], requireExecutable: Bool) -> ServiceSpec {
        var spec = ServiceSpec(name: service ?? "defaults", executable: "")
        for key in table.keys.sorted() where !ManifestKeys.service.contains(key) {
            report(key, ManifestKeys.unknown(key, among: ManifestKeys.service), as: .unknownKey)
        }
        if let value = table["executable"], let written = string(value, at: "executable"),
            let text = checkedExecutable(written)
        {
            switch resolver.resolve(text) {
            case .success(let path): spec.executable = path
            case .failure(let problem): report("executable", problem.message, as: problem.code, values: problem.values)
            }
        } else if requireExecutable && table["executable"] == nil && table["endpoint"] == nil {
            report(
                "executable", "missing: name the program to run, e.g. executable = \"svc-\(service ?? "name")\"",
                as: .missing, always: true)
        }
        if let value = table["args"] { spec.arguments = checkedArguments(strings(value, at: "args")) }
        if let value = table["env"] { spec.environment = environment(value) }
        if let value = table["depends_on"] {
            for problem in spec.setDependsOn(strings(value, at: "depends_on")) { report("depends_on", problem) }
        }
        if let value = table["restart"], let policy: RestartPolicy = choice(value, at: "restart") {
            spec.restart = policy
        }
        if let value = table["backoff"] { spec.backoff = backoff(value) }
        if let value = table["budget"] { spec.budget = budget(value) }
        if let value = table["readiness"], let readiness: Readiness = choice(value, at: "readiness") {
            spec.readiness = readiness
        }
        if let value = table["ready_timeout"], let duration = duration(value, at: "ready_timeout") {
            spec.readyTimeout = duration
        }
        if let value = table["stop_signal"], let signal = stopSignal(value) { spec.stopSignal = signal }
        if let value = table["stop_timeout"], let duration = duration(value, at: "stop_timeout") {
            spec.stopTimeout = duration
        }
        if let value = table["watchdog"] {
            spec.watchdog = duration(value, at: "watchdog", hint: "; leave the key out to turn the watchdog off")
        }
        if let value = table["log_max_bytes"], let bytes = byteCount(value) { spec.logMaxBytes = bytes }
        if let value = table["socket"] {
            if case .boolean(let flag) = value {
                spec.socket = flag
            } else {
                wrongType(value, at: "socket", "a boolean", "true")
            }
        }
        if let value = table["user"], let user = string(value, at: "user") {
            if ServiceAccounts.isUserName(user) {
                spec.user = user
            } else {
                report(
                    "user",
                    "\"\(user)\" is not a user name: at most \(ServiceAccounts.maxUserName) characters, "
                        + "letters, digits, '_' and '-', not starting with a digit or '-'")
            }
        }
        if let value = table["store"] {
            if case .boolean(let flag) = value {
                spec.store = flag
            } else {
                wrongType(value, at: "store", "a boolean", "false")
            }
        }
        if let value = table["endpoint"] { spec.endpoint = endpoint(value) }
        if let value = table["replica"], !spec.isRemote { spec.replica = replica(value, of: spec) }
        if let value = table["host"], let host = string(value, at: "host") {
            if ServiceName.problems(host).isEmpty {
                spec.host = host
            } else {
                report(
                    "host",
                    "\"\(host)\" is not a host name export systemd --host can match: use a-z, 0-9 and '-', e.g. \"a\"")
            }
        }
        if let value = table["certificates"], let written = string(value, at: "certificates"),
            let folder = checkedCertificates(written)
        {
            // Relative to the manifest's folder, as a relative executable is.
            spec.certificates =
                folder.hasPrefix("/")
                ? folder : ExecutableResolver.normalized("\(resolver.baseDirectory)/\(folder)")
        }
        if let value = table["receives"] { spec.receives = receives(value) }
        decodeSupervision(table, into: &spec)
        return spec
    }

    /// `endpoint = "tcp:HOST:PORT"`, for one service (never `[defaults]`: two services cannot share a port).
    private mutating func endpoint(_ value: ManifestValue) -> SocketEndpoint? {
        guard let text = string(value, at: "endpoint") else { return nil }
        guard service != nil else {
            report(
                "endpoint", "belongs to one service, not [defaults]: two services cannot listen on one address",
                as: .conflict, always: true)
            return nil
        }
        let endpoint: SocketEndpoint
        do {
            endpoint = try SocketEndpoint(parsing: text)
        } catch {
            report("endpoint", "\(error)", values: [ErrorDetail("endpoint", text)])
            return nil
        }
        guard case .tcp(_, let port) = endpoint else {
            report(
                "endpoint",
                "must be tcp:HOST:PORT (a Unix socket is <name>.sock in the run directory, leave the key out)")
            return nil
        }
        guard port != 0 else {
            report("endpoint", "port 0 is not an address callers can be given: name the port, e.g. tcp:127.0.0.1:7001")
            return nil
        }
        return endpoint
    }

    // MARK: Nested tables

    private mutating func backoff(_ value: ManifestValue) -> Backoff {
        var backoff = Backoff()
        guard
            let table = table(
                value, at: "backoff",
                example: "{ initial = \"100ms\", max = \"30s\", multiplier = 2.0, reset_after = \"10s\" }")
        else { return backoff }
        for key in table.keys.sorted() where !ManifestKeys.backoff.contains(key) {
            report("backoff.\(key)", ManifestKeys.unknown(key, among: ManifestKeys.backoff), as: .unknownKey)
        }
        if let value = table["initial"], let initial = duration(value, at: "backoff.initial") {
            backoff.initial = initial
        }
        if let value = table["max"], let max = duration(value, at: "backoff.max") { backoff.max = max }
        if let value = table["reset_after"], let healthy = duration(value, at: "backoff.reset_after") {
            backoff.resetAfter = healthy
        }
        if let value = table["multiplier"] {
            switch value {
            case .float(let number) where number >= 1 && number.isFinite: backoff.multiplier = number
            case .integer(let number) where number >= 1: backoff.multiplier = Double(number)
            case .float, .integer: report("backoff.multiplier", "must be at least 1 (1 keeps the delay constant)")
            default: wrongType(value, at: "backoff.multiplier", "a number", "2.0")
            }
        }
        if backoff.max < backoff.initial && (isOwn("backoff.initial") || isOwn("backoff.max")) {
            report(
                "backoff.max",
                "is shorter than backoff.initial "
                    + "(\(ManifestUnits.text(backoff.max)) < \(ManifestUnits.text(backoff.initial)))",
                always: true)
        }
        return backoff
    }

    private mutating func budget(_ value: ManifestValue) -> RestartBudget {
        var budget = RestartBudget()
        guard let table = table(value, at: "budget", example: "{ restarts = 5, window = \"60s\" }") else {
            return budget
        }
        for key in table.keys.sorted() where !ManifestKeys.budget.contains(key) {
            report("budget.\(key)", ManifestKeys.unknown(key, among: ManifestKeys.budget), as: .unknownKey)
        }
        if let value = table["restarts"] {
            switch value {
            case .integer(let count) where count >= 0: budget.maxRestarts = count
            case .integer: report("budget.restarts", "must be 0 or more")
            default: wrongType(value, at: "budget.restarts", "an integer", "5")
            }
        }
        if let value = table["window"], let window = duration(value, at: "budget.window") { budget.window = window }
        return budget
    }

    // MARK: Values

    mutating func string(_ value: ManifestValue, at key: String) -> String? {
        guard case .string(let text) = value else {
            wrongType(value, at: key, "a string", "\"…\"")
            return nil
        }
        guard !text.isEmpty else {
            report(key, "is empty")
            return nil
        }
        return text
    }

    mutating func strings(_ value: ManifestValue, at key: String) -> [String] {
        guard case .array(let items) = value else {
            wrongType(value, at: key, "an array of strings", "[\"…\"]")
            return []
        }
        var strings: [String] = []
        for (index, item) in items.enumerated() {
            if case .string(let text) = item {
                strings.append(text)
            } else {
                report(key, "item \(index + 1) is \(item.kind); every item must be a string", as: .wrongType)
            }
        }
        return strings
    }

    private mutating func environment(_ value: ManifestValue) -> [String: String] {
        guard let table = table(value, at: "env", example: "{ KEY = \"value\" }") else { return [:] }
        var environment: [String: String] = [:]
        for (name, item) in table.sorted(by: { $0.key < $1.key }) {
            guard isOwn("env.\(name)") else {
                if case .string(let text) = item { environment[name] = text }
                continue
            }
            if !Self.isVariableName(name) {
                report("env.\(name)", "is not a variable name (letters, digits and _, not starting with a digit)")
            } else if Self.supervisorVariables.contains(name) {
                report("env.\(name)", "is set by the supervisor for each child; leave it out")
            }
            if case .string(let text) = item {
                checkEnvironmentValue(text, at: "env.\(name)")
                environment[name] = text
            } else {
                wrongType(item, at: "env.\(name)", "a string", "\"…\"")
            }
        }
        return environment
    }

    mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ value: ManifestValue, at key: String
    ) -> Choice? where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue)
        guard let text = string(value, at: key) else { return nil }
        if let choice = Choice(rawValue: text) { return choice }
        let hint = ManifestKeys.nearest(to: text, among: names).map { "; did you mean \"\($0)\"?" } ?? ""
        report(key, "must be one of \(names.map { "\"\($0)\"" }.joined(separator: ", ")), not \"\(text)\"\(hint)")
        return nil
    }

    mutating func duration(_ value: ManifestValue, at key: String, hint: String = "") -> Duration? {
        guard case .string(let text) = value else {
            let example = if case .integer(let number) = value { "\"\(number)s\"" } else { "\"10s\"" }
            report(
                key,
                "must be a duration string with a unit (ms, s, m, h), "
                    + "e.g. \(key.split(separator: ".").last!) = \(example); not \(value.kind)",
                as: .wrongType)
            return nil
        }
        guard let duration = ManifestUnits.duration(text) else {
            report(
                key, "\"\(text)\" is not a duration: write a number and a unit (ms, s, m, h), e.g. \"100ms\", \"1m30s\""
            )
            return nil
        }
        guard duration > .zero else {
            report(key, "must be longer than zero\(hint)")
            return nil
        }
        return duration
    }

    mutating func byteCount(_ value: ManifestValue, at key: String = "log_max_bytes") -> Int? {
        let bytes: Int?
        switch value {
        case .integer(let number): bytes = number
        case .string(let text):
            bytes = ManifestUnits.byteCount(text)
            if bytes == nil {
                report(
                    key,
                    "\"\(text)\" is not a size: write bytes as an integer, "
                        + "or a string like \"10MiB\" (B, KB, MB, GB, KiB, MiB, GiB)"
                )
                return nil
            }
        default:
            wrongType(value, at: key, "a size", "10485760 or \"10MiB\"")
            return nil
        }
        guard let bytes, bytes > 0 else {
            report(key, "must be more than zero")
            return nil
        }
        return bytes
    }

    private mutating func stopSignal(_ value: ManifestValue) -> Int32? {
        let number: Int32?
        switch value {
        case .string(let name):
            number = ManifestUnits.signal(name)
            if number == nil {
                report("stop_signal", "\"\(name)\" is not a signal name; use e.g. \"SIGTERM\", \"SIGINT\", \"SIGQUIT\"")
                return nil
            }
        case .integer(let raw) where (1...31).contains(raw): number = Int32(raw)
        case .integer(let raw):
            report("stop_signal", "\(raw) is not a signal number (1–31); prefer a name: \"SIGTERM\"")
            return nil
        default:
            wrongType(value, at: "stop_signal", "a signal name", "\"SIGTERM\"")
            return nil
        }
        guard let number, !Self.signalsThatDoNotStop.contains(number) else {
            report(
                "stop_signal", "\(ManifestUnits.signalName(number ?? 0)) does not end a process; use e.g. \"SIGTERM\"")
            return nil
        }
        return number
    }

    mutating func table(_ value: ManifestValue, at key: String, example: String) -> [String: ManifestValue]? {
        guard case .table(let table) = value else {
            wrongType(value, at: key, "a table", example)
            return nil
        }
        return table
    }

    // MARK: Reporting

    mutating func wrongType(_ value: ManifestValue, at key: String, _ expected: String, _ example: String) {
        let name = key.split(separator: ".").last.map(String.init) ?? key
        report(key, "must be \(expected), not \(value.kind): e.g. \(name) = \(example)", as: .wrongType)
    }

    /// Notes a problem of `code` at `key` (a value outside what the key accepts unless said), unless
    /// the value there came from `[defaults]` (reported there), or `always`, when it comes from the
    /// service and its defaults together.
    mutating func report(
        _ key: String, _ message: String, as code: ManifestError.Code = .invalidValue, values: [ErrorDetail] = [],
        always: Bool = false
    ) {
        guard always || isOwn(key) else { return }
        problems.append(ManifestError(code, service: service, key: keyPrefix + key, message, values: values))
    }

    private static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
        }
    }

    /// Variables of systemd's protocols that the supervisor sets per child.
    static let supervisorVariables: Set<String> = [
        "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID",
    ]

    /// SIGCHLD, SIGCONT, SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU, SIGURG, SIGWINCH: ignored or stopping, never ending.
    static let signalsThatDoNotStop: Set<Int32> = [17, 18, 19, 20, 21, 22, 23, 28]
}
