import Testing
import VerticalsDeploy
import VerticalsManifest
import VerticalsSupervisor
import VerticalsTesting

/// Two products on one host: every name an export gives a suite on the host (units, users,
/// group, folders, files) starts from the manifest's `[suite] name`, so two products exported
/// for one host share none, even with verticals of the same names.
struct SuiteNamesTests {
    /// The tests' suite as vertical product `name` declares it (nil: no `[suite]` table).
    static func product(_ name: String?) throws -> Manifest {
        let text = try #require(readFile(DeployFixture.suitePath))
        return try DeployFixture.manifest(name.map { "[suite]\nname = \"\($0)\"\n\n" + text } ?? text)
    }

    /// Every name `files` would take on a host: the file names installed beside each other, and
    /// the users, groups and folders they make or use.
    static func hostNames(_ files: [String: String]) -> Set<String> {
        var names = Set(files.keys.map { "file \($0.split(separator: "/").last.map(String.init) ?? $0)" })
        for (path, text) in files {
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                let words = line.split(separator: " ").map(String.init)
                if path.hasPrefix("sysusers.d/"), words.count > 1 { names.insert("account \(words[1])") }
                if path.hasPrefix("tmpfiles.d/"), words.count > 1 { names.insert("folder \(words[1])") }
            }
            for key in ["User", "Group", "SupplementaryGroups"] {
                for value in DeployFixture.values(key, in: text) { names.insert("account \(value)") }
            }
            for key in ["StateDirectory", "ListenStream"] {
                for value in DeployFixture.values(key, in: text) { names.insert("folder \(value)") }
            }
        }
        return names
    }

    @Test func aManifestWithoutASuiteName_isTheFrameworksSuite_namedVerticals() throws {
        let manifest = try Self.product(nil)
        #expect(manifest.suiteName == "verticals")
        let files = try SystemdExport.files(for: manifest, layout: SystemdLayout(for: manifest))
        #expect(files["verticals.target"] != nil && files["svc-supervisor.service"] != nil)
        #expect(files["sysusers.d/verticals.conf"] != nil && files["verticals-ledger.service"] != nil)
    }

    @Test func twoProductsExportedForOneHost_shareNoUnitUserGroupFolderOrFileName() throws {
        let (reference, acme) = (try Self.product(nil), try Self.product("acme"))
        let referenceFiles = try SystemdExport.files(for: reference, layout: SystemdLayout(for: reference))
        let acmeFiles = try SystemdExport.files(for: acme, layout: SystemdLayout(for: acme))
        #expect(acmeFiles["acme-ledger.service"] != nil && acmeFiles["acme-supervisor.service"] != nil)
        #expect(acmeFiles["tmpfiles.d/acme.conf"]?.contains("d /run/acme 0750 root acme") == true)
        let (ours, theirs) = (Self.hostNames(referenceFiles), Self.hostNames(acmeFiles))
        #expect(ours.count > 20 && theirs.count > 20, "too few names read: \(ours), \(theirs)")
        #expect(ours.isDisjoint(with: theirs), "shared: \(ours.intersection(theirs).sorted())")
    }

    @Test func aProductsKubernetesLayout_isItsOwnNamespaceAndImage() throws {
        let layout = KubernetesLayout(suite: try Self.product("acme").suiteName)
        #expect(layout.namespace == "acme" && layout.image.hasPrefix("localhost/acme:"))
        #expect(layout.labels("ledger")[KubernetesLayout.partOfLabel] == "acme")
        #expect(KubernetesLayout().namespace == "verticals")
    }

    @Test(arguments: [
        ("name = \"Acme\"", "must start with a lowercase letter"),
        ("name = \"ac me\"", "may hold only a–z, 0–9 and '-'"),
        ("name = \"acme-\"", "must not end with '-'"),
        ("name = \"a-very-long-product\"", "at most 16"),
        ("name = 7", "must be a string"),
        ("title = \"acme\"", "unknown key 'title'"),
    ])
    func aSuiteNameThatIsNotAnIdentifier_isAProblemOfSuiteName(line: String, message: String) throws {
        let text = "[suite]\n\(line)\n\n" + (try #require(readFile(DeployFixture.suitePath)))
        let (_, problems) = ManifestParser.parse(
            text: text, baseDirectory: "/etc/vt", binDirectory: "/usr/local/bin", checkExecutables: false)
        #expect(problems.contains { ($0.key ?? "").hasPrefix("suite") && $0.message.contains(message) }, "\(problems)")
    }
}
