#if canImport(Glibc)
import Glibc
#endif
import GRDB

/// Which vertical a store belongs to, written into the store itself as SQLite's
/// `PRAGMA application_id` (the 32-bit field at offset 68 of the file header, which
/// `file(1)` and `sqlite3 FILE 'PRAGMA application_id'` show), so a copy carries it wherever
/// it goes: a backup, the copy `restore` keeps, a file moved by hand.
///
/// The id is derived from the vertical's name, the same on every build and host:
/// the 32-bit FNV-1a hash of the name's UTF-8 bytes, read as a signed 32-bit integer (SQLite's
/// type for it); a name that hashes to 0 gets 1, since 0 means "no owner". `clinics` is
/// `StoreOwner("clinics").applicationID`.
///
/// A store with application_id 0 was written by a build from before owners were recorded (or
/// by hand): ``SQLiteStore/open(directory:fileName:owner:migrator:durability:)`` adopts it
/// (stamps it with its own id), and `restore` accepts it.
public struct StoreOwner: Sendable, Equatable, CustomStringConvertible {
    /// The vertical's name, e.g. `clinics`.
    public let name: String

    /// The owner named `name`.
    public init(_ name: String) {
        self.name = name
    }

    /// The owner a store file is named for: its file name up to the first `.` or `-`
    /// (`clinics.sqlite`, `clinics-20261122T123000Z.sqlite` → `clinics`).
    public init(fileName: String) {
        let base = fileName.split(separator: "/").last.map(String.init) ?? fileName
        self.init(String(base.prefix { $0 != "." && $0 != "-" }))
    }

    /// The value of `PRAGMA application_id` in this owner's stores.
    public var applicationID: Int32 {
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return hash == 0 ? 1 : Int32(bitPattern: hash)
    }

    public var description: String { name }

    /// Which of `candidates` owns stores whose application_id is `id`, if one does.
    public static func named(applicationID id: Int32, among candidates: [String]) -> StoreOwner? {
        candidates.map { StoreOwner($0) }.first { $0.applicationID == id }
    }

    /// How a store with application_id `id` is spoken of: `records's` when `candidates` name its
    /// owner, else `another vertical's (application_id 0x…)`.
    static func describe(applicationID id: Int32, among candidates: [String]) -> String {
        if let owner = named(applicationID: id, among: candidates) { return "\(owner.name)'s" }
        return "another vertical's (application_id \(hex(id)))"
    }

    /// `id` as eight hex digits.
    static func hex(_ id: Int32) -> String {
        let digits = String(UInt32(bitPattern: id), radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// The application_id `db` carries.
    static func applicationID(of db: Database) throws -> Int32 {
        Int32(truncatingIfNeeded: try Int.fetchOne(db, sql: "PRAGMA application_id") ?? 0)
    }

    /// Throws unless `db` is this owner's store or carries no owner yet (application_id 0).
    /// `path` and `candidates` only make the message: it names the store's owner when a candidate's id matches.
    func check(_ db: Database, path: String, candidates: () -> [String] = { [] }) throws {
        try check(applicationID: try Self.applicationID(of: db), path: path, candidates: candidates)
    }

    /// Throws unless the first bytes of the file open as `file` are an SQLite header whose
    /// application_id is this owner's or none, read with `pread` alone (no SQLite): what root can
    /// know of a vertical's or an operator's file before any byte of it goes anywhere.
    func checkHeader(_ file: Int32, path: String, candidates: () -> [String] = { [] }) throws {
        var header = [UInt8](repeating: 0, count: 100)
        let count = pread(file, &header, header.count, 0)
        guard count == header.count, header.starts(with: Array("SQLite format 3\u{0}".utf8)) else {
            throw StoreError(.notAStore, "\(path) is not an SQLite store: its first bytes are not an SQLite header")
        }
        // The header's application_id: four bytes, big-endian, at offset 68.
        let id = header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        try check(applicationID: Int32(bitPattern: id), path: path, candidates: candidates)
    }

    /// Throws unless `found` is this owner's application_id or none.
    private func check(applicationID found: Int32, path: String, candidates: () -> [String]) throws {
        guard found != 0, found != applicationID else { return }
        throw StoreError(
            .otherOwner,
            "\(path) is \(Self.describe(applicationID: found, among: candidates())) store, not \(name)'s "
                + "(application_id \(Self.hex(applicationID))): give \(name) its own store or one of its own backups "
                + "(svc-supervisor restore \(name) FILE), and keep this file for the vertical it belongs to")
    }

    /// Stamps `db` with this owner's id when it carries none yet.
    func adopt(_ db: Database) throws {
        guard try Self.applicationID(of: db) == 0 else { return }
        try db.execute(sql: "PRAGMA application_id = \(applicationID)")
    }
}
