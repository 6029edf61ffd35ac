import VerticalsContractTesting
import VerticalsWire

/// One naming rule for the framework's targets, so a module's name says whose it is and a folder
/// says what it builds:
/// - a library, plugin or test-support module of the framework is `Verticals*`; a C module
///   (a system library's map, or C sources) is `C` and the library's name (`CLibUV`);
/// - a program is `svc-*` (a daemon or the supervisor) or `vt-*` (a tool), and lives in a folder
///   of that name.
///
/// A product's own modules take bare names (`IOInterface`, `IdentityService`), which is how a
/// reader tells them from the framework's. Test targets are named for what they test.
extension FrameworkRule {
    /// Each framework target of `dump-package`'s JSON whose name or folder breaks the rule, in words.
    /// The framework's targets are those of ``Border/framework`` and the framework's test support
    /// under `Tests/Support` (the reference suite's ``referenceTestFolders`` aside).
    static func namingProblems(dumpPackageJSON text: String) throws -> [String] {
        let border = Border(try PackageGraph(dumpPackageJSON: text))
        guard case .object(let root) = try JSONValue(parsing: text),
            case .array(let targets)? = root.first(where: { $0.key == "targets" })?.value
        else { throw VerticalRuleError("dump-package printed no `targets` array") }
        var problems: [String] = []
        for case .object(let members) in targets {
            guard case .string(let name)? = members.first(where: { $0.key == "name" })?.value,
                case .string(let path)? = members.first(where: { $0.key == "path" })?.value,
                case .string(let type)? = members.first(where: { $0.key == "type" })?.value
            else { continue }
            let framework =
                (border.framework.contains(name) && !inside(path, "Tests"))
                || (inside(path, "Tests/Support") && !referenceTestFolders.contains { inside(path, $0) })
            guard framework, type != "test" else { continue }
            if let problem = namingProblem(name: name, path: path, isProgram: type == "executable") {
                problems.append(problem)
            }
        }
        return problems
    }

    /// What is wrong with framework target `name` at `path`, if anything.
    static func namingProblem(name: String, path: String, isProgram: Bool) -> String? {
        if isProgram {
            guard name.hasPrefix("svc-") || name.hasPrefix("vt-") else {
                return "program \(name) (\(path)) is neither svc-* nor vt-*"
            }
            let folder = path.split(separator: "/").last.map(String.init) ?? ""
            return folder == name ? nil : "program \(name) lives in \(path): name its folder \(name)"
        }
        let isCModule = name.count > 1 && name.first == "C" && name.dropFirst().first?.isUppercase == true
        return name.hasPrefix("Verticals") || isCModule
            ? nil : "framework module \(name) (\(path)) is not Verticals*: a bare name says it is a product's"
    }
}
