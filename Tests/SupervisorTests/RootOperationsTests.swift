import Glibc
import Testing
import VerticalsTesting
import VerticalsSharedTesting

/// docs/SECURITY.md lists, by the function that performs it, every operation the supervisor
/// needs root for after start-up: a change of owner, of identity, a signal to another user's
/// process, a cgroup file, a start as another user. A new one in the supervisor's sources that
/// the list does not name fails here, and so does a listed one that is gone.
@Suite struct RootOperationsTests {
    /// The supervisor's sources and the libraries it runs root's work through.
    static let folders = [
        "Shared/Supervisor", "Shared/Storage", "Shared/SupervisorClient", "Services/Supervisor/svc-supervisor-engine",
        "Services/Supervisor/svc-supervisor",
    ]
    /// Calls that need root, or act for another user.
    static let calls = [
        "chown", "fchown", "fchownat", "lchown", "setuid", "setgid", "seteuid", "setegid", "setresuid", "setresgid",
        "setgroups", "vt_thread_setgroups", "setfsuid", "setfsgid", "setUser", "setGroup", "kill", "killpg", "mount",
        "umount", "umount2", "prctl", "unshare", "setns", "chroot",
    ]
    /// Text that names a privileged file or option: cgroup files, vt-exec's user switch.
    static let literals = [
        "cgroup.procs", "cgroup.kill", "memory.max", "cpu.max", "cgroup.subtree_control", "\"--user\"",
    ]

    @Test func everyPrivilegedOperation_isListedInSecurityMD_byItsFunction() throws {
        let root = ManifestFixture.repositoryRoot
        let section = Self.section(readFile("\(root)/docs/SECURITY.md") ?? "")
        #expect(!section.isEmpty, "docs/SECURITY.md has a section \"What runs as root\"")
        let found = Set(
            SourceTree.swiftFiles(in: Self.folders, moreThan: 10).flatMap { file in
                Self.privilegedFunctions(in: readFile(file) ?? "").map {
                    "`\($0)` in `\(file.split(separator: "/").last ?? "")`"
                }
            })
        #expect(found.count > 10, "the scan found the supervisor's privileged functions: \(found.sorted())")
        let listed = Set(Self.listed(in: section))
        let unlisted = found.subtracting(listed).sorted()
        #expect(
            unlisted.isEmpty,
            "list these in docs/SECURITY.md, What runs as root, with what they do:\n\(unlisted.joined(separator: "\n"))"
        )
        let gone = listed.subtracting(found).sorted()
        #expect(gone.isEmpty, "docs/SECURITY.md lists what the sources no longer do:\n\(gone.joined(separator: "\n"))")
    }

    @Test func theScan_namesTheEnclosingFunction_andSkipsComments() {
        let text = """
            enum Example {
                /// kill(pid) in a doc comment is prose
                static func stop(_ pid: Int32) {
                    func helper() {}
                    kill(-pid, SIGTERM)
                    unit.child?.kill(SIGTERM)
                }
                static func quiet() { _ = 1 }
                var options: [String] { ["--user", "1"] }
            }
            """
        #expect(Self.privilegedFunctions(in: text) == ["stop", "options"])
    }

    /// The functions (and computed properties) of `text` that make a call of ``calls`` or name
    /// one of ``literals``, outside comments; a nested function counts as the one around it.
    static func privilegedFunctions(in text: String) -> [String] {
        var current: String?
        var found: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            guard !trimmed.hasPrefix("//") else { continue }
            let indent = line.count - trimmed.count
            if indent <= 4, let name = declaredName(in: String(trimmed)) { current = name }
            let code = String(line)
            let privileged =
                literals.contains { code.contains($0) } || calls.contains { call in isCall(call, in: code) }
            if privileged, let current, !found.contains(current) { found.append(current) }
        }
        return found
    }

    /// The name a `func`, `init` or `var` line declares.
    static func declaredName(in line: String) -> String? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == "<" || $0 == ":" })
        for (index, word) in words.enumerated() {
            if word == "init" { return "init" }
            if word == "func" || word == "var", index + 1 < words.count { return String(words[index + 1]) }
        }
        return nil
    }

    /// Whether `code` calls the free function `call` (not a method of that name).
    static func isCall(_ call: String, in code: String) -> Bool {
        var rest = Substring(code)
        while let range = rest.range(of: call + "(") {
            let before = rest[..<range.lowerBound].last
            if before.map({ !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }) ?? true { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }

    /// SECURITY.md's section "What runs as root".
    static func section(_ text: String) -> String {
        guard let start = text.range(of: "\n## What runs as root") else { return "" }
        let rest = text[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    /// Every "`function` in `File.swift`" that starts a row of the section's table.
    static func listed(in section: String) -> [String] {
        section.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| `"), let end = line.range(of: ".swift`") else { return nil }
            let cell = line[line.index(line.startIndex, offsetBy: 2)..<end.upperBound]
            return cell.contains("` in `") ? String(cell) : nil
        }
    }
}
