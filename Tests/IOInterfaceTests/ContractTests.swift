import Foundation
import IOInterface
import Testing
import VerticalsContract

@Suite("Contracts")
struct ContractTests {
    @Test func operationNames_areUniqueAcrossTheSuite() {
        var seen = Set<String>()
        var duplicates: [String] = []
        for operation in (Contracts.all + Contracts.control).flatMap({ $0.operations })
        where !seen.insert(operation.fullName).inserted {
            duplicates.append(operation.fullName)
        }
        #expect(duplicates.isEmpty, "operations declared twice: \(duplicates)")
        let contracts = (Contracts.all + Contracts.control).map { $0.name }
        #expect(contracts.count == Set(contracts).count)
    }

    @Test(
        "each contract's operations are its own, findable and documented",
        arguments: (Contracts.all + Contracts.control).map(ContractCase.init))
    func contract_listsOnlyItsOwnDocumentedOperations(contract: ContractCase) {
        for operation in contract.type.operations {
            #expect(operation.service == contract.type.name, "\(operation.fullName) is listed by \(contract.type.name)")
            #expect(Contracts.operation(operation.fullName)?.fullName == operation.fullName)
            #expect(!operation.summary.isEmpty, "\(operation.fullName) has no summary")
            #expect(!operation.errors.isEmpty, "\(operation.fullName) declares no error codes")
        }
        #expect(!contract.type.summary.isEmpty)
    }

    /// Every `static let x = Operation<…>(…)` (or `StreamOperation<…>`) declared in a contract's source file must be
    /// in its `operations` list, or no host would serve it and `describe` would not show it.
    /// Swift cannot enumerate static properties, so the test reads the source.
    @Test func everyDeclaredOperation_isListedInItsContract() throws {
        let declared = try SourceScan.declaredOperations()
        #expect(!declared.isEmpty, "the scan found no contract sources under \(SourceScan.verticalsFolder.path)")
        let byName = Dictionary(
            uniqueKeysWithValues: (Contracts.all + Contracts.control).map { (String(describing: $0), $0) })
        for (contractType, operations) in declared {
            guard let contract = byName[contractType] else {
                Issue.record(
                    "\(contractType) conforms to ServiceContract but is missing from Contracts.all (or .control)")
                continue
            }
            let listed = contract.operations.map(\.name)
            for operation in operations {
                #expect(listed.contains(operation), "\(contract.name).\(operation) is declared but not in `operations`")
            }
            #expect(listed.count == operations.count, "\(contractType) lists \(listed), declares \(operations)")
        }
        #expect(Set(declared.keys) == Set(byName.keys), "Contracts.all + .control and the contract sources disagree")
    }

    @Test func contracts_areInDependencyOrder() {
        #expect(Contracts.all.map { $0.name }.prefix(2) == ["identity", "clinics"])
    }
}

/// A contract type, named for test output.
struct ContractCase: Sendable, CustomTestStringConvertible {
    let type: any ServiceContract.Type
    var testDescription: String { type.name }
}

/// Reads the contract sources in Shared/Example/IOInterface/Verticals (the suite's verticals) and
/// Shared/Contract/Supervisor (the framework's control contract).
enum SourceScan {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let verticalsFolder = root.appendingPathComponent("Shared/Example/IOInterface/Verticals")
    static let folders = [verticalsFolder, root.appendingPathComponent("Shared/Contract/Supervisor")]

    /// Contract type name → the operation names its `Operation` statics declare.
    static func declaredOperations() throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        let files = folders.flatMap { folder in
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        }
        for file in files {
            let source = try String(contentsOf: file, encoding: .utf8)
            guard let contract = source.firstMatch(of: /enum\s+(\w+)\s*:\s*ServiceContract/)?.1 else { continue }
            let operations = source.matches(
                of:
                    /static\s+(?:let|var)\s+\w+\s*(?::\s*(?:Stream)?Operation<[^=]*)?=\s*(?:Stream)?Operation<[^(]*>\(\s*[^,]+,\s*"([^"]+)"/
            )
            result[String(contract), default: []] += operations.map { String($0.1) }
        }
        return result
    }
}
