import Glibc
import Testing
import VerticalsContract
import VerticalsSettings
import VerticalsSupervisorClient
import VerticalsTesting
import VerticalsSharedTesting

/// Configuration is declared once: a program reads a `VERTICALS_*`, `OTEL_*` or product variable
/// only through its module's settings declaration (a file that builds a `SettingsDeclaration`), and
/// every declared setting says what it does. Adding a variable anywhere else fails here, and the
/// generated ENVIRONMENT reference lists every declared one.
@Suite struct SettingsRuleTests {
    /// The folders whose Swift sources build the programs, relative to the repository's root.
    static let sourceFolders = ["Shared", "Services"]

    @Test func noSourceFile_namesAVariable_outsideADeclarationFile() {
        let root = ManifestFixture.repositoryRoot
        let prefixes = Self.variablePrefixes(root: root)
        #expect(prefixes.count > 2, "the product prefixes come from the folders under Services/: \(prefixes)")
        let files = SourceTree.swiftFiles(in: Self.sourceFolders, moreThan: 100)
        let declarations = files.filter { Self.isDeclaration(readFile($0) ?? "") }
        #expect(
            declarations.count >= 3, "the daemons', the supervisor's and the verticals' declarations: \(declarations)")
        var found: [String] = []
        for file in files where !declarations.contains(file) {
            found += Self.variableLiterals(in: readFile(file) ?? "", prefixes: prefixes).map {
                "\(file.dropFirst(root.count + 1)):\($0.line): \($0.name)"
            }
        }
        #expect(
            found.isEmpty,
            "declare these in the module's settings file and read them through it:\n\(found.joined(separator: "\n"))")
    }

    @Test func theScan_findsAVariableLiteral_butNotOneInAComment() {
        let text = """
            // environment["VERTICALS_IN_A_COMMENT"] is prose
            let limit = environment["VERTICALS_NEW_LIMIT"].flatMap { Int($0) }
            let message = "set VERTICALS_SOCKET_DIR to a shorter folder"
            let seeded = environment["ACME_SEED"]
            """
        let found = Self.variableLiterals(in: text, prefixes: ["VERTICALS_", "ACME_"])
        #expect(found.map(\.name) == ["VERTICALS_NEW_LIMIT", "ACME_SEED"])
        #expect(found.map(\.line) == [2, 4])
    }

    @Test func everyDeclaredSetting_hasADoc_andOneName() {
        let entries = DaemonSettings.declaration.entries + SupervisorSettings.declaration.entries
        for entry in entries {
            #expect(!entry.doc.isEmpty, "\(entry.name) says nothing of what it does")
            #expect(!entry.allowed.isEmpty && !entry.defaultText.isEmpty, "\(entry.name) lacks its range or default")
        }
        let names = DaemonSettings.declaration.entries.map(\.name)
        #expect(Set(names).count == names.count, "a variable declared twice: \(names)")
        let root = ManifestFixture.repositoryRoot
        for file in Self.sourceFolders.flatMap({ SourceTree.swiftFiles(under: "\(root)/\($0)") }) {
            let text = readFile(file) ?? ""
            guard Self.isDeclaration(text) else { continue }
            #expect(
                Self.undocumented(in: text).isEmpty, "\(file): a setting without a doc: \(Self.undocumented(in: text))")
        }
    }

    @Test func theDocCheck_findsASettingWithoutADoc() {
        let text = """
            static let good = Setting.integer("A_ONE", default: 1, in: 1...2, doc: "What it does.")
            static let bad = Setting.integer(
                "A_TWO", default: 1, in: 1...2, doc: "")
            """
        #expect(Self.undocumented(in: text) == ["A_TWO"])
    }

    @Test func theGeneratedReference_listsEveryDeclaredVariable() {
        let reference = readFile("\(ManifestFixture.repositoryRoot)/docs/reference/environment.md") ?? ""
        #expect(!reference.isEmpty, "docs/reference/environment.md: run scripts/reference.sh")
        for entry in DaemonSettings.declaration.entries + SupervisorSettings.declaration.entries {
            #expect(
                reference.contains("`\(entry.name)`"),
                "docs/reference/environment.md lacks \(entry.name): run scripts/reference.sh")
        }
    }

    @Test func aBadValue_isATypedError_namingTheVariableTheValueAndWhatIsAllowed() throws {
        #expect(try DaemonSettings.maxInFlight.value(in: [:]) == 1024)
        #expect(try DaemonSettings.maxInFlight.value(in: ["VERTICALS_MAX_IN_FLIGHT": "64"]) == 64)
        #expect(throws: SettingError(variable: "VERTICALS_MAX_IN_FLIGHT", value: "0", allowed: "≥ 1")) {
            try DaemonSettings.maxInFlight.value(in: ["VERTICALS_MAX_IN_FLIGHT": "0"])
        }
        #expect(DaemonSettings.maxInFlight.validValue(in: ["VERTICALS_MAX_IN_FLIGHT": "many"]) == nil)
        let problems = DaemonSettings.declaration.problems(in: [
            "VERTICALS_TLS": "maybe", "VERTICALS_TRACE_SAMPLE_RATIO": "2",
        ])
        #expect(problems.map(\.variable) == ["VERTICALS_TLS", "VERTICALS_TRACE_SAMPLE_RATIO"])
        #expect(
            problems.first?.description
                == "VERTICALS_TLS=maybe is not allowed: expected on, off, off-insecure (unset it for the default)")
        #expect(SupervisorSettings.declaration.problems(in: ["VERTICALS_SERVICE_USERS": "no"]).count == 1)
    }

    /// `VERTICALS_`, `OTEL_`, and one prefix per vertical: its folder under Services/, uppercased.
    static func variablePrefixes(root: String) -> [String] {
        let verticals = FolderEntries.names(in: "\(root)/Services").filter { name in
            var info = stat()
            return name != "Supervisor" && lstat("\(root)/Services/\(name)", &info) == 0
                && info.st_mode & S_IFMT == S_IFDIR
        }
        return ["VERTICALS_", "OTEL_"] + verticals.sorted().map { $0.uppercased() + "_" }
    }

    /// Whether `text` is a settings declaration file: it builds a `SettingsDeclaration`.
    static func isDeclaration(_ text: String) -> Bool {
        text.split(separator: "\n").contains { line in
            !line.drop { $0 == " " }.hasPrefix("//") && line.contains("SettingsDeclaration(")
        }
    }

    /// Each string literal that is a whole variable name with one of `prefixes` (or a prefix of
    /// such names), with its line number; comment lines are prose and not read.
    static func variableLiterals(in text: String, prefixes: [String]) -> [(line: Int, name: String)] {
        var found: [(line: Int, name: String)] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.drop(while: { $0 == " " }).hasPrefix("//") { continue }
            let pieces = line.split(separator: "\"", omittingEmptySubsequences: false)
            // The odd pieces sit between quotes.
            for (number, piece) in pieces.enumerated() where number % 2 == 1 {
                guard prefixes.contains(where: { piece.hasPrefix($0) }),
                    piece.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" })
                else { continue }
                found.append((index + 1, String(piece)))
            }
        }
        return found
    }

    /// The names of the settings in `text` declared with an empty doc or none.
    static func undocumented(in text: String) -> [String] {
        let declarations = text.split(separator: "= Setting.").dropFirst()
        return declarations.compactMap { declaration in
            let name = declaration.split(separator: "\"").dropFirst().first.map(String.init) ?? "?"
            // The doc's text may start on the line after `doc:`, where a formatter wraps a long one.
            let afterDoc = declaration.split(separator: "doc:", maxSplits: 1, omittingEmptySubsequences: false)
            guard afterDoc.count == 2 else { return name }
            let text = afterDoc[1].drop { $0 == " " || $0 == "\n" }
            return text.first != "\"" || text.dropFirst().first == "\"" ? name : nil
        }
    }
}
