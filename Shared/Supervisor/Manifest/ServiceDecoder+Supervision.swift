import VerticalsManifest

// The keys of supervision beyond start and restart: strategy and group (more in their own files).
extension ServiceDecoder {
    /// Reads `strategy` and `group` into `spec`, and every supervision key added beside them.
    mutating func decodeSupervision(_ table: [String: ManifestValue], into spec: inout ServiceSpec) {
        if let value = table["strategy"], let strategy: RestartStrategy = choice(value, at: "strategy") {
            spec.strategy = strategy
        }
        if let value = table["group"], let group = string(value, at: "group") {
            spec.group = group
        }
        if let value = table["liveness"] { spec.liveness = liveness(value) }
        if let value = table["limits"] { spec.limits = limits(value) }
        if let value = table["logs"] { spec.logRotation = logRotation(value) }
        if spec.liveness != nil && !spec.socket && (isOwn("liveness") || isOwn("socket")) {
            report(
                "liveness", "calls daemon.health on the service's socket: it needs socket = true", as: .conflict,
                always: true)
        }
        decodeStart(table, into: &spec)
        if spec.strategy == .oneForAll && spec.group == nil && isOwn("strategy") {
            report(
                "strategy", "\"one_for_all\" restarts a group: name it, e.g. group = \"payments\"", as: .conflict,
                always: true)
        }
        if spec.group != nil && spec.strategy != .oneForAll && (isOwn("group") || isOwn("strategy")) {
            report(
                "group", "is only used with strategy = \"one_for_all\"; add it, or leave group out", as: .conflict,
                always: true)
        }
    }

    private mutating func liveness(_ value: ManifestValue) -> LivenessCheck? {
        guard
            let table = nestedTable(
                value, at: "liveness", keys: ManifestKeys.liveness, example: "{ interval = \"5s\", timeout = \"1s\" }")
        else { return nil }
        var check = LivenessCheck()
        if let value = table["interval"], let interval = duration(value, at: "liveness.interval") {
            check.interval = interval
        }
        if let value = table["timeout"], let timeout = duration(value, at: "liveness.timeout") {
            check.timeout = timeout
        }
        if let value = table["failures"], let count = count(value, at: "liveness.failures", in: 1...1_000) {
            check.failures = count
        }
        return check
    }

    private mutating func logRotation(_ value: ManifestValue) -> LogRotation {
        var rotation = LogRotation()
        guard
            let table = nestedTable(
                value, at: "logs", keys: ManifestKeys.logs, example: "{ max_age = \"24h\", keep = 5, compress = true }")
        else { return rotation }
        if let value = table["max_age"] { rotation.maxAge = duration(value, at: "logs.max_age") }
        if let value = table["keep"], let count = count(value, at: "logs.keep", in: 0...1_000) { rotation.keep = count }
        if let value = table["compress"] {
            if case .boolean(let flag) = value {
                rotation.compress = flag
            } else {
                wrongType(value, at: "logs.compress", "a boolean", "true")
            }
        }
        return rotation
    }

    /// The table at `key`, its unknown keys reported; nil (and a problem) when it is no table.
    mutating func nestedTable(
        _ value: ManifestValue, at key: String, keys: [String], example: String
    ) -> [String: ManifestValue]? {
        guard let table = table(value, at: key, example: example) else { return nil }
        for name in table.keys.sorted() where !keys.contains(name) {
            report("\(key).\(name)", ManifestKeys.unknown(name, among: keys), as: .unknownKey)
        }
        return table
    }
}
