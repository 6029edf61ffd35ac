import Glibc
import VerticalsClient
import VerticalsContract
import VerticalsManifest
import VerticalsWire
import VerticalsServiceKit
import VerticalsSupervisorClient

/// `check`'s look at the operations `depends_on` names, against the contracts a checkout commits:
/// `Tests/Contracts/contracts.lock.json`, every contract as data, which the contract guard of
/// `make test` keeps equal to the code. An operation its vertical does not declare there, or one
/// only the operator may call, is a problem under `depends_on`. A vertical the lock does not hold
/// (another product's, a remote one) is not judged here; its daemon still warns at start-up about
/// a granted operation it does not serve, from what it really serves.
enum DeclaredOperations {
    /// The lock as a checkout lays it out beside `manifest` (`deploy/suite.toml`):
    /// `<the manifest's folder>/../Tests/Contracts/contracts.lock.json`.
    static func lockPath(beside manifest: String) -> String {
        let folder = manifest.lastIndex(of: "/").map { String(manifest[..<$0]) } ?? "."
        return "\(folder)/../Tests/Contracts/contracts.lock.json"
    }

    /// The lock at `path`; a problem when it cannot be read or is not a lock.
    static func lock(at path: String) -> Result<ContractLock, ManifestError> {
        guard let text = WholeFile.read(path) else {
            return .failure(
                ManifestError(
                    .unreadable, key: "--contracts", "cannot read \(path): \(String(cString: strerror(errno)))",
                    values: [ErrorDetail("path", path)]))
        }
        do {
            return .success(try ContractLock(json: text))
        } catch {
            return .failure(
                ManifestError(
                    .syntax, key: "--contracts", "\(path) is not a contract lock: \(error)",
                    values: [ErrorDetail("path", path)], cause: error))
        }
    }

    /// What is wrong with `manifest`'s `depends_on` operations by `lock` (read from `path`).
    static func problems(in manifest: Manifest, lock: ContractLock, path: String) -> [ManifestError] {
        var problems: [ManifestError] = []
        for service in manifest.services {
            for callee in service.dependsOn {
                guard let operations = service.operations(of: callee), let contract = lock.service(callee) else {
                    continue
                }
                for operation in operations {
                    guard let declared = contract.operations.first(where: { $0.name == operation }) else {
                        problems.append(
                            ManifestError(
                                .unknownDependency, service: service.name, key: "depends_on",
                                "\(callee).\(operation): \(callee) declares no such operation in \(path) (it has "
                                    + contract.operations.map(\.name).joined(separator: ", ") + ")",
                                values: [ErrorDetail("dependency", "\(callee).\(operation)")]))
                        continue
                    }
                    if declared.marks.contains("operatorOnly") {
                        problems.append(
                            ManifestError(
                                .operatorOnly, service: service.name, key: "depends_on",
                                "\(callee).\(operation) is operator-only (\(path)): no depends_on can grant it; drop it",
                                values: [ErrorDetail("dependency", "\(callee).\(operation)")]))
                    }
                }
            }
        }
        return problems
    }
}
