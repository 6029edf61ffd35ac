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
        if spec.liveness != nil && !spec.socket && (isOwn("liveness") || isOwn("socket")) {
            report("liveness", "calls daemon.health on the service's socket: it needs socket = true", always: true)
        }
        if spec.strategy == .oneForAll && spec.group == nil && isOwn("strategy") {
            report("strategy", "\"one_for_all\" restarts a group: name it, e.g. group = \"payments\"", always: true)
        }
        if spec.group != nil && spec.strategy != .oneForAll && (isOwn("group") || isOwn("strategy")) {
            report("group", "is only used with strategy = \"one_for_all\"; add it, or leave group out", always: true)
        }
    }

    private mutating func liveness(_ value: ManifestValue) -> LivenessCheck? {
        guard let table = table(value, at: "liveness", example: "{ interval = \"5s\", timeout = \"1s\" }") else {
            return nil
        }
        for key in table.keys.sorted() where !ManifestKeys.liveness.contains(key) {
            report("liveness.\(key)", ManifestKeys.unknown(key, among: ManifestKeys.liveness))
        }
        var check = LivenessCheck()
        if let value = table["interval"], let interval = duration(value, at: "liveness.interval") {
            check.interval = interval
        }
        if let value = table["timeout"], let timeout = duration(value, at: "liveness.timeout") { check.timeout = timeout }
        if let value = table["failures"] {
            switch value {
            case .integer(let count) where count >= 1: check.failures = count
            case .integer: report("liveness.failures", "must be 1 or more")
            default: wrongType(value, at: "liveness.failures", "an integer", "1")
            }
        }
        return check
    }
}
