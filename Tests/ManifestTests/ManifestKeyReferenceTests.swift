import Testing
import VerticalsManifest
import VerticalsTesting
import VerticalsSharedTesting

/// docs/reference/manifest.md is written from ``ManifestKeyReference``: a key the decoder takes and
/// the table lacks, or a row for a key the decoder refuses, fails here.
struct ManifestKeyReferenceTests {
    /// Every key the decoder takes, dotted for a nested table's: its own lists of known keys.
    static let decoderKeys: Set<String> = {
        var keys = Set(ManifestKeys.service)
        for (table, nested) in [
            ("backoff", ManifestKeys.backoff), ("budget", ManifestKeys.budget), ("liveness", ManifestKeys.liveness),
            ("limits", ManifestKeys.limits), ("logs", ManifestKeys.logs), ("replica", ManifestKeys.replica),
        ] {
            keys.formUnion(nested.map { "\(table).\($0)" })
        }
        return keys
    }()

    @Test func theTable_listsEveryKeyTheDecoderTakes_andNoOther() {
        let documented = ManifestKeyReference.keys.map(\.path)
        #expect(Set(documented).count == documented.count, "a key listed twice")
        let missing = Self.decoderKeys.subtracting(documented).sorted()
        #expect(missing.isEmpty, "keys the decoder takes that ManifestKeyReference lacks: \(missing)")
        let extra = Set(documented).subtracting(Self.decoderKeys).sorted()
        #expect(extra.isEmpty, "keys ManifestKeyReference lists that the decoder refuses: \(extra)")
        #expect(ManifestKeyReference.keys.allSatisfy { !$0.type.isEmpty && !$0.doc.isEmpty })
    }

    /// The decoder's reads name their key (`at: "backoff.initial"`): each one is in the table too,
    /// so a key read without being added to ``ManifestKeys`` is caught as well.
    @Test func everyKeyTheDecoderReads_isInTheTable() throws {
        let documented = Set(ManifestKeyReference.keys.map(\.path))
        var read: Set<String> = []
        for file in [
            "ServiceDecoder.swift", "ServiceDecoder+Limits.swift", "ServiceDecoder+Start.swift",
            "ServiceDecoder+Supervision.swift", "ServiceDecoder+Replica.swift",
        ] {
            let path = ManifestFixture.repositoryRoot + "/Shared/Supervisor/Manifest/" + file
            let text = try #require(readFile(path), "cannot read \(path)")
            for match in text.matches(of: try Regex(#"at: "([a-z_.]+)""#)) {
                if let key = match.output[1].substring { read.insert(String(key)) }
            }
        }
        #expect(read.count > 30, "the scan found \(read.count) keys: it no longer reads the decoder")
        #expect(
            read.subtracting(documented).isEmpty,
            "keys the decoder reads that the table lacks: \(read.subtracting(documented).sorted())")
    }

    @Test func thePage_hasOneRowPerKey_withTheModelsDefaults() {
        let page = ManifestKeyReference.markdown()
        let rows = page.split(separator: "\n").filter { $0.hasPrefix("| `") }
        #expect(rows.count == ManifestKeyReference.keys.count)
        #expect(rows.contains { $0.hasPrefix("| `backoff.initial` | duration | `\"100ms\"` |") })
        #expect(
            rows.contains {
                $0.hasPrefix("| `restart` | `\"always\"`, `\"on-failure\"`, `\"never\"` | `\"on-failure\"` |")
            })
    }
}
