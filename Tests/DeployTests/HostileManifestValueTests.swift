import Foundation
import Glibc
import Testing
import VerticalsDeploy
import VerticalsDeployTesting
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting

/// The author of a manifest gets no more than the values they wrote: every key that reaches an
/// export, given each of ``HostileText``'s strings, is either refused where the manifest is read
/// (naming the key), or read back from each exported file as exactly that value: the systemd
/// unit by `systemd-analyze verify` (no output at all) and systemd's reading of each directive,
/// the Kubernetes YAML by PyYAML, the Containerfile by its directive grammar and `sh`.
@Suite(.blocking) struct HostileManifestValueTests {
    /// The keys of a service that reach an export.
    enum Key: String, CaseIterable, Sendable {
        case args, env, executable, certificates, user, host, dependsOn = "depends_on", name
    }

    /// A one-service manifest (two with `depends_on`) with `value` at `key`.
    static func manifest(_ key: Key, _ value: String) -> String {
        let toml = HostileText.tomlString(value)
        let name = key == .name ? "[services.\(toml)]" : "[services.echo]"
        var lines = [name, "executable = " + (key == .executable ? toml : "\"vt-testd\"")]
        switch key {
        case .args: lines.append("args = [\"echo\", \(toml)]")
        case .env: lines.append("env = { GREETING = \(toml) }")
        case .certificates: lines.append("certificates = \(toml)")
        case .user: lines.append("user = \(toml)")
        case .host: lines.append("host = \(toml)")
        case .dependsOn: lines.append("depends_on = [\(toml)]")
        case .executable, .name: break
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The manifest of `key` = `value` parsed for programs in `bin`, or nil when it is refused,
    /// each refusal naming the key (or the line, for TOML's own).
    static func parsed(
        _ key: Key, _ value: String, bin: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Manifest? {
        let (manifest, problems) = ManifestParser.parse(
            text: manifest(key, value), baseDirectory: "/etc/vt", binDirectory: bin, checkExecutables: false)
        guard problems.isEmpty else {
            for problem in problems {
                let named =
                    problem.key?.hasPrefix(key == .env ? "env." : key.rawValue) == true
                    || (key == .name && problem.service == value) || problem.message.hasPrefix("line ")
                    || (key == .dependsOn && problem.message.contains(value))
                #expect(named, "\(problem)", sourceLocation: sourceLocation)
            }
            return nil
        }
        return manifest
    }

    @Test(arguments: Key.allCases, HostileText.cases)
    func aHostileValue_isRefusedAtEntry_orTheUnitReadsItBackAsItself(key: Key, index: Int) throws {
        let value = HostileText.all[index]
        let directory = TemporaryDirectory()
        let layout = SystemdLayout(prefix: directory.path)
        guard let manifest = Self.parsed(key, value, bin: layout.binDirectory) else { return }
        let spec = try #require(manifest.services.first)
        let files: [String: String]
        do {
            files = try SystemdExport.files(for: manifest, layout: layout)
        } catch {
            // Refused by the export: it names the service and says what to change.
            #expect(error.service == spec.name)
            return
        }
        try DeployFixture.linkPrograms(in: directory)
        if spec.executable != "\(layout.binDirectory)/\(DeployFixture.program)" {
            #expect(symlink("\(DaemonProcess.productsDirectory)/\(DeployFixture.program)", spec.executable) == 0)
        }
        try DeployFixture.writeUnits(files, in: directory)
        for (path, text) in files {
            #expect(SystemdUnitReader.lineProblems(text).isEmpty, "\(path): \(SystemdUnitReader.lineProblems(text))")
        }
        try DeployFixture.verify(files, in: directory)

        let unit = try #require(files["\(layout.unitName(spec.name)).service"])
        let command = try #require(SystemdUnitReader.values("ExecStart", in: unit).only)
        let words = try #require(SystemdUnitReader.words(command)).map {
            SystemdUnitReader.unescapingSpecifiers($0.replacing("$$", with: "$"))
        }
        #expect(words == [spec.executable] + spec.arguments)
        let environment = SystemdUnitReader.values("Environment", in: unit).flatMap {
            SystemdUnitReader.words($0) ?? ["?"]
        }
        #expect(environment.compactMap(SystemdUnitReader.unescapingSpecifiers).count == environment.count)
        if key == .env { #expect(environment.contains("GREETING=\(value.replacing("%", with: "%%"))")) }
        if key == .certificates, let folder = spec.certificates {
            let paths = SystemdUnitReader.values("LoadCredential", in: unit).map {
                SystemdUnitReader.unescapingSpecifiers(String($0.drop { $0 != ":" }.dropFirst()))
            }
            #expect(paths == ["tls.crt", "tls.key", "ca.crt"].map { "\(folder)/\(spec.name)/\($0)" })
        }
    }

    @Test(arguments: [Key.args, .env, .executable], HostileText.cases)
    func aHostileValue_isRefusedAtEntry_orTheYAMLAndContainerfileReadItBackAsItself(key: Key, index: Int) throws {
        let value = HostileText.all[index]
        guard let manifest = Self.parsed(key, value, bin: KubernetesLayout().binDirectory) else { return }
        let spec = try #require(manifest.services.first)
        let files: [String: String]
        do {
            files = try KubernetesExport.files(for: manifest)
        } catch {
            #expect(error.service == spec.name)
            return
        }
        let directory = TemporaryDirectory()
        _ = try GeneratedFolder(path: directory.file("k8s")).replace(with: files) { _ in false }
        let yaml = files.keys.filter { $0.hasSuffix(".yaml") }.sorted().map { directory.file("k8s/\($0)") }
        let result = try runCommand(
            "/usr/bin/python3",
            [
                "-c",
                "import sys, yaml, json; print(json.dumps([d for f in sys.argv[1:] for d in yaml.safe_load_all(open(f))]))",
            ]
                + yaml, in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        let documents = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        let configMap = try #require(documents.first { ($0["kind"] as? String) == "ConfigMap" })
        if key == .env { #expect((configMap["data"] as? [String: String])?["GREETING"] == value) }
        let workload = try #require(documents.first { ["Deployment", "StatefulSet"].contains($0["kind"] as? String) })
        let pod = (((workload["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"] as? [String: Any])
        let container = try #require((pod?["containers"] as? [[String: Any]])?.first)
        // The kubelet expands `$(NAME)` in a command from the container's environment and makes
        // `$$` one `$`: what it runs must be the manifest's words.
        #expect((container["command"] as? [String])?.map(Self.kubeletExpanded) == [spec.executable] + spec.arguments)

        let containerfile = try #require(files["Containerfile"])
        let programs = try ContainerfileReader.programs(containerfile, in: directory)
        #expect(programs.built == programs.copied)
        #expect(programs.built.contains(String(spec.executable.split(separator: "/").last ?? "")))
        #expect(
            ContainerfileReader.instructions(containerfile) == ContainerfileReader.instructions(Self.plainContainerfile)
        )
    }

    /// `word` as the kubelet runs it: `$$` becomes `$`, and a `$(NAME)` reference becomes
    /// `<expanded NAME>`, which no manifest word contains, so a reference left unescaped fails.
    static func kubeletExpanded(_ word: String) -> String {
        var result = ""
        var rest = Substring(word)
        while let first = rest.first {
            rest = rest.dropFirst()
            guard first == "$" else {
                result.append(first)
                continue
            }
            if rest.first == "$" {
                result.append("$")
                rest = rest.dropFirst()
            } else if rest.first == "(", let close = rest.firstIndex(of: ")") {
                result += "<expanded \(rest[rest.index(after: rest.startIndex)..<close])>"
                rest = rest[rest.index(after: close)...]
            } else {
                result.append("$")
            }
        }
        return result
    }

    /// The Containerfile of a manifest with no hostile value: the directives any other must have.
    static let plainContainerfile: String = {
        let (manifest, _) = ManifestParser.parse(
            text: Self.manifest(Key.args, "plain"), baseDirectory: "/etc/vt",
            binDirectory: KubernetesLayout().binDirectory,
            checkExecutables: false)
        return (try? KubernetesExport.files(for: manifest))?["Containerfile"] ?? ""
    }()

    // MARK: The attacks that worked before

    @Test func aCertificatesFolderWithANewline_isRefusedNamingTheKey() {
        let value = "/etc/certs\nExecStartPre=+/bin/sh -c \"id > /tmp/owned\""
        let (_, problems) = ManifestParser.parse(
            text: Self.manifest(.certificates, value), baseDirectory: "/etc/vt", binDirectory: "/usr/local/bin",
            checkExecutables: false)
        #expect(problems.map(\.key) == ["certificates"])
        #expect(problems.first?.message.contains("U+000A") == true)
    }

    @Test func aCertificatesFolderWithANewline_thatReachesTheExport_isRefusedThere() throws {
        var manifest = try DeployFixture.manifest("[services.echo]\nexecutable = \"vt-testd\"\n")
        manifest.services[0].certificates = "/etc/certs\nExecStartPre=+/bin/sh"
        #expect(throws: ExportError.self) { try SystemdExport.files(for: manifest) }
        manifest.services[0].certificates = "/etc/%H/certs"
        let unit = try #require(try SystemdExport.files(for: manifest)["verticals-echo.service"])
        #expect(SystemdUnitReader.values("LoadCredential", in: unit).first == "tls.crt:/etc/%%H/certs/echo/tls.crt")
    }

    @Test(arguments: ["x;touch${IFS}/tmp/owned;#", "x\nRUN touch /tmp/owned\nUSER 0", "..", "a b"])
    func aProgramNameThatIsNotAPlainFileName_isRefusedAtEntry_andByTheImage(program: String) throws {
        #expect(Self.parsed(.executable, program, bin: "/usr/local/bin") == nil)
        var manifest = try KubernetesFixture.manifest("[services.echo]\nexecutable = \"vt-testd\"\n")
        manifest.services[0].executable = "/usr/local/bin/\(program)"
        #expect(throws: ExportError.self) { try KubernetesExport.files(for: manifest) }
    }
}

extension Array {
    /// The one element, or nil when there are none or several.
    fileprivate var only: Element? { count == 1 ? first : nil }
}
