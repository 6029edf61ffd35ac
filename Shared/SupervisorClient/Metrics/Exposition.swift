import VerticalsWire

/// The Prometheus text exposition format (version 0.0.4), as far as `svc-supervisor metrics`
/// needs it: read a daemon's answer into metric families, add a `service` label to every
/// sample, and write several daemons' families back as one valid exposition, each family's
/// `# TYPE` line once and its samples together (the format requires both).
///
/// ```swift
/// var suite = Exposition()
/// try suite.add(Exposition.parse(clinicsText), service: "clinics")
/// try suite.add(Exposition.parse(recordsText), service: "records")
/// print(suite.text)
/// ```
public struct Exposition: Sendable, Equatable {
    /// One metric family: its name, type, help text and sample lines.
    public struct Family: Sendable, Equatable {
        /// The family's name (`verticals_requests_total`).
        public var name: String
        /// `counter`, `gauge`, `histogram`, `summary` or `untyped`.
        public var type: String
        /// The `# HELP` text, if any.
        public var help: String?
        /// Each sample: its metric name (`…_bucket` for a histogram), its labels in order, its value.
        public var samples: [Sample]

        /// Creates a family.
        public init(name: String, type: String, help: String? = nil, samples: [Sample] = []) {
            self.name = name
            self.type = type
            self.help = help
            self.samples = samples
        }
    }

    /// One sample line.
    public struct Sample: Sendable, Equatable {
        /// The sample's metric name.
        public var name: String
        /// Label names and values (unescaped), in order.
        public var labels: [(String, String)]
        /// The value as written (`1`, `0.25`, `+Inf`, `NaN`).
        public var value: String

        /// Creates a sample.
        public init(name: String, labels: [(String, String)], value: String) {
            self.name = name
            self.labels = labels
            self.value = value
        }

        public static func == (lhs: Sample, rhs: Sample) -> Bool {
            lhs.name == rhs.name && lhs.value == rhs.value && lhs.labels.elementsEqual(rhs.labels, by: ==)
        }
    }

    /// Why a text is not an exposition this reader accepts.
    ///
    /// Its ``code`` is `malformed`; the line is also the detail `line`.
    public struct ParseError: CodedError {
        /// What kind of problem it is.
        public typealias Code = ErrorKind<ParseError>

        /// The 1-based line.
        public let line: Int
        /// What is wrong with it.
        public let reason: String

        /// What kind of problem it is: always `malformed`.
        public var code: Code { .malformed }
        /// `line <line>: <reason>`.
        public var message: String { "line \(line): \(reason)" }
        /// The line, as the detail `line`.
        public var details: [ErrorDetail] { [ErrorDetail("line", String(line))] }
    }

    /// The families, in the order first met.
    public private(set) var families: [Family] = []
    /// Where each family sits in ``families``, by name: a merge of many families looks each up
    /// once, rather than searching them all (an exposition is what a vertical wrote, and may
    /// hold as many families as a frame does lines).
    private var positions: [String: Int] = [:]

    public static func == (lhs: Exposition, rhs: Exposition) -> Bool { lhs.families == rhs.families }

    /// The family named `name`, if any.
    public func family(named name: String) -> Family? {
        positions[name].map { families[$0] }
    }

    /// An empty exposition.
    public init() {}

    /// Adds `families`, every sample labelled `service="<service>"` first when a service is
    /// given; samples of a family already present join it (its type must agree).
    public mutating func add(_ families: [Family], service: String? = nil) throws(ParseError) {
        for family in families {
            let samples = family.samples.map { sample in
                guard let service else { return sample }
                return Sample(name: sample.name, labels: [("service", service)] + sample.labels, value: sample.value)
            }
            if let index = positions[family.name] {
                guard self.families[index].type == family.type else {
                    throw ParseError(
                        line: 0, reason: "\(family.name) is a \(self.families[index].type) and a \(family.type)")
                }
                self.families[index].samples += samples
            } else {
                positions[family.name] = self.families.count
                self.families.append(Family(name: family.name, type: family.type, help: family.help, samples: samples))
            }
        }
    }

    /// Adds `families` as they are; a family of a name already present (of the same type: the
    /// caller checked) joins it. ``SuiteExposition`` checks what it appends.
    mutating func append(_ families: [Family]) {
        for family in families {
            if let index = positions[family.name] {
                self.families[index].samples += family.samples
            } else {
                positions[family.name] = self.families.count
                self.families.append(family)
            }
        }
    }

    /// The exposition as text, ending in a newline.
    public var text: String {
        var out = ""
        for family in families {
            if let help = family.help, !help.isEmpty {
                out += "# HELP \(family.name) \(Self.escape(help, quote: false))\n"
            }
            out += "# TYPE \(family.name) \(family.type)\n"
            for sample in family.samples {
                out += sample.name
                if !sample.labels.isEmpty {
                    out += "{"
                    out += sample.labels.map { "\($0.0)=\"\(Self.escape($0.1, quote: true))\"" }.joined(separator: ",")
                    out += "}"
                }
                out += " \(sample.value)\n"
            }
        }
        return out
    }

    /// The families of `text`. A sample belongs to the family of the last `# TYPE` line whose
    /// name it is, or extends (`_bucket`, `_sum`, `_count`, `_total`, `_created`); a sample with
    /// no such line makes an `untyped` family of its own.
    public static func parse(_ text: String) throws(ParseError) -> [Family] {
        var families: [Family] = []
        var named: Set<String> = []
        var helps: [String: String] = [:]
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = Substring(rawLine)
            let number = offset + 1
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            if line.hasPrefix("#") {
                let words = line.dropFirst().split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
                guard words.count >= 2, words[0] == "TYPE" || words[0] == "HELP" else { continue }
                let name = String(words[1])
                guard isMetricName(name) else {
                    throw ParseError(line: number, reason: "\"\(name)\" is not a metric name")
                }
                if words[0] == "HELP" {
                    helps[name] = words.count > 2 ? String(words[2]) : ""
                    continue
                }
                let type = words.count > 2 ? String(words[2]) : ""
                guard ["counter", "gauge", "histogram", "summary", "untyped"].contains(type) else {
                    throw ParseError(line: number, reason: "\"\(type)\" is not a metric type")
                }
                guard named.insert(name).inserted else {
                    throw ParseError(line: number, reason: "a second # TYPE line for \(name)")
                }
                families.append(Family(name: name, type: type, help: helps[name]))
                continue
            }
            let sample = try parseSample(line, number: number)
            if let index = families.indices.last, belongs(sample.name, to: families[index].name) {
                families[index].samples.append(sample)
            } else if familyNames(of: sample.name).contains(where: named.contains) {
                throw ParseError(line: number, reason: "a sample of \(sample.name) apart from the rest of its family")
            } else {
                named.insert(sample.name)
                families.append(Family(name: sample.name, type: "untyped", help: helps[sample.name], samples: [sample]))
            }
        }
        return families
    }

    private static func belongs(_ sample: String, to family: String) -> Bool {
        guard sample.hasPrefix(family) else { return false }
        return sampleSuffixes.contains(String(sample.dropFirst(family.count)))
    }

    /// What a sample's name may add to its family's.
    private static let sampleSuffixes = ["", "_bucket", "_sum", "_count", "_total", "_created"]

    /// The names of the families sample `name` may belong to: itself, and itself without each
    /// suffix it ends in.
    private static func familyNames(of name: String) -> [String] {
        sampleSuffixes.compactMap { suffix in
            suffix.isEmpty ? name : name.hasSuffix(suffix) ? String(name.dropLast(suffix.count)) : nil
        }
    }

    private static func parseSample(_ line: Substring, number: Int) throws(ParseError) -> Sample {
        var rest = line[...]
        let name = String(rest.prefix { $0 != "{" && $0 != " " })
        guard isMetricName(name) else { throw ParseError(line: number, reason: "\"\(name)\" is not a metric name") }
        rest = rest.dropFirst(name.count)
        var labels: [(String, String)] = []
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let label = String(rest.prefix { $0 != "=" })
                guard isLabelName(label) else {
                    throw ParseError(line: number, reason: "\"\(label)\" is not a label name")
                }
                rest = rest.dropFirst(label.count)
                guard rest.hasPrefix("=\"") else {
                    throw ParseError(line: number, reason: "\(label) has no quoted value")
                }
                rest = rest.dropFirst(2)
                var value = ""
                var closed = false
                while let character = rest.popFirst() {
                    if character == "\"" {
                        closed = true
                        break
                    }
                    if character == "\\" {
                        switch rest.popFirst() {
                        case "\\": value.append("\\")
                        case "\"": value.append("\"")
                        case "n": value.append("\n")
                        default: throw ParseError(line: number, reason: "a bad escape in the value of \(label)")
                        }
                    } else {
                        value.append(character)
                    }
                }
                guard closed else { throw ParseError(line: number, reason: "the value of \(label) is not closed") }
                guard !labels.contains(where: { $0.0 == label }) else {
                    throw ParseError(line: number, reason: "label \(label) given twice")
                }
                labels.append((label, value))
                if rest.first == "," { rest = rest.dropFirst() }
                guard !rest.isEmpty else { throw ParseError(line: number, reason: "the labels are not closed") }
            }
            rest = rest.dropFirst()
        }
        guard rest.first == " " else { throw ParseError(line: number, reason: "no value after \(name)") }
        let fields = rest.split(separator: " ", omittingEmptySubsequences: true)
        guard (1...2).contains(fields.count), let value = fields.first, isValue(value) else {
            throw ParseError(line: number, reason: "\"\(rest.trimmingPrefix(" "))\" is not a value")
        }
        if fields.count == 2, Int64(fields[1]) == nil {
            throw ParseError(line: number, reason: "\"\(fields[1])\" is not a timestamp")
        }
        return Sample(name: name, labels: labels, value: String(value))
    }

    private static func isValue(_ text: Substring) -> Bool {
        ["+Inf", "-Inf", "NaN"].contains(text) || Double(text) != nil
    }

    package static func isMetricName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII,
            first.properties.isAlphabetic || first == "_" || first == ":"
        else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == ":")
        }
    }

    package static func isLabelName(_ name: String) -> Bool {
        isMetricName(name) && !name.contains(":")
    }

    /// `text` as a label value (`quote`) or HELP text is written: its other control characters
    /// and bidirectional controls shown through ``VisibleText`` (a daemon's text reaches a terminal
    /// and Prometheus with none), then `\`, a newline and (in a label value) `"` escaped.
    package static func escape(_ text: String, quote: Bool) -> String {
        let visible = text.split(separator: "\n", omittingEmptySubsequences: false).map { VisibleText.of($0) }
            .joined(separator: "\n")
        var out = ""
        for character in visible {
            switch character {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\"" where quote: out += "\\\""
            default: out.append(character)
            }
        }
        return out
    }
}

extension ErrorKind where Domain == Exposition.ParseError {
    /// A line is not what the Prometheus text format allows (a name, a label, a value, a family
    /// split apart).
    public static var malformed: Self { Self("malformed") }
}
