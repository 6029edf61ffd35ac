import GRDB

extension DatabaseMigrator {
    /// A migrator whose versions are plain SQL, applied in the order given: the shape of most
    /// verticals' stores, written as data rather than as one `registerMigration` closure each.
    ///
    /// ```swift
    /// package static var all: DatabaseMigrator {
    ///     .sql([
    ///         ("v1", "CREATE TABLE entry (id TEXT PRIMARY KEY NOT NULL, text TEXT NOT NULL);"),
    ///     ])
    /// }
    /// ```
    ///
    /// A version, once shipped, never changes: append the next one.
    public static func sql(_ versions: [(name: String, sql: String)]) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerSQL(versions)
        return migrator
    }

    /// Registers `versions`, plain SQL each, after the versions already registered.
    public mutating func registerSQL(_ versions: [(name: String, sql: String)]) {
        for (name, sql) in versions {
            registerMigration(name) { db in try db.execute(sql: sql) }
        }
    }
}
