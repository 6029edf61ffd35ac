import GRDB
import Glibc
import Testing
import VerticalsStorage
import VerticalsTesting

/// Every daemon's own command line: `--help`, `--version` and `--check`, as an operator runs them.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct DaemonCommandLineTests {
    static let daemons = ["svc-identity", "svc-clinics", "svc-notifications", "svc-records", "svc-appointments"]

    static func environment(_ directory: TemporaryDirectory) -> [String: String] {
        ["VERTICALS_SOCKET_DIR": directory.file("sockets"), "STATE_DIRECTORY": directory.file("state")]
    }

    @Test(arguments: daemons)
    func helpAndVersion_exitZero_withoutTouchingASocketOrTheStore(daemon: String) throws {
        let directory = TemporaryDirectory()

        let help = try runCommand(daemon, ["--help"], environment: Self.environment(directory), in: directory)
        let version = try runCommand(daemon, ["--version"], environment: Self.environment(directory), in: directory)
        let wrong = try runCommand(daemon, ["--serve"], environment: Self.environment(directory), in: directory)

        #expect(help.status == 0 && help.standardOutput.contains("--check"), "\(help.standardError)")
        #expect(version.status == 0 && version.standardOutput.hasPrefix("\(daemon) "))
        #expect(wrong.status == 64 && wrong.standardError.contains("--serve"))
        #expect(access(directory.file("sockets"), F_OK) != 0, "no socket folder made")
        #expect(access(directory.file("state"), F_OK) != 0, "no store made")
    }

    @Test(arguments: daemons)
    func help_printsTheSocketAndStateItWouldUse(daemon: String) throws {
        let directory = TemporaryDirectory()
        let name = String(daemon.dropFirst("svc-".count))

        let help = try runCommand(
            daemon, ["--help"], environment: ["VERTICALS_RUN_DIR": directory.file("run")], in: directory)

        #expect(help.status == 0, "\(help.standardError)")
        #expect(
            help.standardOutput.contains("socket  \(directory.file("run"))/sockets/\(name).sock"),
            "\(help.standardOutput)")
        #expect(
            help.standardOutput.contains("state   \(directory.file("run"))/state/\(name)"), "\(help.standardOutput)")
    }

    @Test(arguments: daemons)
    func check_onAGoodEnvironment_withoutAStore_createsNoneAndExitsWithoutServing(daemon: String) throws {
        let directory = TemporaryDirectory()

        let check = try runCommand(daemon, ["--check"], environment: Self.environment(directory), in: directory)

        #expect(check.status == 0, "\(check.standardError)")
        #expect(check.standardOutput.contains("no store in"), "\(check.standardOutput)")
        #expect(access(directory.file("state"), F_OK) != 0, "the check created the state directory")
        let name = String(daemon.dropFirst("svc-".count))
        #expect(access(directory.file("sockets/\(name).sock"), F_OK) != 0, "nothing served")
    }

    /// `--check` validates every declared setting, the framework's and the vertical's own, and
    /// names each bad one with its value and what is allowed; `--print-settings` prints the
    /// vertical's own declarations, which the ENVIRONMENT reference is made from.
    @Test func check_namesEveryBadSetting_theFrameworksAndTheVerticalsOwn_andExits78() throws {
        let directory = TemporaryDirectory()
        var environment = Self.environment(directory)
        environment["APPOINTMENTS_SLOT_CAPACITY"] = "zero"
        environment["VERTICALS_MAX_IN_FLIGHT"] = "-3"
        environment["OTEL_BSP_MAX_QUEUE_SIZE"] = "0"

        let check = try runCommand("svc-appointments", ["--check"], environment: environment, in: directory)
        let printed = try runCommand("svc-appointments", ["--print-settings"], environment: environment, in: directory)

        #expect(check.status == 78, "\(check.standardError)")
        for named in ["APPOINTMENTS_SLOT_CAPACITY=zero", "VERTICALS_MAX_IN_FLIGHT=-3", "OTEL_BSP_MAX_QUEUE_SIZE=0"] {
            #expect(check.standardError.contains("\(named) is not allowed: expected ≥ 1"), "\(check.standardError)")
        }
        #expect(
            printed.status == 0 && printed.standardOutput.contains("| `APPOINTMENTS_SLOT_CAPACITY` |"),
            "\(printed.standardOutput)")
        #expect(access(directory.file("state"), F_OK) != 0, "no store made")
    }

    /// A store an older build left (or a newer one, or another vertical's) is what `--check` is for.
    static func store(_ directory: TemporaryDirectory, of name: String, migrations: [String]) throws {
        mkdir(directory.file("state"), 0o700)
        let store = try DatabaseQueue(path: directory.file("state/\(name).sqlite"))
        try store.write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            for migration in migrations {
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration])
            }
            try db.execute(sql: "PRAGMA application_id = \(StoreOwner(name).applicationID)")
        }
        try store.close()
    }

    /// Declared routes at start-up: records' code calls identity.authenticate and three operations
    /// of clinics; a manager that passes a `depends_on` without clinics.getMany gets a warning at
    /// start-up naming the edge (a manifest may run records without clinics, so it still starts),
    /// and none once the manifest declares them all.
    @Test func aManifestLackingACallTheCodeMakes_isNamedAtStartUp() throws {
        let directory = TemporaryDirectory()
        var environment = Self.environment(directory)
        environment["VERTICALS_DEPENDS_ON"] = "identity.authenticate,clinics.get,clinics.nearest"

        let check = try runCommand("svc-records", ["--check"], environment: environment, in: directory)

        #expect(check.status == 0, "\(check.standardError)")
        #expect(
            check.standardError.contains(
                "its code calls clinics.getMany (World.calls), but the manifest's records lacks depends_on = [\"clinics.getMany\"]"
            ), "\(check.standardError)")

        environment["VERTICALS_DEPENDS_ON"] = "identity.authenticate,clinics.get,clinics.getMany,clinics.nearest"
        let declared = try runCommand("svc-records", ["--check"], environment: environment, in: directory)
        #expect(declared.status == 0 && !declared.standardError.contains("World.calls"), "\(declared.standardError)")
    }

    @Test func check_onAStoreFromANewerBuild_failsNamingTheSchema_andTheDaemonExits78() throws {
        let directory = TemporaryDirectory()
        try Self.store(directory, of: "clinics", migrations: ["v1", "v99-from-the-future"])

        let check = try runCommand("svc-clinics", ["--check"], environment: Self.environment(directory), in: directory)
        let serve = try runCommand("svc-clinics", [], environment: Self.environment(directory), in: directory)

        #expect(check.status == 78)
        #expect(check.standardError.contains("newer schema") && check.standardError.contains("v99-from-the-future"))
        #expect(serve.status == 78 && serve.standardError.contains("newer schema"), "it refuses to serve too")
    }

    /// `--place-replica-copy`, as a deployment's restore runs it once Litestream wrote the
    /// replica's copy beside the store: a copy from a newer build stays out of the store's place,
    /// kept aside, status 78; a whole copy of this vertical takes the store's name, and the daemon
    /// opens it; with no copy, nothing is done.
    @Test func placeReplicaCopy_placesACheckedCopy_andKeepsABadOneAside() throws {
        let directory = TemporaryDirectory()
        let environment = Self.environment(directory)
        let (store, copy) = (
            directory.file("state/clinics.sqlite"), directory.file("state/clinics.from-replica.sqlite")
        )
        let refused = directory.file("state/clinics.from-replica.refused.sqlite")
        try Self.store(directory, of: "clinics", migrations: ["v1", "v99-from-the-future"])
        #expect(rename(store, copy) == 0)

        let newer = try runCommand("svc-clinics", ["--place-replica-copy"], environment: environment, in: directory)

        #expect(newer.status == 78, "\(newer.standardError)")
        #expect(
            newer.standardError.contains("newer schema") && newer.standardError.contains(refused),
            "\(newer.standardError)")
        #expect(access(store, F_OK) != 0 && access(copy, F_OK) != 0 && access(refused, F_OK) == 0)

        try Self.store(directory, of: "clinics", migrations: [])
        #expect(rename(store, copy) == 0)
        let good = try runCommand("svc-clinics", ["--place-replica-copy"], environment: environment, in: directory)
        let none = try runCommand("svc-clinics", ["--place-replica-copy"], environment: environment, in: directory)
        let check = try runCommand("svc-clinics", ["--check"], environment: environment, in: directory)

        #expect(good.status == 0 && good.standardOutput.contains("placed the copy"), "\(good.standardError)")
        #expect(access(copy, F_OK) != 0, "the copy took the store's name")
        #expect(none.status == 0 && none.standardOutput.contains("nothing placed"), "\(none.standardError)")
        #expect(check.status == 0 && check.standardOutput.contains("opened and migrated"), "\(check.standardError)")
    }

    @Test func check_onAnotherVerticalsStore_failsNamingBoth_andTheDaemonExits78() throws {
        let directory = TemporaryDirectory()
        try Self.store(directory, of: "records", migrations: ["v1"])
        rename(directory.file("state/records.sqlite"), directory.file("state/clinics.sqlite"))

        let check = try runCommand("svc-clinics", ["--check"], environment: Self.environment(directory), in: directory)
        let serve = try runCommand("svc-clinics", [], environment: Self.environment(directory), in: directory)

        #expect(check.status == 78, "\(check.standardError)")
        for run in [check, serve] {
            #expect(run.standardError.contains("not clinics's"), "\(run.standardError)")
        }
        #expect(serve.status == 78, "\(serve.standardError)")
    }

    @Test func check_onABadEnvironment_namesTheSetting() throws {
        let directory = TemporaryDirectory()
        var environment = Self.environment(directory)
        environment["VERTICALS_LOG_LEVEL"] = "loud"

        let check = try runCommand("svc-records", ["--check"], environment: environment, in: directory)

        #expect(check.status == 78)
        #expect(check.standardError.contains("VERTICALS_LOG_LEVEL"))
    }
}
