import Glibc
import Testing
import VerticalsTesting

/// No emitter writes a value of a manifest or a contract into its output except through that
/// format's quoting function. The rule, checked on the sources themselves: every interpolation
/// `\(…)` in an emitter (Shared/Deploy, and the Swift emitter of Shared/ContractGen)
///
/// 1. starts with a quoting function (``quotingFunctions``), or
/// 2. names only values that cannot carry syntax (``allowed``): names the manifest reader or the
///    contract lexer has already validated, numbers, the layout's options (the operator's, not
///    the author's), the emitters' own constants (a name starting with a capital: a type), and
///    `.debugDescription` (an error message, which shows a value escaped).
///
/// The quoting functions' own files, and the unit file's line writer (`UnitFile`, which callers
/// give values already quoted), are not emitters of values. A new interpolation of any other
/// name fails here until it is quoted, or shown to be one of those.
@Suite struct EmitterSourceRuleTests {
    /// The format's quoting functions, and the Swift emitter's helpers that build Swift from
    /// contract identifiers and ``SwiftSyntax``'s literals.
    static let quotingFunctions = [
        "SystemdSyntax.", "YAMLEmitter.scalar(", "ContainerfileSyntax.", "MarkdownSyntax.", "SwiftSyntax.",
        "swiftLiteral(", "defaultValue(", "fieldType(", "propertyType(", "swiftType(", "local(", "namespace(",
    ]

    /// Names of values that cannot carry syntax, each with the reason.
    static let allowed: [String: String] = [
        "layout": "the operator's command-line options (--prefix, --namespace, --image) and the suite's name",
        "suite": "the suite's name: [a-z][a-z0-9-]*, at most 16 (SuiteName)",
        "spec.name": "a service name: a-z, 0-9 and '-' (ServiceName)", "name": "a service or unit name",
        "unitName": "a unit name from a service name", "$0.name": "a service name", "caller.name": "a service name",
        "callers": "service names", "spec.dependsOn": "service names", "service": "a service name",
        "spec.store": "a boolean", "spec": "a spec given whole to a function returning a number",
        "user": "a user name (ServiceAccounts.isUserName)", "host": "a host name or address (validated endpoint)",
        "placed.host": "a host name (ServiceName rules)", "peer.host": "a host name (ServiceName rules)",
        "hosts": "host names", "port": "a number", "endpoint": "a validated SocketEndpoint",
        "variable": "an environment variable name (letters, digits, '_')", "key": "an environment variable name",
        "budget": "numbers and durations", "backoff": "numbers and durations", "microseconds": "a number",
        "milliseconds": "a number", "percent": "a number", "fraction": "a number", "bytes": "a number",
        "files": "a number", "seconds": "a number", "nice": "a number", "tasks": "a number", "weight": "a number",
        "unit": "a number", "prefix": "the operator's --prefix", "trimmed": "the operator's --prefix",
        "kind": "a fixed word", "what": "a fixed phrase", "file": "a credential's fixed file name",
        "buildArgument": "a constant", "buildImage": "a constant", "runtimeArgument": "a constant",
        "runtimeImage": "a constant", "buildPackages": "constants", "runtimePackages": "constants",
        "litestreamArgument": "a constant", "litestreamImage": "a constant", "litestreamPath": "a constant",
        "litestreamPackages": "constants", "replicated": "a boolean", "configDirectory": "a constant",
        "configFile": "a constant",
        "$0": "an element of a list of the emitter's own text, or of names above",
        "field.name": "a contract identifier", "field.tag": "a number", "field": "a field given whole to a helper",
        "message.name": "a contract identifier", "message.conformances": "contract identifiers",
        "enumeration.name": "a contract identifier", "known.name": "a contract identifier",
        "file.name": "a contract identifier", "file.swiftNamespace": "a contract identifier",
        "literal": "a default given whole to swiftLiteral or defaultValue", "word": "an identifier the lexer read",
        "digits": "a number the lexer read", "contract": "a contract identifier", "type": "a resolved type",
        "scalar": "a scalar type", "section.name": "a fixed section name", "element": "a Swift type built above",
        "head": "Swift built above from identifiers", "docArgument": "Swift built above by SwiftSyntax",
        "operand": "a contract identifier", "arguments": "Swift built above from identifiers",
        "bound": "a number", "list": "service names, joined by the README", "secret": "a fixed word",
        "suffix": "fixed Swift", "true": "a literal",
    ]

    static let exempt = [
        "SystemdSyntax.swift", "ContainerfileSyntax.swift", "MarkdownSyntax.swift", "SwiftSyntax.swift",
        "YAMLEmitter.swift", "ExportError.swift", "UnitFile.swift",
    ]

    /// The emitters' sources, by path.
    static func sources() -> [(path: String, text: String)] {
        let root = DeployFixture.repositoryRoot
        var paths: [String] = []
        for folder in [
            "Shared/Deploy", "Shared/Deploy/Systemd", "Shared/Deploy/Kubernetes", "Shared/ContractGen/Library",
        ] {
            for name in directoryEntries("\(root)/\(folder)") where name.hasSuffix(".swift") && !exempt.contains(name) {
                if folder.hasSuffix("Library") && !name.hasPrefix("SwiftEmitter") { continue }
                paths.append("\(folder)/\(name)")
            }
        }
        return paths.sorted().compactMap { path in readFile("\(root)/\(path)").map { (path, $0) } }
    }

    /// Every interpolation's expression in `text`, comment lines left out.
    static func interpolations(_ text: String) -> [String] {
        let code = text.split(separator: "\n").filter { !$0.drop { $0 == " " }.hasPrefix("//") }.joined(separator: "\n")
        let scalars = Array(code.unicodeScalars)
        var found: [String] = []
        var index = 0
        while index + 1 < scalars.count {
            defer { index += 1 }
            guard scalars[index] == "\\", scalars[index + 1] == "(" else { continue }
            var depth = 1
            var end = index + 2
            while end < scalars.count, depth > 0 {
                if scalars[end] == "(" { depth += 1 } else if scalars[end] == ")" { depth -= 1 }
                end += 1
            }
            found.append(String(String.UnicodeScalarView(scalars[(index + 2)..<(end - 1)])))
        }
        return found
    }

    /// The names `expression` reads: dotted paths, string literals and argument labels left out.
    static func names(_ expression: String) -> [String] {
        var text = ""
        var inString = false
        for scalar in expression.unicodeScalars {
            if scalar == "\"" { inString.toggle(); continue }
            if !inString { text.unicodeScalars.append(scalar) }
        }
        var names: [String] = []
        var current = ""
        var previous: Unicode.Scalar = " "
        var startsAfterMember = false
        func flush(_ next: Unicode.Scalar) {
            if !current.isEmpty && next != ":" && !startsAfterMember { names.append(current) }
            current = ""
        }
        for scalar in text.unicodeScalars {
            let isName =
                scalar == "_" || scalar == "$" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || ("0"..."9").contains(scalar) || (scalar == "." && !current.isEmpty)
            if isName {
                if current.isEmpty { startsAfterMember = previous == "." }
                current.unicodeScalars.append(scalar)
            } else {
                flush(scalar)
            }
            previous = scalar
        }
        flush(" ")
        return names.filter { !($0.first?.isNumber ?? true) }
    }

    static func isAllowed(_ name: String) -> Bool {
        if name.first?.isUppercase == true || name.hasSuffix(".debugDescription") { return true }
        var parts = name.split(separator: ".").map(String.init)
        while !parts.isEmpty {
            if allowed[parts.joined(separator: ".")] != nil { return true }
            parts.removeLast()
        }
        return false
    }

    @Test func everyInterpolationInAnEmitter_quotesItsValue_orNamesOnlyAValidatedOne() {
        let sources = Self.sources()
        #expect(sources.count > 20)
        for (path, text) in sources {
            for expression in Self.interpolations(text) {
                let bare = expression.hasPrefix("try ") ? String(expression.dropFirst(4)) : expression
                if Self.quotingFunctions.contains(where: { bare.hasPrefix($0) }) { continue }
                let unknown = Self.names(bare).filter { !Self.isAllowed($0) }
                #expect(
                    unknown.isEmpty, "\(path): \\(\(expression)) names \(unknown): quote it with the format's function")
            }
        }
    }

    @Test func theRule_catchesTheInterpolationsThatWrotePastTheirValue() {
        for expression in ["folder", "credential.2", "programs.joined(separator: \" \")", "text", "base", "value"] {
            #expect(!Self.names(expression).allSatisfy(Self.isAllowed), "\(expression)")
        }
    }
}

/// The names in folder `path` (none when it cannot be read).
private func directoryEntries(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
