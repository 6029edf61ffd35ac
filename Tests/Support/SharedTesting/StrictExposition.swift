/// A strict reader of the Prometheus text exposition format (0.0.4), written apart from the
/// supervisor's own ``Exposition`` so that a test checks its output against the format, not
/// against itself. It refuses what Prometheus would: a bad metric or label name, a bad escape
/// or value, a family's `# TYPE` line twice or after its samples, a family's samples split
/// apart, a sample series twice, and histograms whose buckets do not rise to a `+Inf` bucket
/// equal to `_count`.
public struct StrictExposition {
    /// One sample: name, labels sorted by name, value.
    public struct Sample: Hashable {
        public let name: String
        public let labels: [String: String]
        public let value: Double
    }

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public private(set) var types: [String: String] = [:]
    public private(set) var samples: [Sample] = []

    public init(_ text: String) throws {
        guard text.isEmpty || text.hasSuffix("\n") else {
            throw Invalid(description: "the text does not end in a newline")
        }
        var finished: Set<String> = []
        var current: String?
        var series: Set<String> = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().enumerated() {
            let where_ = "line \(index + 1) \"\(line)\""
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                guard parts.count == 4, Self.isName(parts[2]),
                    ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3])
                else { throw Invalid(description: "\(where_): bad TYPE line") }
                let name = String(parts[2])
                guard types[name] == nil else { throw Invalid(description: "\(where_): second TYPE for \(name)") }
                if let current { finished.insert(current) }
                types[name] = String(parts[3])
                current = name
                continue
            }
            if line.hasPrefix("#") { continue }
            let sample = try Self.sample(line, where_)
            let family = Self.family(of: sample.name, types: types)
            guard let family, types[family] != nil else {
                throw Invalid(description: "\(where_): sample before or without its TYPE line")
            }
            guard family == current, !finished.contains(family) else {
                throw Invalid(description: "\(where_): sample of \(family) apart from its family")
            }
            let key = sample.name + sample.labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined()
            guard series.insert(key).inserted else { throw Invalid(description: "\(where_): the same series twice") }
            samples.append(sample)
        }
        try checkHistograms()
    }

    /// The value of the one sample named `name` whose labels include `labels`.
    public func value(_ name: String, _ labels: [String: String]) -> Double? {
        let matches = samples.filter { sample in
            sample.name == name && labels.allSatisfy { key, value in sample.labels[key] == value }
        }
        return matches.count == 1 ? matches[0].value : nil
    }

    private func checkHistograms() throws {
        for (name, type) in types where type == "histogram" {
            var groups: [[String: String]: [(Double, Double)]] = [:]
            for sample in samples where sample.name == name + "_bucket" {
                guard let bound = sample.labels["le"], let le = bound == "+Inf" ? .infinity : Double(bound) else {
                    throw Invalid(description: "\(name)_bucket without a valid le label")
                }
                var labels = sample.labels
                labels["le"] = nil
                groups[labels, default: []].append((le, sample.value))
            }
            for (labels, buckets) in groups {
                let sorted = buckets.sorted { $0.0 < $1.0 }
                guard sorted.last?.0 == .infinity else {
                    throw Invalid(description: "\(name)\(labels): no +Inf bucket")
                }
                guard zip(sorted, sorted.dropFirst()).allSatisfy({ $0.1 <= $1.1 }) else {
                    throw Invalid(description: "\(name)\(labels): buckets are not cumulative")
                }
                guard let count = value(name + "_count", labels), count == sorted.last?.1,
                    value(name + "_sum", labels) != nil
                else { throw Invalid(description: "\(name)\(labels): _count or _sum missing or not the +Inf bucket") }
            }
        }
    }

    private static func family(of sample: String, types: [String: String]) -> String? {
        if types[sample] != nil { return sample }
        for suffix in ["_bucket", "_sum", "_count"] where sample.hasSuffix(suffix) {
            let base = String(sample.dropLast(suffix.count))
            if types[base] == "histogram" || types[base] == "summary" { return base }
        }
        return nil
    }

    private static func isName(_ text: Substring, colon: Bool = true) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter || first == "_" || (colon && first == ":") else {
            return false
        }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || (colon && $0 == ":")) }
    }

    private static func sample(_ line: Substring, _ where_: String) throws -> Sample {
        var rest = line
        let name = rest.prefix { $0 != "{" && $0 != " " }
        guard isName(name) else { throw Invalid(description: "\(where_): bad metric name") }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let label = rest.prefix { $0 != "=" }
                guard isName(label, colon: false), !label.hasPrefix("__") else {
                    throw Invalid(description: "\(where_): bad label name")
                }
                rest = rest.dropFirst(label.count)
                guard rest.hasPrefix("=\"") else { throw Invalid(description: "\(where_): label value not quoted") }
                rest = rest.dropFirst(2)
                var value = ""
                while true {
                    guard let character = rest.popFirst() else {
                        throw Invalid(description: "\(where_): open label value")
                    }
                    if character == "\"" { break }
                    if character == "\\" {
                        switch rest.popFirst() {
                        case "\\": value += "\\"
                        case "\"": value += "\""
                        case "n": value += "\n"
                        default: throw Invalid(description: "\(where_): bad escape")
                        }
                    } else {
                        value.append(character)
                    }
                }
                guard labels.updateValue(value, forKey: String(label)) == nil else {
                    throw Invalid(description: "\(where_): label twice")
                }
                if rest.first == "," {
                    rest = rest.dropFirst()
                } else if rest.first != "}" {
                    throw Invalid(description: "\(where_): labels not separated by commas")
                }
            }
            rest = rest.dropFirst()
        }
        let fields = rest.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3, fields[0].isEmpty else {
            throw Invalid(description: "\(where_): expected one space, a value and an optional timestamp")
        }
        let text = fields[1]
        let value: Double? =
            text == "+Inf" ? .infinity : text == "-Inf" ? -.infinity : text == "NaN" ? .nan : Double(text)
        guard let value, fields.count == 2 || Int64(fields[2]) != nil else {
            throw Invalid(description: "\(where_): bad value or timestamp")
        }
        return Sample(name: String(name), labels: labels, value: value)
    }
}
