import Foundation
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit

/// Where the contract tests keep their committed files, under `Tests/Contracts/` of a
/// checkout: the lock, the golden fixtures of today, and frozen previous versions.
///
/// ```
/// Tests/Contracts/contracts.lock.json          every contract, as data
/// Tests/Contracts/Fixtures/<service>/<op>.json today's wire bytes + JSON, per operation
/// Tests/Contracts/Fixtures/<service>/v1/       a previous version: its fixtures and description.json
/// ```
public struct ContractFiles: Sendable {
    /// `Tests/Contracts` of the checkout.
    public let folder: URL

    /// The files of the checkout at `root`.
    public init(root: URL) {
        folder = root.appendingPathComponent("Tests/Contracts")
    }

    /// The checkout holding this source file (for tests, which run inside it).
    public static func ofThisCheckout(_ file: String = #filePath) -> ContractFiles {
        var url = URL(fileURLWithPath: file)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
        }
        return ContractFiles(root: url)
    }

    /// The lock file.
    public var lock: URL { folder.appendingPathComponent("contracts.lock.json") }

    /// The fixture folder of `service`, or of its frozen `version` (e.g. `v1`).
    public func fixtures(_ service: String, version: String? = nil) -> URL {
        let base = folder.appendingPathComponent("Fixtures").appendingPathComponent(service)
        return version.map { base.appendingPathComponent($0) } ?? base
    }

    /// The fixture file of `operation` (`service.name`), today's or of `version`.
    public func fixture(_ operation: OperationDescriptor, version: String? = nil) -> URL {
        fixtures(operation.service, version: version).appendingPathComponent("\(operation.name).json")
    }

    /// The committed lock.
    public func readLock() throws -> ContractLock {
        try ContractLock(json: try String(contentsOf: lock, encoding: .utf8))
    }

    /// Every fixture file in a folder (not in its version subfolders), by operation name.
    public func fixtureFiles(in folder: URL) -> [String: URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var files: [String: URL] = [:]
        for name in names where name.hasSuffix(".json") && name != "description.json" {
            files[String(name.dropLast(".json".count))] = folder.appendingPathComponent(name)
        }
        return files
    }

    /// The frozen versions of `service` (subfolders holding a `description.json`), oldest first.
    public func versions(of service: String) -> [String] {
        let folder = fixtures(service)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter {
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("\($0)/description.json").path)
        }.sorted()
    }

    /// The description `service` had at `version`.
    public func description(_ service: String, version: String) throws -> Daemon.Description {
        let file = fixtures(service, version: version).appendingPathComponent("description.json")
        return try Daemon.Description(json: try String(contentsOf: file, encoding: .utf8))
    }

    /// Reads one fixture file.
    public func readFixture(_ url: URL) throws -> GoldenFixture {
        try GoldenFixture(fileText: try String(contentsOf: url, encoding: .utf8), path: url.path)
    }
}
