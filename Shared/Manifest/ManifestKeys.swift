/// The keys a manifest may use, and the nearest one to a key it may not.
///
/// Adding a service key: add it to ``service`` (and to a nested table's list when it is one),
/// read it in `ServiceDecoder`, document it in `deploy/suite.toml`.
package enum ManifestKeys {
    /// Keys at the top of the file.
    package static let topLevel = ["suite", "defaults", "services"]
    /// Keys of the `[suite]` table.
    package static let suite = ["name"]
    /// Keys of a `[services.NAME]` table, and of `[defaults]`.
    package static let service = [
        "executable", "args", "env", "depends_on", "restart", "backoff", "budget", "readiness", "ready_timeout",
        "stop_signal", "stop_timeout", "watchdog", "log_max_bytes", "socket", "store", "endpoint",
        "strategy", "group", "liveness", "limits", "logs", "user", "certificates", "start", "idle_exit", "host",
        "receives", "replica",
    ]
    /// Keys of the `backoff` table.
    package static let backoff = ["initial", "max", "multiplier", "reset_after"]
    /// Keys of the `budget` table.
    package static let budget = ["restarts", "window"]
    /// Keys of the `liveness` table.
    package static let liveness = ["interval", "timeout", "failures"]
    /// Keys of the `limits` table.
    package static let limits = [
        "open_files", "data", "core", "cpu_seconds", "nice", "memory", "cpu", "cpu_weight", "tasks",
    ]
    /// Keys of the `logs` table.
    package static let logs = ["max_age", "keep", "compress"]
    /// Keys of the `replica` table.
    package static let replica = [
        "type", "path", "host", "port", "user", "key_file", "host_key", "bucket", "endpoint", "region",
        "credentials_file", "sync_interval", "retention",
    ]
    /// Service keys whose tables merge key by key with `[defaults]` instead of replacing them.
    package static let mergedTables: Set<String> = [
        "env", "backoff", "budget", "liveness", "limits", "logs", "replica",
    ]

    /// "unknown key 'dependson'; did you mean 'depends_on'?" — or without the suggestion when
    /// nothing known is close.
    package static func unknown(_ key: String, among known: [String]) -> String {
        guard let nearest = nearest(to: key, among: known) else {
            return "unknown key '\(key)'; known keys: \(known.joined(separator: ", "))"
        }
        return "unknown key '\(key)'; did you mean '\(nearest)'?"
    }

    /// The known key closest to `key` by edit distance, when it is close enough to be a typo.
    package static func nearest(to key: String, among known: [String]) -> String? {
        let typed = key.lowercased().replacingDashes()
        let scored = known.map { ($0, editDistance(typed, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        let allowance = max(2, best.0.count / 3)
        if best.1 <= allowance { return best.0 }
        // A known key that contains what was typed, or the other way round: "timeout" → "ready_timeout".
        return known.first { typed.count >= 3 && ($0.contains(typed) || typed.contains($0)) }
    }

    /// Levenshtein distance over characters.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

extension String {
    /// `depends-on` → `depends_on`: a common slip in TOML written by hand.
    fileprivate func replacingDashes() -> String {
        String(map { $0 == "-" ? "_" : $0 })
    }
}
