import Foundation
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsContractTesting
import VerticalsServiceKit
import VerticalsWire

/// The committed files of this checkout.
let files = ContractFiles.ofThisCheckout()

/// A contract type, named for test output.
struct ContractCase: Sendable, CustomTestStringConvertible {
    let type: any ServiceContract.Type
    var testDescription: String { type.name }

    static let all = ContractLock.contracts.map(ContractCase.init)
}

/// Whether every member of `old` appears in `new` with the same value, recursively (a
/// newer reader may add fields). Returns the first path that differs.
func jsonSubsetDifference(_ old: JSONValue, _ new: JSONValue, path: String = "") -> String? {
    switch (old, new) {
    case (.object(let oldMembers), .object(let newMembers)):
        for (key, value) in oldMembers {
            guard let current = newMembers.first(where: { $0.key == key }) else { return "\(path).\(key): absent" }
            if let found = jsonSubsetDifference(value, current.value, path: "\(path).\(key)") { return found }
        }
        return nil
    case (.array(let xs), .array(let ys)):
        guard xs.count == ys.count else { return "\(path): \(xs.count) elements, now \(ys.count)" }
        for (index, (x, y)) in zip(xs, ys).enumerated() {
            if let found = jsonSubsetDifference(x, y, path: "\(path)[\(index)]") { return found }
        }
        return nil
    default:
        return old == new ? nil : "\(path): \(old.serialized()) is now \(new.serialized())"
    }
}

extension ContractLock {
    /// Every contract of the reference suite, the framework's included.
    static var contracts: [any ServiceContract.Type] { contracts(Contracts.all) }

    /// Today's lock of the reference suite.
    static func current() -> ContractLock { current(Contracts.all) }
}
