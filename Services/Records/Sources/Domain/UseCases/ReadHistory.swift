import IOInterface
import ServiceKit

/// The caller's own history, newest first, with each entry's clinic named through clinics.
public struct ReadHistory {
    let world: World

    /// The most ids one `clinics.getMany` takes (its contract says 500).
    static let idsPerCall = 500

    /// Creates the use case.
    public init(world: World) {
        self.world = world
    }

    /// The caller's entries (only of `kind`, when given), newest first.
    ///
    /// Clinic names come from one `clinics.getMany` call for the whole history, bounded by
    /// ``World/Settings/clinicNamesTimeout``. When clinics is down, slow or refuses, the
    /// history is still served, since it is the caller's own data, without clinic names
    /// and with `clinicNamesResolved` false.
    public func execute(_ input: Records.HistoryInput) async throws -> Records.History {
        let principal = try await Authenticate(caller: world.caller).execute(input.token)
        try EntryRules.check(filter: input.kind)
        var entries = try await world.entries.entries(userID: principal.userID, kind: input.kind)
        var seen = Set<String>()
        let clinicIDs = entries.compactMap(\.clinicID).filter { seen.insert($0).inserted }
        guard !clinicIDs.isEmpty else { return Records.History(entries: entries, clinicNamesResolved: true) }
        guard let names = await clinicNames(clinicIDs) else {
            return Records.History(entries: entries, clinicNamesResolved: false)
        }
        for index in entries.indices {
            entries[index].clinicName = entries[index].clinicID.flatMap { names[$0] }
        }
        return Records.History(entries: entries, clinicNamesResolved: true)
    }

    /// Clinic id → name, or `nil` when clinics could not answer.
    private func clinicNames(_ ids: [String]) async -> [String: String]? {
        var names: [String: String] = [:]
        // One call for any real history; more only past `idsPerCall` distinct clinics.
        for start in stride(from: 0, to: ids.count, by: Self.idsPerCall) {
            let chunk = Array(ids[start..<min(start + Self.idsPerCall, ids.count)])
            do {
                let list = try await world.caller.call(
                    Clinics.getMany, .init(ids: chunk), timeout: world.settings.clinicNamesTimeout)
                for clinic in list.clinics { names[clinic.id] = clinic.name }
            } catch {
                world.logger.warning(
                    "history served without clinic names", metadata: ["error": "\(error)"])
                return nil
            }
        }
        return names
    }
}
