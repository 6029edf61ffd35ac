import Glibc
import Testing
import VerticalsTesting
@testable import VerticalsDeploy
@testable import VerticalsSupervisor

/// Users and routes from one place: the systemd export and the supervisor as root
/// take who runs what, and who may call whom, from ``ServiceAccounts``.
@Suite(.blocking) struct ServiceAccountsTests {
    static let manifestText = """
        [services.ledger]
        executable = "/bin/true"
        [services.mailer]
        executable = "/bin/true"
        depends_on = ["ledger"]
        env = { VERTICALS_INTERNAL_OPERATIONS = "send" }
        [services.orders]
        executable = "/bin/true"
        depends_on = ["ledger", "mailer"]
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
        let manifest = try Self.manifest(
            """
            [services.ledger]
            executable = "/bin/true"
            [services.catalog]
            executable = "/bin/true"
            depends_on = ["ledger.balance"]
            [services.mailer]
            executable = "/bin/true"
            depends_on = ["ledger.balance", "ledger.statement"]
            [services.orders]
            executable = "/bin/true"
            depends_on = ["ledger", "mailer.send"]
            """)
        let ledger = try #require(manifest["ledger"])
        var environment: [String: String] = [:]
        ServiceAccounts.applyRoutes(to: &environment, for: ledger, in: manifest)
        #expect(
            environment["VERTICALS_ALLOWED_OPERATIONS"] == "catalog:balance,mailer:balance,mailer:statement,orders:*")
        let orders = try #require(manifest["orders"])
        #expect(orders.dependsOn == ["ledger", "mailer"], "the verticals, for the start order and the network")
        var own: [String: String] = [:]
        ServiceAccounts.applyDependencies(to: &own, for: orders)
        #expect(own["VERTICALS_DEPENDS_ON"] == "ledger,mailer.send")
        var leaf: [String: String] = [:]
        ServiceAccounts.applyRoutes(to: &leaf, for: orders, in: manifest)
        #expect(leaf["VERTICALS_ALLOWED_OPERATIONS"] == "", "nobody declares orders: no vertical may call it")
        var set = ["VERTICALS_ALLOWED_OPERATIONS": "catalog:statement"]
        ServiceAccounts.applyRoutes(to: &set, for: ledger, in: manifest)
        #expect(set["VERTICALS_ALLOWED_OPERATIONS"] == "catalog:statement", "a manifest's own env wins")
    }

    @Test func dependsOn_namingAVerticalWholeAndByOperation_orAMalformedOne_isAProblem() {
        let (_, problems) = ManifestParser.parse(
            text: """
                [services.ledger]
                executable = "/bin/true"
                [services.catalog]
                executable = "/bin/true"
                depends_on = ["ledger", "ledger.balance", "ledger.Bad-name", "ledger.balance"]
                """, baseDirectory: "/etc/vt", binDirectory: "/usr/local/bin", checkExecutables: false)
        let messages = problems.map(\.description)
        #expect(
            messages.contains { $0.contains("\"ledger.Bad-name\" is not a vertical nor VERTICAL.operation") },
            "\(messages)")
        #expect(messages.contains { $0.contains("lists \"ledger.balance\" more than once") }, "\(messages)")
        #expect(
            messages.contains { $0.contains("names \"ledger\" whole and \"ledger.balance\" by operation") },
            "\(messages)")
        let (_, unknown) = ManifestParser.parse(
            text: """
                [services.catalog]
                executable = "/bin/true"
                depends_on = ["ledgr.balance"]
                """, baseDirectory: "/etc/vt", binDirectory: "/usr/local/bin", checkExecutables: false)
        #expect(
            unknown.contains { $0.code == .unknownDependency && $0.detail("dependency") == "ledgr" }, "\(unknown)")
    }

    /// The export names callers by user, the engine by uid: mapped through the same user
    /// table, the two allow-lists are the same, service by service.
    @Test func exportAndEngine_allowTheSameCallers() throws {
        let manifest = try Self.manifest()
        let layout = SystemdLayout()
        let uids = ["verticals-ledger": "801", "verticals-mailer": "802", "booking": "803"]
        for spec in manifest.services {
            let exported = Dictionary(
                VerticalServiceUnit.environment(spec, in: try SystemdPlacement(manifest, host: nil), layout: layout),
                uniquingKeysWith: { a, _ in a })
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
                #expect(
                    mapped == engine[key],
                    "\(spec.name) \(key): export \(exported[key] ?? "-"), engine \(engine[key] ?? "-")")
            }
        }
        let ledger = try #require(manifest["ledger"])
        var environment: [String: String] = [:]
        ServiceAccounts.applyAccess(to: &environment, for: ledger, in: manifest, operatorGroup: nil) { $0.name }
        #expect(environment["VERTICALS_ALLOWED_UIDS"] == "mailer,orders", "its declared callers only")
        #expect(environment["VERTICALS_INTERNAL_UIDS"] == nil, "no internal operations, no internal list")
    }

    /// A certificates folder gives each service its TLS files and, from the same `depends_on`
    /// graph as the uid lists, its allowed and internal peers, with the operator allowed.
    @Test func certificatesFolder_givesFilesAndPeersFromTheSameGraph() throws {
        var manifest = try Self.manifest()
        for index in manifest.services.indices { manifest.services[index].certificates = "/etc/vt/certs" }
        let ledger = try #require(manifest["ledger"])
        let mailer = try #require(manifest["mailer"])
        var ledgerEnvironment: [String: String] = [:]
        var mailerEnvironment = mailer.environment

        ServiceAccounts.applyCertificates(to: &ledgerEnvironment, for: ledger, in: manifest)
        ServiceAccounts.applyCertificates(to: &mailerEnvironment, for: mailer, in: manifest)

        #expect(ledgerEnvironment["VERTICALS_TLS_CERT"] == "/etc/vt/certs/ledger/tls.crt")
        #expect(ledgerEnvironment["VERTICALS_TLS_KEY"] == "/etc/vt/certs/ledger/tls.key")
        #expect(ledgerEnvironment["VERTICALS_TLS_CA"] == "/etc/vt/certs/ledger/ca.crt")
        #expect(ledgerEnvironment["VERTICALS_ALLOWED_PEERS"] == "mailer,orders,operator")
        #expect(ledgerEnvironment["VERTICALS_INTERNAL_PEERS"] == nil)
        #expect(mailerEnvironment["VERTICALS_ALLOWED_PEERS"] == "orders,operator")
        #expect(mailerEnvironment["VERTICALS_INTERNAL_PEERS"] == "orders", "internal operations: callers only")

        var none: [String: String] = [:]
        ServiceAccounts.applyCertificates(
            to: &none, for: try #require(Self.manifest()["ledger"]), in: try Self.manifest())
        #expect(none.isEmpty, "no folder, no TLS settings")
    }

    @Test func manifestUser_isTheUserOfBothHosts() throws {
        let manifest = try Self.manifest()
        let files = try SystemdExport.files(for: manifest)
        #expect(files["sysusers.d/verticals.conf"]?.contains("u booking - \"Verticals orders\" - -") == true)
        let unit = try #require(files["verticals-orders.service"])
        #expect(unit.contains("User=booking"))
        #expect(!unit.contains("Group=verticals-orders"), "a chosen user keeps its own primary group")
        #expect(
            ServiceUsers(prefix: "vtt-").sysusersLines(manifest)
                == [
                    "g verticals -", "u vtt-ledger - \"Verticals ledger\" - -",
                    "u vtt-mailer - \"Verticals mailer\" - -", "u booking - \"Verticals orders\" - -",
                ])
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
            #expect(
                problems.contains { $0.code == .duplicate && $0.detail("user") == "x" && $0.detail("other") == "a" },
                "\(problems)")
        }
    }

    /// An empty 0755 `program` in a folder of `folderMode` in `directory` (made 0755).
    static func program(in directory: TemporaryDirectory, folderMode: mode_t = 0o755) -> (
        folder: String, program: String
    ) {
        chmod(directory.path, 0o755)
        let folder = directory.file("bin")
        mkdir(folder, folderMode)
        let program = "\(folder)/program"
        close(open(program, O_CREAT | O_WRONLY, 0o755))
        return (folder, program)
    }

    @Test func pathReach_namesTheFolderThatStopsTheUser() throws {
        let directory = TemporaryDirectory()
        let (closed, program) = Self.program(in: directory, folderMode: 0o700)
        let problem = PathReach.problem(program, .execute, uid: 4242, gid: 4242, groups: [])
        #expect(problem?.hasPrefix("\(closed) is not searchable by uid 4242") == true, "\(problem ?? "nil")")
        // Open to its group, whichever group the folder got (only root may give it another one).
        chmod(closed, 0o750)
        var info = stat()
        try #require(stat(closed, &info) == 0)
        let group = info.st_gid
        #expect(PathReach.problem(program, .execute, uid: 4242, gid: 4242, groups: [group]) == nil, "by a group")
        #expect(PathReach.problem(program, .execute, uid: 4242, gid: 4242, groups: []) != nil)
        chmod(program, 0o644)
        #expect(
            PathReach.problem(program, .execute, uid: 4242, gid: 4242, groups: [group])?.contains("may not execute")
                == true)
        #expect(PathReach.problem(directory.file("missing"), .search, uid: 1, gid: 1, groups: []) != nil)
    }

    /// Who could change a program: the file and every folder above it, as written and as its
    /// links lead, must be root's or the user's, and writable by no one else (``ProgramWriters``).
    @Test func programWriters_namesTheFirstPlaceSomeoneElseCouldChange() throws {
        let me = geteuid()
        let directory = TemporaryDirectory()
        let (bin, program) = Self.program(in: directory)
        #expect(ProgramWriters.problem(program, uid: me) == nil)

        chmod(bin, 0o777)
        #expect(ProgramWriters.problem(program, uid: me)?.hasPrefix("\(bin) may be written by any user") == true)
        chmod(bin, 0o1777) // sticky: passes when root's (as /tmp), not when an ordinary user's
        #expect((ProgramWriters.problem(program, uid: me) == nil) == (me == 0))
        chmod(bin, 0o755)
        chmod(program, 0o757)
        #expect(ProgramWriters.problem(program, uid: me)?.hasPrefix("\(program) may be written by any user") == true)
        chmod(program, 0o775)
        var info = stat()
        try #require(stat(program, &info) == 0)
        #expect(
            (ProgramWriters.problem(program, uid: me) == nil) == (info.st_gid == 0),
            "group write passes for group 0 alone")
        chmod(program, 0o755)

        let open = directory.file("open")
        mkdir(open, 0o777)
        chmod(open, 0o777)
        symlink(bin, "\(open)/bin")
        #expect(
            ProgramWriters.problem("\(open)/bin/program", uid: me)?.hasPrefix("\(open) may be written by any user")
                == true)
        let link = directory.file("link")
        symlink(open, link)
        #expect(
            ProgramWriters.problem("\(link)/bin/program", uid: me)?.hasPrefix("\(open) may be written by any user")
                == true,
            "a link that leads through a folder any user may write")
        #expect(ProgramWriters.problem("\(directory.path)/./bin/../bin/program", uid: me) == nil)
        #expect(ProgramWriters.problem("relative/program", uid: me) != nil)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root: gives a folder to another user"))
    func programWriters_refusesAFolderOfAnotherUser() {
        let directory = TemporaryDirectory()
        let (bin, program) = Self.program(in: directory)
        chown(bin, 4242, 4242)
        #expect(ProgramWriters.problem(program, uid: 4343)?.hasPrefix("\(bin) belongs to uid 4242") == true)
        #expect(ProgramWriters.problem(program, uid: 4242) == nil, "the service user's own folder")
        chmod(bin, 0o1777)
        chown(bin, 0, 0)
        #expect(ProgramWriters.problem(program, uid: 4343) == nil, "a sticky folder of root's, like /tmp")
        chown(program, 4242, 4242)
        #expect(ProgramWriters.problem(program, uid: 4343)?.hasPrefix("\(program) belongs to uid 4242") == true)
    }

    /// What the program loads counts as the program: a library beside it (`$ORIGIN` comes before
    /// the system's folders), a script's interpreter, and a file whose ACL lets someone write it.
    @Test(.enabled(if: geteuid() == 0, "needs root: gives files to another user"))
    func programWriters_coversLibrariesBesideIt_aScriptsInterpreter_andACLs() throws {
        let directory = TemporaryDirectory()
        let (bin, program) = Self.program(in: directory)
        let library = "\(bin)/libuv.so.1"
        close(open(library, O_CREAT | O_WRONLY, 0o644))
        #expect(ProgramWriters.problem(program, uid: 4343) == nil)
        chown(library, 4242, 4242)
        #expect(ProgramWriters.problem(program, uid: 4343)?.hasPrefix("\(library) belongs to uid 4242") == true)
        chown(library, 0, 0)
        chmod(library, 0o666)
        #expect(ProgramWriters.problem(program, uid: 4343)?.hasPrefix("\(library) may be written by any user") == true)
        chmod(library, 0o644)

        let open = directory.file("open")
        mkdir(open, 0o777)
        chmod(open, 0o777)
        close(Glibc.open("\(open)/interpreter", O_CREAT | O_WRONLY, 0o755))
        #expect(writeFile("#!\(open)/interpreter -x\necho\n", to: program, mode: 0o755))
        #expect(
            ProgramWriters.problem(program, uid: 4343)?.hasPrefix("\(program) is a script run by \(open)/interpreter")
                == true)
        #expect(writeFile("#!/bin/sh\necho\n", to: program, mode: 0o755))
        #expect(ProgramWriters.problem(program, uid: 4343) == nil)

        // An ACL that lets uid 4242 write the library, its mode bits still 0664 root:root.
        let acl =
            "import os,struct; os.setxattr('\(library)','system.posix_acl_access',struct.pack('<I',2)+"
            + "b''.join(struct.pack('<HHI',t,p,i) for t,p,i in [(1,6,0xffffffff),(2,6,4242),(4,4,0xffffffff),(16,6,0xffffffff),(32,4,0xffffffff)]))"
        let set = try runCommand("/usr/bin/python3", ["-c", acl], in: directory)
        try #require(set.status == 0, "this file system keeps no ACL: \(set.standardError)")
        #expect(ProgramWriters.problem(program, uid: 4343)?.hasPrefix("\(library) has an access ACL") == true)
    }
}
