import TOMLKit
import VerticalsClient
import VerticalsManifest
import VerticalsServiceKit
import VerticalsSupervisorClient
import VerticalsWire

#if canImport(Glibc)
import Glibc
#endif

/// Reads `deploy/suite.toml` into a ``Manifest`` and finds everything wrong with it.
///
/// Every problem is reported, not just the first, each located by service and key; the
/// manifest returned is usable only when the problem list is empty. Services keep the order
/// of their `[services.NAME]` headers in the file (TOMLKit itself sorts keys; a service
/// defined without a header of its own, e.g. inline, follows those, by name).
///
/// ```swift
/// let (manifest, problems) = ManifestParser.load(path: "deploy/suite.toml", binDirectory: binDirectory)
/// guard problems.isEmpty else { problems.forEach { print($0) }; return }
/// for name in try manifest.startOrder() { … }
/// ```
///
/// The socket paths are checked apart, once the run directory is known:
/// `Manifest/socketPathProblems(socketDirectory:)`.
public enum ManifestParser {
    /// Reads and checks the manifest at `path`; relative executables are taken from its folder.
    public static func load(
        path: String, binDirectory: String, checkExecutables: Bool = true
    ) -> (Manifest, [ManifestError]) {
        let absolute = path.hasPrefix("/") ? path : "\(currentDirectory())/\(path)"
        guard let text = WholeFile.read(absolute) else {
            let reason = String(cString: strerror(errno))
            return (
                Manifest(services: []),
                [
                    ManifestError(
                        .unreadable, "cannot read the manifest \(path): \(reason)", values: [ErrorDetail("path", path)])
                ]
            )
        }
        let folder = String(absolute[..<(absolute.lastIndex(of: "/") ?? absolute.startIndex)])
        return parse(text: text, baseDirectory: folder, binDirectory: binDirectory, checkExecutables: checkExecutables)
    }

    /// ``parse(text:baseDirectory:binDirectory:checkExecutables:)`` for a manifest whose programs
    /// need not exist yet: the reader `svc-supervisor new` hands the scaffold
    /// (`scaffold.regenerateSystemdUnits(reading: ManifestParser.parsePlanned)`).
    public static func parsePlanned(
        text: String, baseDirectory: String, binDirectory: String
    ) -> (Manifest, [ManifestError]) {
        parse(text: text, baseDirectory: baseDirectory, binDirectory: binDirectory, checkExecutables: false)
    }

    /// Parses and checks manifest `text`. `baseDirectory` is the manifest's folder (relative
    /// executables start there), `binDirectory` svc-supervisor's (bare names are found there).
    /// With `checkExecutables` false, a missing program is not a problem.
    public static func parse(
        text: String, baseDirectory: String, binDirectory: String, checkExecutables: Bool = true
    ) -> (Manifest, [ManifestError]) {
        var problems: [ManifestError] = []
        let headers = TableHeaders(text)
        guard let root = parseTOML(text, headers: headers, problems: &problems) else {
            return (Manifest(services: []), problems)
        }
        let resolver = ExecutableResolver(
            baseDirectory: baseDirectory, binDirectory: binDirectory, checksFiles: checkExecutables)

        for key in root.keys.sorted() where !ManifestKeys.topLevel.contains(key) {
            problems.append(
                ManifestError(.unknownKey, key: key, ManifestKeys.unknown(key, among: ManifestKeys.topLevel)))
        }

        let suiteName = suiteName(root["suite"], problems: &problems)

        var defaults: [String: ManifestValue] = [:]
        switch root["defaults"] {
        case nil: break
        case .table(let table)?:
            defaults = table
            var decoder = ServiceDecoder(service: nil, keyPrefix: "defaults.", resolver: resolver)
            _ = decoder.decode(table, requireExecutable: false)
            problems += decoder.problems
        case let other?:
            problems.append(
                ManifestError(.wrongType, key: "defaults", "must be a table ([defaults]), not \(other.kind)"))
        }

        var declared: [String: ManifestValue] = [:]
        switch root["services"] {
        case .table(let table)? where !table.isEmpty: declared = table
        case nil, .table?:
            problems.append(
                ManifestError(.missing, key: "services", "no services: add a [services.NAME] table for each one"))
        case let other?:
            problems.append(
                ManifestError(.wrongType, key: "services", "must be a table of services, not \(other.kind)"))
        }

        var services: [ServiceSpec] = []
        for name in order(of: declared.keys, headers: headers) where !name.hasPrefix(duplicateMarker) {
            problems += ServiceName.problems(name)
            if let role = ServiceName.roleProblem(name) {
                problems.append(ManifestError(.invalidName, service: name, role))
            }
            guard case .table(let own)? = declared[name] else {
                problems.append(ManifestError(.wrongType, service: name, "must be a table ([services.\(name)])"))
                continue
            }
            let merged = ManifestValue.merge(defaults: defaults, over: own, deep: ManifestKeys.mergedTables)
            var decoder = ServiceDecoder(service: name, resolver: resolver) { path in isOwn(path, in: own) }
            services.append(decoder.decode(merged, requireExecutable: true))
            problems += decoder.problems
        }
        var manifest = Manifest(services: services)
        manifest.suiteName = suiteName
        problems += manifest.dependencyProblems()
        problems += ServiceAccounts.sharedUserProblems(manifest)
        problems += manifest.secretProblems()
        problems += manifest.replicaProblems()
        return (manifest, problems)
    }

    // MARK: Steps

    /// The `[suite]` table's `name` (``SuiteName``), or the default when there is no table.
    private static func suiteName(_ value: ManifestValue?, problems: inout [ManifestError]) -> String {
        guard let value else { return SuiteName.default }
        guard case .table(let table) = value else {
            problems.append(
                ManifestError(
                    .wrongType, key: "suite", "must be a table ([suite] with name = \"…\"), not \(value.kind)"))
            return SuiteName.default
        }
        for key in table.keys.sorted() where !ManifestKeys.suite.contains(key) {
            problems.append(
                ManifestError(.unknownKey, key: "suite.\(key)", ManifestKeys.unknown(key, among: ManifestKeys.suite)))
        }
        switch table["name"] {
        case nil:
            problems.append(
                ManifestError(.missing, key: "suite.name", "is missing: name the product, e.g. name = \"acme\""))
        case .string(let name)?:
            let found = SuiteName.problems(name)
            problems += found
            if found.isEmpty { return name }
        case let other?:
            problems.append(
                ManifestError(.wrongType, key: "suite.name", "must be a string such as \"acme\", not \(other.kind)"))
        }
        return SuiteName.default
    }

    /// The document's root table, or nil after noting why there is none. A service declared
    /// twice (which TOML rejects as a whole) is reported by name, and the rest still parsed.
    private static func parseTOML(
        _ text: String, headers: TableHeaders, problems: inout [ManifestError]
    ) -> [String: ManifestValue]? {
        if let problem = ManifestCharacters.problem(in: text) {
            problems.append(problem)
            return nil
        }
        do {
            return ManifestValue.entries(of: try TOMLTable(string: text))
        } catch let error as TOMLParseError {
            let duplicates = headers.duplicateServices
            guard !duplicates.isEmpty else {
                problems.append(syntaxProblem(error))
                return nil
            }
            for duplicate in duplicates {
                let lines = duplicate.lines.map(String.init).joined(separator: ", ")
                problems.append(
                    ManifestError(
                        .duplicate, service: duplicate.name,
                        "is declared more than once (lines \(lines)): a service name must be unique; "
                            + "merge them into one [services.\(duplicate.name)] table or rename one",
                        values: duplicate.lines.map { ErrorDetail("line", "\($0)") }))
            }
            let renamed = headers.renamingDuplicates(in: text) { name, index in "\(duplicateMarker)\(index) \(name)" }
            do {
                return ManifestValue.entries(of: try TOMLTable(string: renamed))
            } catch let error as TOMLParseError {
                problems.append(syntaxProblem(error))
                return nil
            } catch {
                problems.append(ManifestError(.syntax, "not valid TOML: \(error)", cause: error))
                return nil
            }
        } catch {
            problems.append(ManifestError(.syntax, "not valid TOML: \(error)", cause: error))
            return nil
        }
    }

    /// "line 3, column 7: not valid TOML: …".
    private static func syntaxProblem(_ error: TOMLParseError) -> ManifestError {
        let at = error.source.begin
        return ManifestError(
            .syntax, "line \(at.line), column \(at.column): not valid TOML: \(error.description)",
            values: [ErrorDetail("line", "\(at.line)"), ErrorDetail("column", "\(at.column)")], cause: error)
    }

    /// `names` in the order of their headers in the file, then the rest by name.
    private static func order(of names: Dictionary<String, ManifestValue>.Keys, headers: TableHeaders) -> [String] {
        let present = Set(names)
        let ordered = headers.serviceOrder.filter { present.contains($0) }
        let listed = Set(ordered)
        return ordered + names.filter { !listed.contains($0) }.sorted()
    }

    /// Whether the value at `path` ("env.KEY", "backoff.max", "restart") was written in the
    /// service's own table rather than inherited.
    private static func isOwn(_ path: String, in own: [String: ManifestValue]) -> Bool {
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        guard let value = own[parts[0]] else { return false }
        guard parts.count == 2, ManifestKeys.mergedTables.contains(parts[0]), case .table(let table) = value else {
            return true
        }
        return table[parts[1]] != nil
    }

    /// How a repeated `[services.NAME]` section is renamed to parse the rest (never a valid name).
    private static let duplicateMarker = "duplicate #"

    private static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
