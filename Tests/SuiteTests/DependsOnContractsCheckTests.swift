import Glibc
import Testing
import VerticalsTesting

/// `svc-supervisor check` looks up each operation `depends_on` names in the checkout's contract
/// lock (Tests/Contracts/contracts.lock.json beside the manifest's folder, or --contracts): a
/// misspelt operation and an operator-only one are problems naming the service, the entry and the
/// lock; a vertical the lock does not hold is left alone; without a lock nothing is judged.
@Suite(.blocking, .serialized, .timeLimit(.minutes(1)))
struct DependsOnContractsCheckTests {
    /// This checkout's lock: every reference contract, as `make contracts-update` wrote it.
    static let lock: String = {
        let parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).dropLast(3)
        return parts.joined(separator: "/") + "/Tests/Contracts/contracts.lock.json"
    }()

    /// A checkout's layout in `directory`: `deploy/suite.toml` holding `manifest`, with the lock
    /// at `Tests/Contracts/` when `withLock`.
    static func checkout(_ manifest: String, withLock: Bool, in directory: TemporaryDirectory) throws -> String {
        for folder in ["deploy", "Tests", "Tests/Contracts"] { mkdir(directory.file(folder), 0o755) }
        if withLock {
            let copied = try runCommand(
                "/bin/cp", [lock, directory.file("Tests/Contracts/contracts.lock.json")], in: directory)
            try #require(copied.status == 0, "\(copied.standardError)")
        }
        let path = directory.file("deploy/suite.toml")
        let file = fopen(path, "w")
        fputs(manifest, file)
        fclose(file)
        return path
    }

    static let manifest = """
        [services.identity]
        executable = "svc-identity"
        [services.clinics]
        executable = "svc-clinics"
        depends_on = ["identity.authenticat", "identity.grantRole"]
        [services.records]
        executable = "svc-records"
        depends_on = ["identity.authenticate", "clinics", "elsewhere.anything"]
        [services.elsewhere]
        executable = "svc-notifications"
        """

    static func check(_ manifest: String, _ extra: [String] = [], in directory: TemporaryDirectory) throws
        -> CommandResult
    {
        try runCommand(
            "svc-supervisor", ["check", "--manifest", manifest, "--bin-dir", DaemonProcess.productsDirectory] + extra,
            in: directory)
    }

    @Test func aMisspeltAndAnOperatorOnlyOperation_areProblems_namingTheLock() throws {
        let directory = TemporaryDirectory()
        let manifest = try Self.checkout(Self.manifest, withLock: true, in: directory)

        let result = try Self.check(manifest, in: directory)

        #expect(result.status == 65, "\(result.standardOutput)")
        #expect(
            result.standardOutput.contains(
                "services.clinics.depends_on: identity.authenticat: identity declares no such operation in "),
            "\(result.standardOutput)")
        #expect(
            result.standardOutput.contains(
                "services.clinics.depends_on: identity.grantRole is operator-only"), "\(result.standardOutput)")
        #expect(
            result.standardOutput.contains("2 problems"),
            "records' entries are all declared, elsewhere is not in the lock")
    }

    @Test func withoutALock_nothingIsJudged_butAMissingLockThatWasNamedIsAProblem() throws {
        let directory = TemporaryDirectory()
        let manifest = try Self.checkout(Self.manifest, withLock: false, in: directory)

        let unjudged = try Self.check(manifest, in: directory)
        let named = try Self.check(manifest, ["--contracts", directory.file("none.json")], in: directory)

        #expect(unjudged.status == 0, "\(unjudged.standardOutput)")
        #expect(named.status == 65)
        #expect(named.standardOutput.contains("--contracts: cannot read"), "\(named.standardOutput)")
    }

    @Test func theReferenceSuite_passesAgainstItsOwnLock() throws {
        let directory = TemporaryDirectory()
        let suite = "\(Self.lock.dropLast("Tests/Contracts/contracts.lock.json".count))deploy/suite.toml"

        let result = try Self.check(suite, ["--contracts", Self.lock], in: directory)

        #expect(result.status == 0, "\(result.standardOutput)")
    }
}
