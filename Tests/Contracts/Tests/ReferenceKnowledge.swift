import Foundation
import VerticalsContractTesting

/// What names the reference suite in the framework's code and tests: a vertical's name as a
/// string, its daemon or user, its types and settings, a user-model field. The word list is the
/// reference suite's own, so it lives beside its contract tests, never in a framework target.
enum ReferenceKnowledge {
    /// What in `line` of framework code names the reference suite, or nil. Comments may show the
    /// example. In a test (`inTest`), a vertical's name also may not open a string, a path's part
    /// or an address (`"clinics.nearest"`, `/run/verticals/identity.sock`, `tcp:identity.internal`):
    /// a test's strings are its fixtures, where the framework's code keeps examples in help text.
    static func match(in line: String, inTest: Bool = false) throws -> String? {
        let code = line.trimmingCharacters(in: .whitespaces)
        // A command's own name (`svc-supervisor password`) is the CLI's word, not a field.
        guard !code.hasPrefix("//"), !code.hasPrefix("*"), !code.hasPrefix("/*"), !code.hasPrefix("commandName:") else { return nil }
        let names = "identity|clinics|appointments|records|notifications"
        let types = "Identity|Clinics|Appointments|Records|Notifications"
        for pattern in [
            "\"(\(names))\"", "\\b(svc|verticals)-(\(names))\\b", "\\b(\(types))(Service)?\\.\\w", "\\b(\(types))Service\\b",
            "\\b(\(names.uppercased()))_[A-Z]", "\"(email|password|displayName|role|roles)\"", "\\bemail\\b",
        ] + (inTest ? ["[\"/:](\(names))\\b"] : []) {
            // Simple word boundaries: Unicode's keep `records.sock` one word, so `\b` would not end `records`.
            if let match = line.firstMatch(of: try Regex(pattern).wordBoundaryKind(.simple)) { return String(line[match.range]) }
        }
        return nil
    }

    /// Every line of the Swift and contract files of `targets` (their paths relative to `root`)
    /// that names the reference suite, as `path:line: what`; `inTest`: they are tests (``match(in:inTest:)``).
    static func lines(in targets: [VerticalRule.Target], root: String, inTest: Bool = false) throws -> [String] {
        var found: [String] = []
        for target in targets {
            let folder = "\(root)/\(target.path)"
            let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
            for file in files.sorted() where file.hasSuffix(".swift") || file.hasSuffix(".vcontract") {
                let text = (try? String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8)) ?? ""
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    if let hit = try match(in: String(line), inTest: inTest) {
                        found.append("\(target.path)/\(file):\(number + 1): \(hit)")
                    }
                }
            }
        }
        return found
    }
}
