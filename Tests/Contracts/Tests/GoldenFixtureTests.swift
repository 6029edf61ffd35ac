import Foundation
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsContractTesting
import VerticalsServiceKit
import VerticalsWire

/// The golden wire fixtures (`Tests/Contracts/Fixtures/<service>/<operation>.json`): every
/// operation's Input, Output and declared errors, as exact bytes and JSON. A change to any
/// message's wire form fails here, naming the message and field; `make contracts-update`
/// rewrites them after a deliberate change.
@Suite("Golden wire fixtures")
struct GoldenFixtureTests {
    @Test("every operation's committed bytes and JSON still match the code", arguments: ContractCase.all)
    func everyOperation_encodesAndDecodesExactlyItsCommittedBytes(contract: ContractCase) throws {
        for operation in contract.type.operations {
            let url = files.fixture(operation)
            guard FileManager.default.fileExists(atPath: url.path) else {
                Issue.record("\(operation.fullName) has no golden fixture at \(url.path): run `make contracts-update`")
                continue
            }
            let fixture = try files.readFixture(url)
            #expect(fixture.operation == operation.fullName, "\(url.path) holds \(fixture.operation)")
            let expectedRoles =
                ["input", "output"] + (operation.isStream ? ["event"] : [])
                + operation.errors.map { "error \($0.wireName)" }
            #expect(
                Set(fixture.samples.map(\.role)) == Set(expectedRoles),
                "\(operation.fullName): the fixture has \(fixture.samples.map(\.role)), the contract \(expectedRoles)")
            for sample in fixture.samples {
                let problems: [String]
                switch sample.role {
                case "input": problems = FixtureVerification.problems(sample, as: operation.input)
                case "output": problems = FixtureVerification.problems(sample, as: operation.output)
                case "event":
                    guard let event = operation.event else {
                        problems = ["has an event sample, but the operation is not a stream"]
                        break
                    }
                    problems = FixtureVerification.problems(sample, as: event)
                default: problems = FixtureVerification.problems(sample, as: ServiceError.self)
                }
                for problem in problems { Issue.record("\(operation.fullName) \(problem)") }
            }
        }
    }

    @Test("every Input and Output's direct codec agrees with its schema", arguments: ContractCase.all)
    func everyMessage_directCodecAgreesWithItsSchema(contract: ContractCase) throws {
        for operation in contract.type.operations {
            for type in [operation.input, operation.output] {
                for finding in try Self.conformance(type) { Issue.record("\(operation.fullName): \(finding)") }
            }
        }
    }

    /// `SchemaConformance` over the canonical example (every field present) of `M`.
    static func conformance<M: WireMessage>(_: M.Type) throws -> [SchemaConformance.Finding] {
        SchemaConformance.check(try M(decoding: try ExampleValue.of(M.schema).encoded(as: M.schema)))
    }

    @Test func noFixture_isLeftForAnOperationThatIsGone() {
        for contract in ContractLock.contracts {
            let names = Set(contract.operations.map(\.name))
            for (name, url) in files.fixtureFiles(in: files.fixtures(contract.name)) where !names.contains(name) {
                Issue.record("\(url.path) is the fixture of \(contract.name).\(name), which the contract no longer has")
            }
        }
    }

    @Test func aChangedWireForm_isReportedWithTheMessageAndField() throws {
        var fixture = try GoldenFixture.generate(for: Identity.login.descriptor)
        // A committed email of "email-1" that today's encoder writes differently: flip one byte of its text.
        let input = fixture.samples[0]
        var bytes = input.bytes
        bytes[bytes.count - 1] ^= 0x01
        fixture.samples[0] = GoldenFixture.Sample(role: "input", message: input.message, bytes: bytes, json: input.json)
        let problems = FixtureVerification.problems(fixture.samples[0], as: Identity.LoginInput.self)
        #expect(problems.contains { $0.contains("identity.LoginInput.password") }, "\(problems)")
    }

    @Test func aTypeChange_isReportedWithTheMessageAndField() throws {
        let sample = try GoldenFixture.generate(for: Clinics.nearest.descriptor).samples[0]
        // `limit` written as a string where today's schema reads an int.
        var value = try MessageValue(decoding: sample.bytes, as: Clinics.NearestInput.schema)
        guard let limit = Clinics.NearestInput.schema.field(named: "limit") else {
            Issue.record("clinics.NearestInput has no limit field")
            return
        }
        value[limit.tag] = .string("three")
        let changed = MessageSchema(
            "clinics.NearestInput",
            Clinics.NearestInput.schema.fields.map {
                $0.tag == limit.tag ? .required(limit.tag, "limit", .string) : $0
            })
        let bytes = try value.encoded(as: changed)
        let broken = GoldenFixture.Sample(role: "input", message: sample.message, bytes: bytes, json: sample.json)
        let problems = FixtureVerification.problems(broken, as: Clinics.NearestInput.self)
        #expect(problems.contains { $0.contains("clinics.NearestInput") && $0.contains("limit") }, "\(problems)")
    }

    @Test(
        "a fixture file reads back as written", arguments: [Identity.register.descriptor, Clinics.checkSlot.descriptor])
    func fixtureFile_roundTrips(operation: OperationDescriptor) throws {
        let fixture = try GoldenFixture.generate(for: operation)
        #expect(try GoldenFixture(fileText: fixture.fileText(), path: "memory") == fixture)
    }
}
