import Testing
import VerticalsSharedTesting
import VerticalsTesting

/// Every table a long-lived process keeps per peer input is a `BoundedCache`, which forgets the
/// least recently used entry once full, so no sequence of distinct inputs grows it.
///
/// The rule it reads by: in the files that take in what a peer sends and keep something of it
/// (``folders``, ``files``), a stored `Dictionary` or `Set` (a property of a type, four spaces in,
/// or any table in a `Mutex`) is a `BoundedCache`, or carries on its line or the line above a
/// reviewed reason: a comment beginning `// bounded:` that says what bounds it.
@Suite struct PeerKeyedCacheRuleTests {
    /// The folders whose files handle a peer's bytes and keep something of them.
    static let folders = [
        "Shared/ServiceKit/Host/Builtins", "Shared/Client/Calling", "Shared/SupervisorCommands/Learned",
    ]
    /// Files elsewhere that do.
    static let files = ["Shared/ServiceKit/Host/HostCensus.swift"]

    @Test func everyTableKeptPerPeerInput_isABoundedCache_orSaysWhatBoundsIt() {
        let root = ManifestFixture.repositoryRoot
        let paths = SourceTree.swiftFiles(in: Self.folders, files: Self.files, moreThan: 20)
        var found: [String] = []
        for path in paths {
            found += Self.unboundedTables(in: readFile(path) ?? "").map { "\(path.dropFirst(root.count + 1)):\($0)" }
        }
        #expect(
            found.isEmpty,
            "keep it in a BoundedCache, or say what bounds it (`// bounded: …`):\n\(found.joined(separator: "\n"))")
    }

    @Test func theScan_findsATableKeptWithoutABound_andPassesOneThatSaysWhy() {
        let text = """
            final class Census {
                private let byCaller = Mutex<[String: Int]>([:])
                private var seen: Set<String> = []
                // bounded: one entry per callee this build declares
                private var channels: [String: Channel] = [:]
                private let kept = Mutex(BoundedCache<[String], String>(capacity: 64))
                func f() {
                    var local: [String: Int] = [:]
                    let known = Mutex<[[String]: String]>([:])
                }
            }
            """
        #expect(Self.unboundedTables(in: text) == ["2", "3", "9"])
    }

    @Test func theRule_failsOnTheTableContractCheckKeptBefore() {
        // The callee's table of checked sets as it was: a Mutex over a Dictionary, never evicting.
        let before = """
                    let known = Mutex<[[String]: (fingerprint: String, description: Daemon.Description)]>([:])
            """
        #expect(Self.unboundedTables(in: before) == ["1"])
    }

    /// The line numbers of the tables `text` keeps without a bound.
    static func unboundedTables(in text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var found: [String] = []
        for (index, line) in lines.enumerated() {
            guard isKeptTable(line) else { continue }
            let reasoned =
                line.contains("// bounded:")
                || (index > 0 && lines[index - 1].drop { $0 == " " }.hasPrefix("// bounded:"))
            if !reasoned { found.append("\(index + 1)") }
        }
        return found
    }

    /// Whether `line` declares a stored `Dictionary` or `Set`: a property four spaces in, or a
    /// table in a `Mutex` at any depth. A computed property (`{` after the type) is not stored.
    static func isKeptTable(_ line: Substring) -> Bool {
        let trimmed = line.drop { $0 == " " }
        guard !trimmed.hasPrefix("//"), !line.contains("BoundedCache") else { return false }
        let isTable = { (text: Substring) -> Bool in
            text.contains("Set<") || text.contains("Dictionary<") || text.contains("[:]")
                || text.firstMatch(of: #/\[(\[[\w.]+\]|[\w.]+(<[^>]*>)?): /#) != nil
        }
        if line.contains("Mutex<") || line.contains("Mutex(") {
            return isTable(line)
        }
        let indent = line.prefix { $0 == " " }.count
        let modifiers: Set<Substring> = ["private", "fileprivate", "public", "package", "internal", "static"]
        let words = trimmed.split(separator: " ").drop { $0.hasPrefix("@") || modifiers.contains($0) }
        guard indent == 4, let first = words.first, first == "let" || first == "var" else { return false }
        if line.hasSuffix("{") { return false }
        return isTable(line)
    }
}
