import Foundation
import Testing
import VerticalsContractGen

/// `vt-contractgen` as VerticalsContractPlugin runs it: files in, files out, an exit status.
@Suite(.blocking) struct ContractGenCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "contractgen-\(getpid())-\(UUID().uuidString)")

    func write(_ name: String, _ text: String) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func goodContracts_areWrittenAsSwift_andAnUnchangedOneIsNotRewritten() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try write("shop.vcontract", "contract shop\n/// A.\nmessage A {\n    /// B.\n    1 b: string\n}\n")
        let output = folder.appendingPathComponent("out").path
        #expect(ContractGenCommand.run(["--output", output, input]) == 0)
        let generated = output + "/shop.vcontract.swift"
        let text = try String(contentsOfFile: generated, encoding: .utf8)
        #expect(text.contains("public struct A: WireMessage {"))
        let written = try FileManager.default.attributesOfItem(atPath: generated)[.modificationDate] as? Date
        Thread.sleep(forTimeInterval: 0.05)
        #expect(ContractGenCommand.run(["--output", output, input]) == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: generated)[.modificationDate] as? Date == written)
    }

    @Test func aBadContract_failsWithStatus1_andWritesNothing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try write("shop.vcontract", "contract shop\n/// A.\nmessage A {\n    /// B.\n    1 b: nope\n}\n")
        let output = folder.appendingPathComponent("out").path
        #expect(ContractGenCommand.run(["--output", output, input]) == 1)
        #expect(!FileManager.default.fileExists(atPath: output + "/shop.vcontract.swift"))
        #expect(ContractGenCommand.run(["--output"]) == 64)
        #expect(ContractGenCommand.run(["--output", output, folder.path + "/missing.vcontract"]) == 66)
    }

    @Test func list_namesEveryContractInNameOrder_andABadFileFailsIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let shop = try write("shop.vcontract", "contract shop\n/// A.\nmessage A {\n    /// B.\n    1 b: string\n}\n")
        let billing = try write("billing.vcontract", "contract billing\n")
        let list = folder.appendingPathComponent("Contracts.list.swift").path
        #expect(ContractGenCommand.run(["--list", list, shop, billing]) == 0)
        let text = try String(contentsOfFile: list, encoding: .utf8)
        #expect(text.contains("public enum Contracts {"))
        #expect(text.contains("public static let all: [any ServiceContract.Type] = [Billing.self, Shop.self]\n"))

        let bad = try write("bad.vcontract", "message A {\n")
        #expect(ContractGenCommand.run(["--list", list, shop, bad]) == 1)
        #expect(try String(contentsOfFile: list, encoding: .utf8) == text, "a failed run leaves the last list")
        #expect(ContractGenCommand.run(["--list", list]) == 64)
    }
}
