#if canImport(Glibc)
import Glibc
#endif
import VerticalsContract
import VerticalsManifest
import VerticalsServiceKit
import VerticalsStorage
import VerticalsSupervisorClient
import VerticalsWire

extension SupervisorEngine {
    /// How long `litestream restore` may take before it is killed and the restore refused: the
    /// exports' bound too (`LitestreamConfiguration.restoreTimeLimit`).
    public static let replicaRestoreTimeLimit = LitestreamConfiguration.restoreTimeLimit

    /// Brings stopped service `name`'s store back from the replica its manifest names, at the
    /// latest point or as it was at `timestamp` (RFC 3339, e.g. `2026-05-01T12:00:00Z`), and
    /// returns where the store is and where the one it replaced was kept whole.
    ///
    /// `litestream restore` runs with the service's own configuration
    /// (`<run>/replicas/NAME/litestream.yml`, written again from the manifest) as the service's
    /// user, off the loop, into `NAME.from-replica.sqlite` in the service's state folder; that file
    /// then goes through ``restoreStore(_:from:)`` as any backup does (integrity, the store's
    /// owner, read as the vertical's user, the replaced store kept in root's folder), and is
    /// removed. Last, `litestream reset` forgets Litestream's local state of the replaced store,
    /// so its next start takes a new snapshot and the replica's history goes on.
    ///
    /// A service without a replica is `invalidInput`, and one that is not stopped or failed
    /// `conflict`, before anything runs; a time that is not RFC 3339 is `invalidInput`; a
    /// Litestream that fails (the replica unreachable, no copy at or before `timestamp`) is
    /// `unavailable`, with what Litestream said and what to do.
    public func restoreStoreFromReplica(_ name: String, at timestamp: String? = nil) async throws
        -> Supervisor.RestoreResult
    {
        let unit = try unit(name)
        guard let target = unit.spec.replica else {
            throw ServiceError(
                .invalidInput,
                "\(name) has no replica in the manifest: restore it from a backup (svc-supervisor restore \(name) FILE)",
                details: [ErrorDetail("field", "fromReplica")])
        }
        if let timestamp, !Self.isRFC3339(timestamp) {
            throw ServiceError(
                .invalidInput,
                "the time to restore to must be RFC 3339, e.g. 2026-05-01T12:00:00Z, not \"\(timestamp)\"",
                details: [ErrorDetail("field", "at")])
        }
        guard unit.machine.refusal(of: .restore) != .notStopped else {
            throw ServiceError(
                .conflict, "\(name) is \(unit.state): stop it first (svc-supervisor stop \(name)), then restore")
        }
        try refuseWhileRestoring(unit, "restore")
        guard let program = configuration.litestreamProgram else {
            throw ServiceError(
                .unavailable,
                "cannot restore \(name) from its replica: \(configuration.litestream) is not an executable file "
                    + "(install Litestream, or name it with \(SupervisorSettings.litestream.name))")
        }
        let store = storePath(name)
        let folder = configuration.runDirectory.stateDirectory(for: name)
        let output = "\(folder)/\(name).from-replica.sqlite"
        Self.removeRestoredCopy(output, in: folder)
        defer { Self.removeRestoredCopy(output, in: folder) }
        let (run, variables, configPath) = try await runLitestreamRestore(
            unit, target, program: program, output: output, timestamp: timestamp)
        let result = try await restoreStore(name, from: output)
        let resetArgv = run(LitestreamConfiguration.resetArguments(configPath: configPath, storePath: store))
        let reset = try? await Offload.run {
            try FinishedChild.run(resetArgv, environment: variables, keepOutput: true, timeLimit: .seconds(60))
        }
        if reset?.status != 0 {
            let note =
                "litestream reset failed (\(reset.map { "status \($0.status): \($0.said)" } ?? "not started")); "
                + "its next start may refuse the restored store until litestream reset runs"
            unit.log.note(note)
            logger.warning("\(name): \(note)")
        }
        logger.notice("restored \(name) from its replica\(timestamp.map { " as at \($0)" } ?? "")")
        return result
    }

    /// Runs `litestream restore` of `unit`'s store from `target` into `output` as the service's
    /// user, off the loop, bounded by ``replicaRestoreTimeLimit``; with `ifReplicaExists`, a
    /// replica that holds no copy yet is a success that writes nothing. Returns how to run
    /// Litestream again as that user (its argument list's prefix), with its environment and
    /// configuration. A Litestream that fails is `unavailable`, with what it said and what to do.
    func runLitestreamRestore(
        _ unit: ServiceUnit, _ target: VerticalsManifest.Replica, program: String, output: String,
        timestamp: String? = nil, ifReplicaExists: Bool = false
    ) async throws -> (run: @Sendable ([String]) -> [String], environment: [String], configPath: String) {
        let name = unit.spec.name
        let store = storePath(name)
        let run: @Sendable (_ arguments: [String]) -> [String]
        let litestream = LitestreamConfiguration(storePath: store, replica: target.forService(name))
        let configPath: String
        do {
            let identity = try identity(of: unit.spec)
            try prepareStateFolder(of: name, for: identity)
            configPath = try writeReplicaConfiguration(litestream, of: name, identity)
            let prefix =
                identity.map { [configuration.execShim] + Self.sessionOptions + $0.execOptions + ["--", program] }
                ?? [program]
            run = { prefix + $0 }
        } catch {
            throw ServiceError(.internal, "cannot restore \(name) from its replica: \(error)")
        }
        var environment = configuration.environment
        environment.merge(litestream.environment) { _, own in own }
        let variables = environment.map { "\($0.key)=\($0.value)" }
        let restoreArgv = run(
            LitestreamConfiguration.restoreArguments(
                configPath: configPath, storePath: store, output: output, timestamp: timestamp,
                ifReplicaExists: ifReplicaExists))
        let restored = try await Offload.run {
            try FinishedChild.run(
                restoreArgv, environment: variables, keepOutput: true, timeLimit: Self.replicaRestoreTimeLimit)
        }
        guard restored.status == 0, !restored.timedOut else {
            unit.log.note("litestream restore failed (status \(restored.status)): \(restored.said)")
            let why =
                restored.timedOut
                ? "it took longer than \(ServiceUnit.text(Self.replicaRestoreTimeLimit))"
                : Self.lastLine(restored.said) ?? "status \(restored.status)"
            throw ServiceError(
                .unavailable,
                "cannot restore \(name) from its replica: litestream restore failed (\(why)); "
                    + "check the replica is reachable and holds a copy\(timestamp.map { " at or before \($0)" } ?? ""), "
                    + "or restore from a backup (svc-supervisor restore \(name) FILE)",
                details: [ErrorDetail("litestream", restored.said)])
        }
        return (run, variables, configPath)
    }

    /// Makes service `name`'s state folder, as a start does (a host that never ran it has none),
    /// its user's own when it has one.
    private func prepareStateFolder(of name: String, for identity: ServiceIdentity?) throws(SupervisorError) {
        let folder = configuration.runDirectory.stateDirectory(for: name)
        try RunDirectory.makeDirectories(folder, mode: 0o700)
        guard let identity else { return }
        if TreeOwnership.isNeeded(folder, uid: identity.user.uid, gid: identity.user.gid) {
            try TreeOwnership.give(folder, uid: identity.user.uid, gid: identity.user.gid)
        }
        try TreeOwnership.makePrivate(folder)
    }

    /// Removes the copy `litestream restore` made in the vertical's folder (and any SQLite files
    /// beside it) as the folder's owner (``FolderOwnerAccess``): a name is unlinked, no link followed.
    static func removeRestoredCopy(_ output: String, in folder: String) {
        _ = try? FolderOwnerAccess.run(in: folder) {
            for suffix in ["", "-wal", "-shm", ".tmp"] { unlink(output + suffix) }
        }
    }

    /// The last line of `text` that is not empty, or nil.
    private static func lastLine(_ text: String) -> String? {
        text.split(whereSeparator: \.isNewline).last.map(String.init)
    }

    /// Whether `text` is an RFC 3339 date and time: `YYYY-MM-DDTHH:MM:SS`, an optional fraction,
    /// then `Z` or `±HH:MM`.
    public static func isRFC3339(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Bool {
            range.upperBound <= bytes.count && bytes[range].allSatisfy { (0x30...0x39).contains($0) }
        }
        func byte(_ index: Int, _ expected: Character...) -> Bool {
            index < bytes.count && expected.contains { $0.asciiValue == bytes[index] }
        }
        guard digits(0..<4), byte(4, "-"), digits(5..<7), byte(7, "-"), digits(8..<10), byte(10, "T", "t"),
            digits(11..<13), byte(13, ":"), digits(14..<16), byte(16, ":"), digits(17..<19)
        else { return false }
        var index = 19
        if byte(index, ".") {
            let start = index + 1
            index = start
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            guard index > start else { return false }
        }
        if byte(index, "Z", "z") { return index + 1 == bytes.count }
        guard byte(index, "+", "-"), digits(index + 1..<index + 3), byte(index + 3, ":"), digits(index + 4..<index + 6)
        else { return false }
        return index + 6 == bytes.count
    }
}
