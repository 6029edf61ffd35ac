import GRDB
import IOInterface
import VerticalsContract
import VerticalsStorage
import VerticalsWire

/// Clinics in the vertical's own SQLite store. Every store access runs on GRDB's queues, off the
/// event loop; clinics looked up by id are answered from ``cache`` once read (see ``ReadCache``).
package struct ClinicRepository: Sendable {
    /// The store.
    package let database: any DatabaseWriter
    /// Clinics read by id, shared by every repository over the same store in this process.
    ///
    /// Exact because this daemon is the store's only writer while it runs (`daemon.restore`
    /// needs it stopped), and a clinic, once created, never changes: ``insert(_:)`` is the one
    /// write, and it clears the id it wrote all the same.
    package let cache: ReadCache<String, Clinics.Clinic>

    /// A repository over `database` (migrated with ``Migrations``), caching clinics in `cache`.
    package init(database: any DatabaseWriter, cache: ReadCache<String, Clinics.Clinic> = ReadCache()) {
        self.database = database
        self.cache = cache
    }

    /// Stores a new clinic with its services and hours, in one transaction.
    package func insert(_ clinic: Clinics.Clinic) async throws {
        defer { cache.remove(clinic.id) }
        try await database.write { db in try Self.insert(clinic, in: db) }
    }

    /// The clinic with `id`, if any.
    package func clinic(id: String) async throws -> Clinics.Clinic? {
        try await cache.load(id) { try await database.read { db in try Self.load(ids: [id], in: db)[id] } }
    }

    /// The clinics with these ids, in the order given; unknown ids are left out, duplicates answered once.
    package func clinics(ids: [String]) async throws -> [Clinics.Clinic] {
        var seen = Set<String>()
        let unique = ids.filter { seen.insert($0).inserted }
        guard !unique.isEmpty else { return [] }
        var found: [String: Clinics.Clinic] = [:]
        for id in unique { found[id] = cache.cached(id) }
        let missing = unique.filter { found[$0] == nil }
        if !missing.isEmpty {
            found.merge(try await database.read { db in try Self.load(ids: missing, in: db) }) { cached, _ in cached }
        }
        return unique.compactMap { found[$0] }
    }

    /// Up to `limit` clinics whose name contains `text`, ignoring case, by name, after position
    /// `after`; and the cursor of the next page (bound to `scope`) when more follow. Keyset
    /// paging over (name_folded, id): clinics created while a caller pages never shift it.
    package func clinics(
        nameContaining text: String, limit: Int, after: PageCursor? = nil, scope: String = ""
    ) async throws -> Clinics.ClinicList {
        let needle = Self.folded(text)
        return try await database.read { db in
            var arguments: StatementArguments = [needle]
            var position = ""
            if let after, case .text(let name) = after.keys[0], case .text(let id) = after.keys[1] {
                position = "AND (name_folded, id) > (?, ?)"
                arguments += [name, id]
            }
            arguments += [limit + 1]
            // instr() rather than LIKE: no wildcards to escape, and it compares the folded forms exactly.
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, name_folded FROM clinic WHERE instr(name_folded, ?) > 0 \(position)
                    ORDER BY name_folded, id LIMIT ?
                    """,
                arguments: arguments)
            let page = PageCursor.page(rows, limit: limit, scope: scope) { row in
                [.text(row["name_folded"]), .text(row["id"])]
            }
            let ids = page.items.map { row -> String in row["id"] }
            let found = try Self.load(ids: ids, in: db)
            return Clinics.ClinicList(clinics: ids.compactMap { found[$0] }, nextCursor: page.nextCursor)
        }
    }

    /// The id and location of every clinic, or of those offering `service`: the candidates of `nearest`.
    ///
    /// Only three columns per clinic, so a scan of the whole directory stays cheap; the
    /// full clinics are loaded for the few that are returned.
    package func locations(offering service: Clinics.Service?) async throws -> [(id: String, location: Coordinate)] {
        try await database.read { db in
            let rows: [Row]
            if let service {
                rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT c.id, c.latitude, c.longitude FROM clinic c
                        JOIN clinic_service s ON s.clinic_id = c.id AND s.service = ?
                        """,
                    arguments: [service.wireName])
            } else {
                rows = try Row.fetchAll(db, sql: "SELECT id, latitude, longitude FROM clinic")
            }
            return rows.map { row in
                (id: row["id"], location: Coordinate(latitude: row["latitude"], longitude: row["longitude"]))
            }
        }
    }

    /// How many clinics the store holds.
    package func count() async throws -> Int {
        try await database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM clinic") ?? 0 }
    }

    // MARK: Inside a transaction

    /// Inserts `clinic` with its services and hours (used by ``insert(_:)`` and the seed migration).
    static func insert(_ clinic: Clinics.Clinic, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO clinic (id, name, name_folded, address, latitude, longitude, time_zone, phone, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                clinic.id, clinic.name, folded(clinic.name), clinic.address, clinic.latitude, clinic.longitude,
                clinic.timeZone, clinic.phone, clinic.createdAt.microsecondsSinceEpoch,
            ])
        for service in clinic.services {
            try db.execute(
                sql: "INSERT OR IGNORE INTO clinic_service (clinic_id, service) VALUES (?, ?)",
                arguments: [clinic.id, service.wireName])
        }
        for period in clinic.hours {
            guard let weekday = period.weekday.isoNumber else { continue }
            try db.execute(
                sql: "INSERT INTO opening_hours (clinic_id, weekday, opens, closes) VALUES (?, ?, ?, ?)",
                arguments: [clinic.id, weekday, period.opens, period.closes])
        }
    }

    /// The clinics with `ids`, by id, in three queries whatever their number.
    ///
    /// Plain SQL with `?` placeholders, not GRDB's SQL interpolation: the interpolation builds
    /// generic literal values on every request, and its types were the largest share of what the
    /// daemon's first request looked up in the Swift runtime (callgrind, `make bench`'s after-settle row).
    static func load(ids: [String], in db: Database) throws -> [String: Clinics.Clinic] {
        guard !ids.isEmpty else { return [:] }
        let list = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        let arguments = StatementArguments(ids)
        let serviceRows = try Row.fetchAll(
            db, sql: "SELECT clinic_id, service FROM clinic_service WHERE clinic_id IN (\(list))", arguments: arguments)
        let hourRows = try Row.fetchAll(
            db,
            sql: """
                SELECT clinic_id, weekday, opens, closes FROM opening_hours WHERE clinic_id IN (\(list))
                ORDER BY clinic_id, weekday, opens
                """,
            arguments: arguments)
        let clinicRows = try Row.fetchAll(db, sql: "SELECT * FROM clinic WHERE id IN (\(list))", arguments: arguments)
        var services: [String: Set<String>] = [:]
        for row in serviceRows {
            services[row["clinic_id"], default: []].insert(row["service"])
        }
        var hours: [String: [Clinics.OpeningHours]] = [:]
        for row in hourRows {
            guard let weekday = Clinics.Weekday(isoNumber: row["weekday"]) else { continue }
            hours[row["clinic_id"], default: []].append(
                Clinics.OpeningHours(weekday: weekday, opens: row["opens"], closes: row["closes"]))
        }
        var clinics: [String: Clinics.Clinic] = [:]
        for row in clinicRows {
            let id: String = row["id"]
            let offered = services[id] ?? []
            clinics[id] = Clinics.Clinic(
                id: id, name: row["name"], address: row["address"], latitude: row["latitude"],
                longitude: row["longitude"], timeZone: row["time_zone"], phone: row["phone"],
                // Contract order, so every answer lists services the same way.
                services: Clinics.Service.knownCases.filter { offered.contains($0.wireName) },
                hours: hours[id] ?? [],
                createdAt: Timestamp(microsecondsSinceEpoch: row["created_at"]))
        }
        return clinics
    }

    /// The form names are compared in: lowercased, so `HILL` finds "Hill Street Surgery".
    static func folded(_ text: String) -> String {
        text.lowercased()
    }
}
