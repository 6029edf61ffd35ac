import Foundation
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsContractTesting
import VerticalsServiceKit
import VerticalsWire

/// The breaking-change guard: today's contracts against the committed lock, and today's
/// messages against every frozen previous version (`Fixtures/<service>/v1/`), both ways.
@Suite("Breaking-change guard")
struct ContractLockTests {
    @Test func todaysContracts_breakNothingTheLockPromised() throws {
        let findings = Compatibility.compare(old: try files.readLock(), new: .current())
        for finding in findings where finding.isBreaking {
            let advice = "make the change additive (new tag, optional or defaulted field, new operation)"
            Issue.record("\(finding) — a deployed peer built from the lock would fail; \(advice)")
        }
        // Additive changes pass; `make contracts-update` records them in the lock.
    }

    @Test func theLock_isWhatUpdateWouldWrite_whenNothingChanged() throws {
        let committed = try files.readLock()
        if Compatibility.compare(old: committed, new: .current()).isEmpty {
            let upToDate = try String(contentsOf: files.lock, encoding: .utf8) == ContractLock.current().fileText()
            #expect(upToDate, "a summary, doc or order changed since the lock was written: run `make contracts-update`")
        }
    }

    @Test("previous versions' bytes still decode today (backward)", arguments: ContractCase.all)
    func previousVersionsBytes_decodeWithTodaysTypes(contract: ContractCase) throws {
        // A service with no frozen version is new since the last `vt-contracts freeze` (e.g. made by
        // `svc-supervisor new`): no caller can depend on an older form of it yet.
        for version in files.versions(of: contract.type.name) {
            for (name, url) in files.fixtureFiles(in: files.fixtures(contract.type.name, version: version)) {
                guard let operation = contract.type.operations.first(where: { $0.name == name }) else {
                    Issue.record(
                        "\(contract.type.name).\(name) of \(version) is gone today: callers of \(version) break")
                    continue
                }
                for sample in try files.readFixture(url).samples {
                    let type: any WireMessage.Type =
                        sample.role == "input"
                        ? operation.input : sample.role == "output" ? operation.output : ServiceError.self
                    if let problem = Self.backwardProblem(sample, type) {
                        Issue.record("\(operation.fullName) \(version) \(sample.role): \(problem)")
                    }
                }
            }
        }
    }

    @Test("today's bytes decode with previous versions' schemas (forward)", arguments: ContractCase.all)
    func todaysBytes_decodeWithPreviousVersionsSchemas(contract: ContractCase) throws {
        for version in files.versions(of: contract.type.name) {
            let old = try files.description(contract.type.name, version: version)
            // That version's reader is the generic decoder over its own schemas, read back from
            // its `describe`: it skips what it does not know and demands what it required.
            let oldSchemas = try ServiceDescription.catalog(of: old)
            for operation in contract.type.operations {
                guard let oldOperation = old.operations.first(where: { $0.name == operation.name }) else { continue }
                let fixture = try files.readFixture(files.fixture(operation))
                for sample in fixture.samples where sample.role == "input" || sample.role == "output" {
                    let (oldName, schema) =
                        sample.role == "input"
                        ? (oldOperation.input, operation.input.schema) : (oldOperation.output, operation.output.schema)
                    guard let oldSchema = oldSchemas.message(named: oldName) else {
                        Issue.record("\(operation.fullName) \(sample.role): \(version) describes no \(oldName)")
                        continue
                    }
                    do {
                        let seenByOld = try MessageValue(decoding: sample.bytes, as: oldSchema)
                        let seenToday = try MessageValue(decoding: sample.bytes, as: schema)
                        if let difference = ValueSubset.firstDifference(
                            old: seenByOld, new: seenToday, schema: oldSchema, path: oldName)
                        {
                            Issue.record("\(operation.fullName) \(sample.role): \(version) reads \(difference)")
                        }
                    } catch {
                        Issue.record(
                            "\(operation.fullName) \(sample.role): a \(version) peer cannot read today's bytes: \(error)"
                        )
                    }
                }
            }
        }
    }

    /// Why `sample` (an older version's) does not read as today's `M`, or nil when it does
    /// and every value it held survives.
    static func backwardProblem<M: WireMessage>(_ sample: GoldenFixture.Sample, _: M.Type) -> String? {
        do {
            let today = try JSONValue(parsing: try M(decoding: sample.bytes).jsonString())
            return jsonSubsetDifference(sample.json, today).map { "\(M.schema.name) reads it differently at \($0)" }
        } catch {
            return "today's \(M.schema.name) cannot read it: \(error)"
        }
    }
}
