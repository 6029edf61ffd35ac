import Foundation
import VerticalsContractTesting

/// Each Swift target of the package declares the modules it imports, and nothing else: a module
/// imported without being declared builds only while another target happens to bring it, and a
/// module declared but never imported is built and linked for nothing.
///
/// Imports are read from the target's Swift files outside string literals and comments (a
/// template's `import` is text, not an import). A dependency that is a program (a daemon or tool
/// a test starts) or a plugin is there for the build order, not to be imported.
enum DependencyUse {
    /// Modules of the toolchain and the system, which no target declares.
    static let system: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc", "Musl", "Darwin", "Dispatch",
        "Synchronization", "Testing", "XCTest", "PackagePlugin", "_Concurrency",
    ]

    /// One target whose imports and dependencies differ.
    struct Mismatch: Equatable, CustomStringConvertible {
        var target: String
        var undeclared: [String]
        var unused: [String]

        var description: String {
            var parts: [String] = []
            if !undeclared.isEmpty {
                parts.append("imports \(undeclared.joined(separator: ", ")) without declaring it")
            }
            if !unused.isEmpty { parts.append("declares \(unused.joined(separator: ", ")) and imports none of it") }
            return "\(target): " + parts.joined(separator: "; ")
        }
    }

    /// Every Swift target of `graph` whose imports (its files under `root`) and declared
    /// dependencies differ.
    static func mismatches(_ graph: PackageGraph, root: String) -> [Mismatch] {
        graph.targets.compactMap { target in
            guard graph.types[target.name] != "plugin" else { return nil }
            let sources = swiftFiles(under: "\(root)/\(target.path)")
            guard !sources.isEmpty else { return nil }
            let imported = Set(
                sources.flatMap { imports(in: (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "") })
            return mismatch(target, imported: imported, types: graph.types)
        }
    }

    /// The mismatch of `target`, which imports `imported`; nil when there is none. `types` are
    /// the package's target types (`executable`, `plugin`, …).
    static func mismatch(_ target: VerticalRule.Target, imported: Set<String>, types: [String: String]) -> Mismatch? {
        let forBuildOrder = { (name: String) in ["executable", "plugin"].contains(types[name] ?? "") }
        let declared = Set(target.dependencies.map(moduleName))
        let undeclared = imported.subtracting(declared).subtracting(system).subtracting([target.name]).sorted()
        let unused = target.dependencies.filter { !imported.contains(moduleName($0)) && !forBuildOrder($0) }.sorted()
        guard !undeclared.isEmpty || !unused.isEmpty else { return nil }
        return Mismatch(target: target.name, undeclared: undeclared, unused: unused)
    }

    /// The module a target builds, as code imports it: its name with each `-` as `_` (a test
    /// imports the program `vt-fuzz-live` as `vt_fuzz_live`).
    static func moduleName(_ target: String) -> String {
        String(target.map { $0 == "-" ? "_" : $0 })
    }

    /// The modules `source` imports: `import M`, `@testable import M`, `import struct M.T`, on a
    /// line of code outside a comment or a multi-line string literal.
    static func imports(in source: String) -> [String] {
        var modules: [String] = []
        var inString = false
        var inComment = false
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = line.trimmingCharacters(in: .whitespaces)
            if inComment {
                if text.contains("*/") { inComment = false }
                continue
            }
            // A multi-line literal opens and closes with `"""` (`#"""`, `"""#` when raw), each alone at
            // the end or start of its line.
            if inString {
                if text.hasPrefix("\"\"\"") { inString = false }
                continue
            }
            if text.hasSuffix("\"\"\"") || text.hasSuffix("#\"\"\"") || text.hasSuffix("##\"\"\"") {
                inString = true
                continue
            }
            if text.hasPrefix("/*") {
                inComment = !text.contains("*/")
                continue
            }
            if let module = importedModule(text) { modules.append(module) }
        }
        return modules
    }

    /// The module a line of code imports, or nil when it is no import.
    static func importedModule(_ line: String) -> String? {
        var words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        while let first = words.first,
            first.hasPrefix("@") || ["public", "package", "internal", "private"].contains(first)
        {
            words.removeFirst()
        }
        guard words.first == "import", words.count >= 2 else { return nil }
        let kinds: Set = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias", "actor"]
        let path = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
        let module = String(path.prefix { $0 != "." })
        return module.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !module.isEmpty ? module : nil
    }

    private static func swiftFiles(under folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { "\(folder)/\($0)" }
    }
}
