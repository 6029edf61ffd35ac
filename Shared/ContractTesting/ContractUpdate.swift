import Foundation
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit

/// What `make contracts-update` does: regenerate the lock and today's golden fixtures from a
/// product's contracts (passed in) after a deliberate change, refusing a breaking one unless asked.
public enum ContractUpdate {
    /// The outcome of an update.
    public struct Report: Sendable {
        /// Every difference from the committed lock.
        public var findings: [Compatibility.Finding]
        /// The files written (none when refused).
        public var written: [String]
        /// Whether breaking findings stopped the update.
        public var refused: Bool
    }

    /// Compares today's contracts (`product`, then the framework's) with the committed lock; unless a finding is breaking and
    /// `allowBreaking` is false, writes the lock and every fixture file of today and removes
    /// the fixtures of operations that are gone. Frozen versions (`v1/`…) are never touched.
    public static func run(
        _ files: ContractFiles, contracts product: [any ServiceContract.Type], allowBreaking: Bool
    ) throws -> Report {
        let current = ContractLock.current(product)
        let committed = FileManager.default.fileExists(atPath: files.lock.path) ? try files.readLock() : nil
        let findings = committed.map { Compatibility.compare(old: $0, new: current) } ?? []
        if findings.contains(where: \.isBreaking) && !allowBreaking {
            return Report(findings: findings, written: [], refused: true)
        }
        var written: [String] = []
        func write(_ text: String, to url: URL) throws {
            if (try? String(contentsOf: url, encoding: .utf8)) == text { return }
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            written.append(url.path)
        }
        try write(try current.fileText(), to: files.lock)
        for contract in ContractLock.contracts(product) {
            let folder = files.fixtures(contract.name)
            var stale = files.fixtureFiles(in: folder)
            for operation in contract.operations {
                try write(try GoldenFixture.generate(for: operation).fileText(), to: files.fixture(operation))
                stale[operation.name] = nil
            }
            for url in stale.values {
                try FileManager.default.removeItem(at: url)
                written.append("removed \(url.path)")
            }
        }
        return Report(findings: findings, written: written, refused: false)
    }

    /// Freezes today's fixtures and descriptions as `version` (e.g. `v2`) of every
    /// contract that has none by that name yet: the "previous version" later changes are
    /// checked against, backward and forward.
    public static func freeze(
        _ files: ContractFiles, contracts product: [any ServiceContract.Type], version: String
    ) throws -> [String] {
        var written: [String] = []
        for contract in ContractLock.contracts(product) where !files.versions(of: contract.name).contains(version) {
            let folder = files.fixtures(contract.name, version: version)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for operation in contract.operations {
                let url = files.fixture(operation, version: version)
                try GoldenFixture.generate(for: operation).fileText().write(to: url, atomically: true, encoding: .utf8)
                written.append(url.path)
            }
            let description = folder.appendingPathComponent("description.json")
            try (try ServiceDescription.of(contract).jsonString(pretty: true) + "\n")
                .write(to: description, atomically: true, encoding: .utf8)
            written.append(description.path)
        }
        return written
    }
}
