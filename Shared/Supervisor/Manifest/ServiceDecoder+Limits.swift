import VerticalsManifest

// The `limits` table: rlimits, niceness and cgroup limits.
extension ServiceDecoder {
    /// The `limits` table.
    mutating func limits(_ value: ManifestValue) -> ResourceLimits {
        var limits = ResourceLimits()
        guard
            let table = nestedTable(
                value, at: "limits", keys: ManifestKeys.limits,
                example: "{ open_files = 1024, memory = \"256MiB\", nice = 5 }")
        else { return limits }
        if let value = table["open_files"] {
            limits.openFiles = count(value, at: "limits.open_files", in: 1...(1 << 30))
        }
        if let value = table["data"] { limits.dataBytes = byteCount(value, at: "limits.data") }
        if let value = table["core"] {
            limits.coreBytes = value == .integer(0) ? 0 : byteCount(value, at: "limits.core")
        }
        if let value = table["cpu_seconds"] {
            limits.cpuSeconds = count(value, at: "limits.cpu_seconds", in: 1...(1 << 40))
        }
        if let value = table["nice"] { limits.nice = count(value, at: "limits.nice", in: -20...19) }
        if let value = table["memory"] {
            limits.memoryBytes = byteCount(value, at: "limits.memory")
            if let bytes = limits.memoryBytes, bytes < 4 << 20 {
                report("limits.memory", "is below 4MiB, too little for any program to start; e.g. memory = \"256MiB\"")
                limits.memoryBytes = nil
            }
        }
        if let value = table["cpu"] { limits.cpuPercent = percent(value) }
        if let value = table["cpu_weight"] { limits.cpuWeight = count(value, at: "limits.cpu_weight", in: 1...10_000) }
        if let value = table["tasks"] { limits.tasks = count(value, at: "limits.tasks", in: 1...4_194_304) }
        return limits
    }

    /// An integer within `range`, or a problem at `key`.
    mutating func count(_ value: ManifestValue, at key: String, in range: ClosedRange<Int>) -> Int? {
        guard case .integer(let number) = value else {
            wrongType(value, at: key, "an integer", "\(max(range.lowerBound, 0))")
            return nil
        }
        guard range.contains(number) else {
            report(key, "must be from \(range.lowerBound) to \(range.upperBound), not \(number)")
            return nil
        }
        return number
    }

    private mutating func percent(_ value: ManifestValue) -> Int? {
        guard case .string(let text) = value, text.hasSuffix("%"), let number = Int(text.dropLast()) else {
            wrongType(value, at: "limits.cpu", "a percentage of one CPU", "\"50%\"")
            return nil
        }
        guard number >= 1 && number <= 100_000 else {
            report("limits.cpu", "must be from \"1%\" to \"100000%\" of one CPU, not \"\(text)\"")
            return nil
        }
        return number
    }
}
