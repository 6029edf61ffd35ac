import IOInterface
import Sessions
import VerticalsContract
import VerticalsServiceKit
import VerticalsStorage

/// The caller's own history, newest first, with each entry's clinic named through clinics.
package struct ReadHistory {
    let world: World

    /// The most ids one `clinics.getMany` takes (its contract says 500).
    static let idsPerCall = 500
    /// The largest page size `history` accepts.
    package static let maxLimit = 200

    /// Creates the use case.
    package init(world: World) {
        self.world = world
    }

    /// One page of the caller's entries (only of `kind`, when given), newest first: up to
    /// `limit` after `cursor`, with the next page's cursor when more follow. A limit outside
    /// 1...``maxLimit``, or a cursor made for another caller or filter, is `invalid`.
    ///
    /// Clinic names come from one `clinics.getMany` call for the whole history, bounded by
    /// ``World/Settings/clinicNamesTimeout``. When clinics is down, slow or refuses, the
    /// history is still served, since it is the caller's own data, without clinic names
    /// and with `clinicNamesResolved` false.
    package func execute(_ input: Records.HistoryInput) async throws -> Records.History {
        let principal = try await world.sessionCheck.principal(token: input.token)
        try EntryRules.check(filter: input.kind)
        guard (1...Self.maxLimit).contains(input.limit) else {
            throw RecordsError.invalid(field: "limit", reason: "must be 1...\(Self.maxLimit) (got \(input.limit))")
        }
        let scope = "records.history|\(principal.userID)|\(input.kind?.wireName ?? "")"
        let after = try PageCursor.decode(input.cursor, scope: scope, keyCount: 2) {
            RecordsError.invalid(field: "cursor", reason: $0)
        }
        let page = try await world.entries.page(
            userID: principal.userID, kind: input.kind, limit: input.limit, after: after, scope: scope)
        var entries = page.entries
        let next = page.nextCursor
        var seen = Set<String>()
        let clinicIDs = entries.compactMap(\.clinicID).filter { seen.insert($0).inserted }
        guard !clinicIDs.isEmpty else {
            return Records.History(entries: entries, clinicNamesResolved: true, nextCursor: next)
        }
        guard let names = await clinicNames(clinicIDs) else {
            return Records.History(entries: entries, clinicNamesResolved: false, nextCursor: next)
        }
        for index in entries.indices {
            entries[index].clinicName = entries[index].clinicID.flatMap { names[$0] }
        }
        return Records.History(entries: entries, clinicNamesResolved: true, nextCursor: next)
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
