import VerticalsContract

/// The suite's exposition as `svc-supervisor metrics` merges it: the supervisor's families and
/// every daemon's own, in which the supervisor owns the `service` label and every family named
/// `verticals_service_…`. What a daemon writes can change nothing of that, nor stop another
/// daemon's metrics from printing:
///
/// - a daemon whose exposition does not parse adds nothing, and its
///   `verticals_service_scrape_up` is 0;
/// - a sample that sets `service` keeps its value as `exported_service` (Prometheus's own rule
///   for a target's conflicting label), or is dropped when that is set too;
/// - a family under the supervisor's prefix, a family another daemon gives with another type or
///   whose sample names overlap another family's, a histogram whose buckets do not add up, a
///   sample with a reserved `__` label, one named apart from its family, and a series given
///   twice are dropped;
/// - each is counted in `verticals_service_scrape_rewritten_samples{service,reason}`.
///
/// The text is valid Prometheus text whatever the daemons wrote.
///
/// ```swift
/// var suite = SuiteExposition()
/// suite.add("clinics", exposition: clinicsText)
/// suite.add("records", exposition: nil)  // did not answer
/// print(suite.merged(statuses).text)
/// ```
public struct SuiteExposition: Sendable {
    /// The prefix of every family the supervisor writes of its own.
    public static let supervisorPrefix = "verticals_service_"
    /// The label the supervisor sets on every sample: which service it came from.
    public static let serviceLabel = "service"
    /// Where a daemon's own `service` label goes (as Prometheus moves a target's conflicting label).
    public static let exportedServiceLabel = "exported_service"

    /// Why a daemon's sample was dropped or relabelled.
    public enum Rewrite: String, Sendable, CaseIterable, Comparable {
        /// It set `service`: relabelled `exported_service`, or dropped when that was set too.
        case serviceLabel = "service_label"
        /// Its family is named under the supervisor's prefix.
        case supervisorFamily = "supervisor_family"
        /// Its family is another daemon's with another type, or their sample names overlap.
        case conflictingFamily = "conflicting_family"
        /// Its histogram's buckets are not cumulative, lack `+Inf`, or disagree with `_count`.
        case invalidHistogram = "invalid_histogram"
        /// It has a label whose name starts with `__`, which Prometheus reserves.
        case reservedLabel = "reserved_label"
        /// Its name is not its family's (or a histogram's or summary's `_bucket`, `_sum`, `_count`).
        case misnamedSample = "misnamed_sample"
        /// The daemon gave the same series twice: the first is kept.
        case duplicateSeries = "duplicate_series"

        public static func < (lhs: Rewrite, rhs: Rewrite) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What the merge made: the text, and what it did to each daemon's exposition.
    public struct Merged: Sendable {
        /// The whole suite's exposition, valid Prometheus text.
        public let text: String
        /// The services whose exposition did not parse, with why.
        public let unparsed: [(service: String, reason: String)]
        /// Per service, how many samples were dropped or relabelled, by reason.
        public let rewritten: [String: [Rewrite: Int]]
    }

    /// Each daemon's answer, in the order added (nil: it did not answer).
    private var answers: [(service: String, exposition: String?)] = []

    /// An empty merge.
    public init() {}

    /// Adds `service`'s exposition text (`daemon.metrics`), or nil when it did not answer.
    public mutating func add(_ service: String, exposition: String?) {
        answers.append((service, exposition))
    }

    /// The merge: the supervisor's families for `services` first (they own their names), then
    /// each daemon's, then the count of what was rewritten.
    public func merged(
        _ services: [Supervisor.ServiceStatus], residentBytes: (Int) -> Int? = SuiteMetrics.residentBytes(pid:)
    ) -> Merged {
        var unparsed: [(String, String)] = []
        var parsed: [(service: String, families: [Exposition.Family])] = []
        var scraped: [String: Bool] = [:]
        for (service, text) in answers {
            guard let text else {
                scraped[service] = false
                continue
            }
            do {
                parsed.append((service, try Exposition.parse(text)))
                scraped[service] = true
            } catch {
                unparsed.append((service, "\(error)"))
                scraped[service] = false
            }
        }
        var suite = Exposition()
        suite.append(SuiteMetrics.supervisorFamilies(services, scraped: scraped, residentBytes: residentBytes))
        var owners = SampleOwners(suite.families)
        var rewritten: [String: [Rewrite: Int]] = [:]
        for (service, families) in parsed {
            var counts: [Rewrite: Int] = [:]
            for family in families {
                if let kept = Self.admit(family, service: service, owners: owners, counts: &counts) {
                    suite.append([kept])
                    owners.add(kept)
                }
            }
            if !counts.isEmpty { rewritten[service] = counts }
        }
        suite.append([Self.rewrittenFamily(rewritten)])
        return Merged(text: suite.text, unparsed: unparsed, rewritten: rewritten)
    }

    /// `family` of `service` as it may join `suite`: labelled with its service, its samples
    /// cleaned; nil when the whole family is dropped. Every change is counted in `counts`.
    static func admit(
        _ family: Exposition.Family, service: String, owners: SampleOwners, counts: inout [Rewrite: Int]
    ) -> Exposition.Family? {
        func drop(_ reason: Rewrite, _ count: Int = 1) { counts[reason, default: 0] += count }
        let names = sampleNames(of: family)
        if family.name.hasPrefix(supervisorPrefix) || names.contains(where: { $0.hasPrefix(supervisorPrefix) }) {
            drop(.supervisorFamily, family.samples.count)
            return nil
        }
        if owners.conflict(family, names: names) {
            drop(.conflictingFamily, family.samples.count)
            return nil
        }
        var kept = Exposition.Family(name: family.name, type: family.type, help: family.help)
        var series = Set<String>()
        for sample in family.samples {
            guard names.contains(sample.name) else {
                drop(.misnamedSample)
                continue
            }
            guard !sample.labels.contains(where: { $0.0.hasPrefix("__") }) else {
                drop(.reservedLabel)
                continue
            }
            var labels = sample.labels
            if let index = labels.firstIndex(where: { $0.0 == serviceLabel }) {
                drop(.serviceLabel)
                guard !labels.contains(where: { $0.0 == exportedServiceLabel }) else { continue }
                labels[index].0 = exportedServiceLabel
            }
            let key =
                sample.name + "\u{0}"
                + labels.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: "\u{0}")
            guard series.insert(key).inserted else {
                drop(.duplicateSeries)
                continue
            }
            kept.samples.append(
                .init(name: sample.name, labels: [(serviceLabel, service)] + labels, value: sample.value))
        }
        if family.type == "histogram", !HistogramCheck.isValid(kept) {
            drop(.invalidHistogram, kept.samples.count)
            return nil
        }
        return kept.samples.isEmpty ? nil : kept
    }

    /// The families merged so far, by name and by each sample name they may have: whether a
    /// family may join is a few lookups, however many joined before it.
    struct SampleOwners {
        private var types: [String: String] = [:]
        /// Each sample name, with the name of the family that may have it.
        private var owners: [String: String] = [:]

        init(_ families: [Exposition.Family]) {
            for family in families { add(family) }
        }

        mutating func add(_ family: Exposition.Family) {
            types[family.name] = family.type
            for name in SuiteExposition.sampleNames(of: family) { owners[name] = family.name }
        }

        /// Whether `family` (whose sample names are `names`) clashes with one merged before: one
        /// of its name with another type, or another family whose sample names overlap its own.
        func conflict(_ family: Exposition.Family, names: Set<String>) -> Bool {
            if let type = types[family.name], type != family.type { return true }
            return names.contains { name in owners[name].map { $0 != family.name } ?? false }
        }
    }

    /// The sample names a family of its type may have.
    static func sampleNames(of family: Exposition.Family) -> Set<String> {
        switch family.type {
        case "histogram": [family.name + "_bucket", family.name + "_sum", family.name + "_count"]
        case "summary": [family.name, family.name + "_sum", family.name + "_count"]
        default: [family.name]
        }
    }

    /// `verticals_service_scrape_rewritten_samples`: per service and reason, the samples dropped or relabelled.
    static func rewrittenFamily(_ rewritten: [String: [Rewrite: Int]]) -> Exposition.Family {
        var family = Exposition.Family(
            name: supervisorPrefix + "scrape_rewritten_samples", type: "gauge",
            help:
                "Samples of the service's exposition the supervisor dropped or relabelled at the last scrape, by reason."
        )
        for service in rewritten.keys.sorted() {
            for (reason, count) in rewritten[service, default: [:]].sorted(by: { $0.key < $1.key }) {
                family.samples.append(
                    .init(
                        name: family.name, labels: [(serviceLabel, service), ("reason", reason.rawValue)],
                        value: "\(count)"))
            }
        }
        return family
    }
}
