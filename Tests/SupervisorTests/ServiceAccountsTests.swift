import Glibc
import Testing
import VerticalsTesting
@testable import VerticalsDeploy
@testable import VerticalsSupervisor

/// Users and routes from one place: the systemd export and the supervisor as root
/// take who runs what, and who may call whom, from ``ServiceAccounts``.
@Suite struct ServiceAccountsTests {
    static let manifestText = """
        [services.identity]
        executable = "/bin/true"
        [services.notifications]
        executable = "/bin/true"
        depends_on = ["identity"]
        env = { VERTICALS_INTERNAL_OPERATIONS = "send" }
        [services.appointments]
        executable = "/bin/true"
        depends_on = ["identity", "notifications"]
        user = "booking"
        """

    static func manifest(_ text: String = manifestText) throws -> Manifest {
        let (manifest, problems) = ManifestParser.parse(
            text: text, baseDirectory: "/etc/vt", binDirectory: "/usr/local/bin", checkExecutables: false)
        #expect(problems.isEmpty, "\(problems)")
        return manifest
    }

    /// `depends_on` by operation: each callee is told which of its operations each caller may
    /// call, and each caller what it declares; a whole vertical is `caller:*`. The same lines
    /// for the supervisor, the units and the ConfigMaps, since all three call these functions.
    @Test func operationsInDependsOn_becomeTheCalleesAllowedOperations_andTheCallersDependsOn() throws {
        let manifest = try Self.manifest("""
            [services.identity]
            executable = "/bin/true"
            [services.clinics]
            executable = "/bin/true"
            depends_on = ["identity.authenticate"]
            [services.notifications]
            executable = "/bin/true"
            depends_on = ["identity.authenticate", "identity.getUser"]
            [services.appointments]
            executable = "/bin/true"
            depends_on = ["identity", "notifications.send"]
            """)
        let identity = try #require(manifest["identity"])
        var environment: [String: String] = [:]
        ServiceAccounts.applyRoutes(to: &environment, for: identity, in: manifest)
        #expect(environment["VERTICALS_ALLOWED_OPERATIONS"] == "clinics:authenticate,notifications:authenticate,notifications:getUser,appointments:*")
        let appointments = try #require(manifest["appointments"])
        #expect(appointments.dependsOn == ["identity", "notifications"], "the verticals, for the start order and the network")
        var own: [String: String] = [:]
        ServiceAccounts.applyDependencies(to: &own, for: appointments)
        #expect(own["VERTICALS_DEPENDS_ON"] == "identity,notifications.send")
        var leaf: [String: String] = [:]
        ServiceAccounts.applyRoutes(to: &leaf, for: appointments, in: manifest)
        #expect(leaf["VERTICALS_ALLOWED_OPERATIONS"] == "", "nobody declares appointments: no vertical may call it")
        var set = ["VERTICALS_ALLOWED_OPERATIONS": "clinics:getUser"]
        ServiceAccounts.applyRoutes(to: &set, for: identity, in: manifest)
        #expect(set["VERTICALS_ALLOWED_OPERATIONS"] == "clinics:getUser", "a manifest's own env wins")
    }

    @Test func dependsOn_namingAVerticalWholeAndByOperation_orAMalformedOne_isAProblem() {
        let (_, problems) = ManifestParser.parse(
            text: """
                [services.identity]
                executable = "/bin/true"
                [services.clinics]
                executable = "/bin/true"
                depends_on = ["identity", "identity.authenticate", "identity.Bad-name", "identity.authenticate"]
                """, baseDirectory: "/etc/vt", binDirectory: "/usr/local/bin", checkExecutables: false)
        let messages = problems.map(\.description)
        #expect(messages.contains { $0.contains("\"identity.Bad-name\" is not a vertical nor VERTICAL.operation") }, "\(messages)")
        #expect(messages.contains { $0.contains("lists \"identity.authenticate\" more than once") }, "\(messages)")
        #expect(messages.contains { $0.contains("names \"identity\" whole and \"identity.authenticate\" by operation") }, "\(messages)")
        let (_, unknown) = ManifestParser.parse(
            text: """
                [services.clinics]
                executable = "/bin/true"
                depends_on = ["identiy.authenticate"]
                """, baseDirectory: "/etc/vt", binDirectory: "/usr/local/bin", checkExecutables: false)
        #expect(unknown.map(\.description).contains { $0.contains("depends on \"identiy\", which is not a service in this manifest") }, "\(unknown)")
    }

    /// The export names callers by user, the engine by uid: mapped through the same user
    /// table, the two allow-lists are the same, service by service.
    @Test func exportAndEngine_allowTheSameCallers() throws {
        let manifest = try Self.manifest()
        let layout = SystemdLayout()
        let uids = ["verticals-identity": "801", "verticals-notifications": "802", "booking": "803"]
        for spec in manifest.services {
            let exported = Dictionary(
                VerticalServiceUnit.environment(spec, in: try SystemdPlacement(manifest, host: nil), layout: layout), uniquingKeysWith: { a, _ in a })
            var engine = spec.environment
            ServiceAccounts.applyAccess(to: &engine, for: spec, in: manifest, operatorGroup: "900") {
                uids[layout.userName($0)] ?? "?"
            }
            for key in ["VERTICALS_ALLOWED_UIDS", "VERTICALS_INTERNAL_UIDS", ServiceAccounts.suiteUsersVariable] {
                let mapped = exported[key].map { list in
                    list.split(separator: ",").map { entry in
                        let user = entry.split(separator: ":").last.map(String.init) ?? ""
                        let prefix = entry.contains(":") ? entry.split(separator: ":")[0] + ":" : ""
                        return prefix + (uids[user] ?? user)
                    }.joined(separator: ",")
                }
                #expect(mapped == engine[key], "\(spec.name) \(key): export \(exported[key] ?? "-"), engine \(engine[key] ?? "-")")
            }
        }
        let identity = try #require(manifest["identity"])
        var environment: [String: String] = [:]
        ServiceAccounts.applyAccess(to: &environment, for: identity, in: manifest, operatorGroup: nil) { $0.name }
        #expect(environment["VERTICALS_ALLOWED_UIDS"] == "notifications,appointments", "its declared callers only")
        #expect(environment["VERTICALS_INTERNAL_UIDS"] == nil, "no internal operations, no internal list")
    }

    /// A certificates folder gives each service its TLS files and, from the same `depends_on`
    /// graph as the uid lists, its allowed and internal peers, with the operator allowed.
    @Test func certificatesFolder_givesFilesAndPeersFromTheSameGraph() throws {
        var manifest = try Self.manifest()
        for index in manifest.services.indices { manifest.services[index].certificates = "/etc/vt/certs" }
        let identity = try #require(manifest["identity"])
        let notifications = try #require(manifest["notifications"])
        var identityEnvironment: [String: String] = [:]
        var notificationsEnvironment = notifications.environment

        ServiceAccounts.applyCertificates(to: &identityEnvironment, for: identity, in: manifest)
        ServiceAccounts.applyCertificates(to: &notificationsEnvironment, for: notifications, in: manifest)

        #expect(identityEnvironment["VERTICALS_TLS_CERT"] == "/etc/vt/certs/identity/tls.crt")
        #expect(identityEnvironment["VERTICALS_TLS_KEY"] == "/etc/vt/certs/identity/tls.key")
        #expect(identityEnvironment["VERTICALS_TLS_CA"] == "/etc/vt/certs/identity/ca.crt")
        #expect(identityEnvironment["VERTICALS_ALLOWED_PEERS"] == "notifications,appointments,operator")
        #expect(identityEnvironment["VERTICALS_INTERNAL_PEERS"] == nil)
        #expect(notificationsEnvironment["VERTICALS_ALLOWED_PEERS"] == "appointments,operator")
        #expect(notificationsEnvironment["VERTICALS_INTERNAL_PEERS"] == "appointments", "internal operations: callers only")

        var none: [String: String] = [:]
        ServiceAccounts.applyCertificates(to: &none, for: try #require(Self.manifest()["identity"]), in: try Self.manifest())
        #expect(none.isEmpty, "no folder, no TLS settings")
    }

    @Test func manifestUser_isTheUserOfBothHosts() throws {
        let manifest = try Self.manifest()
        let files = try SystemdExport.files(for: manifest)
        #expect(files["sysusers.d/verticals.conf"]?.contains("u booking - \"Verticals appointments\" - -") == true)
        let unit = try #require(files["verticals-appointments.service"])
        #expect(unit.contains("User=booking"))
        #expect(!unit.contains("Group=verticals-appointments"), "a chosen user keeps its own primary group")
        #expect(ServiceUsers(prefix: "vtt-").sysusersLines(manifest)
            == ["g verticals -", "u vtt-identity - \"Verticals identity\" - -",
                "u vtt-notifications - \"Verticals notifications\" - -", "u booking - \"Verticals appointments\" - -"])
    }

    @Test(arguments: ["", "9lives", "-dash", "has space", "x23456789012345678901234567890123"])
    func manifestUser_thatIsNoUserName_isAProblem(name: String) {
        let (_, problems) = ManifestParser.parse(
            text: "[services.a]\nexecutable = \"/bin/true\"\nuser = \"\(name)\"\n", baseDirectory: "/etc/vt",
            binDirectory: "/bin", checkExecutables: false)
        #expect(problems.contains { $0.key == "user" }, "\(problems)")
    }

    @Test func aUserTwoServicesShare_isAProblem_evenFromDefaults() {
        for text in [
            "[services.a]\nexecutable = \"/bin/true\"\nuser = \"x\"\n[services.b]\nexecutable = \"/bin/true\"\nuser = \"x\"\n",
            "[defaults]\nuser = \"x\"\n[services.a]\nexecutable = \"/bin/true\"\n[services.b]\nexecutable = \"/bin/true\"\n",
        ] {
            let (_, problems) = ManifestParser.parse(
                text: text, baseDirectory: "/etc/vt", binDirectory: "/bin", checkExecutables: false)
            #expect(problems.map(\.description).contains { $0.contains("\"x\" is a's user too") }, "\(problems)")
        }
    }

    @Test func pathReach_namesTheFolderThatStopsTheUser() throws {
        let directory = TemporaryDirectory()
        chmod(directory.path, 0o755)
        let closed = directory.file("closed")
        mkdir(closed, 0o700)
        let program = "\(closed)/program"
        close(open(program, O_CREAT | O_WRONLY, 0o755))
        let problem = PathReach.problem(program, .execute, uid: 4242, gid: 4242, groups: [])
        #expect(problem?.hasPrefix("\(closed) is not searchable by uid 4242") == true, "\(problem ?? "nil")")
        chmod(closed, 0o750)
        chown(closed, 0, 4300)
        #expect(PathReach.problem(program, .execute, uid: 4242, gid: 4242, groups: [4300]) == nil, "by a group")
        #expect(PathReach.problem(program, .execute, uid: 4242, gid: 4242, groups: []) != nil)
        chmod(program, 0o644)
        #expect(PathReach.problem(program, .execute, uid: 4242, gid: 4242, groups: [4300])?.contains("may not execute") == true)
        #expect(PathReach.problem(directory.file("missing"), .search, uid: 1, gid: 1, groups: []) != nil)
    }
}
