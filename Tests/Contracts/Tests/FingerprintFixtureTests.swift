import Foundation
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsContractTesting
import VerticalsWire

/// The worked fingerprint of PROTOCOL.md § 14 (`Fixtures/fingerprint/clinics.json`): a real
/// canonical description, the one records asks clinics about, with its real fingerprint. Checked
/// three ways: the fingerprint is the SHA-256 of the bytes, by an implementation written from the
/// page alone; the framework builds the same bytes; and the page's recipe, followed from
/// `daemon.describe`'s answer in JSON alone, builds them too.
///
/// A deliberate change to those operations' schemas or docs changes the fixture: rewrite it with
/// `VERTICALS_WRITE_FINGERPRINT_FIXTURE=1 swift test --filter FingerprintFixtureTests`.
@Suite struct FingerprintFixtureTests {
    static let path = "\(TrackerReferenceTests.repositoryRoot)/Tests/Contracts/Fixtures/fingerprint/clinics.json"
    /// What records calls of clinics (its `World.calls`), as its check asks.
    static let asked = ["clinics.get", "clinics.getMany", "clinics.nearest"]

    /// The fixture file: the callee, the operations, the description's bytes and JSON form, the fingerprint.
    struct Fixture {
        var service: String
        var operations: [String]
        var bytes: [UInt8]
        var fingerprint: String

        init(path: String) throws {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let parsed = try JSONSerialization.jsonObject(with: data)
            let object = try #require(parsed as? [String: Any])
            service = try #require(object["service"] as? String)
            operations = try #require(object["operations"] as? [String])
            let hex = try #require(object["hex"] as? String)
            bytes = try #require(Hex.decode(hex))
            fingerprint = try #require(object["fingerprint"] as? String)
        }
    }

    /// The description the framework makes of ``asked``, as clinics and records each make it.
    static func frameworkDescription() -> Daemon.Description {
        ContractFingerprint.description(of: "clinics", Clinics.operations.filter { asked.contains($0.fullName) })
    }

    /// Writes the fixture from the framework, when asked to by the environment.
    static func writeIfAsked() throws {
        guard ProcessInfo.processInfo.environment["VERTICALS_WRITE_FINGERPRINT_FIXTURE"] == "1" else { return }
        let description = frameworkDescription()
        let bytes = description.encodedBody(capacity: 1024)
        let text = JSONValue.object([
            ("service", .string("clinics")), ("operations", .array(asked.map { .string($0) })),
            ("fingerprint", .string(ContractFingerprint.of(description))), ("hex", .string(Hex.encode(bytes))),
            ("description", try JSONValue(parsing: try description.jsonString())),
        ]).serialized(pretty: true)
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try (text + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The fixture, written first when the environment asks.
    static func fixture() throws -> Fixture {
        try writeIfAsked()
        return try Fixture(path: path)
    }

    /// Whether the framework gives `description` the fixture's bytes and fingerprint.
    static func expectFixtures(_ description: Daemon.Description, _ fixture: Fixture, _ why: Comment) {
        #expect(description.encodedBody(capacity: 1024) == fixture.bytes, why)
        #expect(ContractFingerprint.of(description) == fixture.fingerprint)
    }

    @Test func theFixturesFingerprint_isTheSHA256OfItsBytes_asThePageSays() throws {
        let fixture = try Self.fixture()
        #expect(fixture.fingerprint == "sha256:" + PageSHA256.hex(of: fixture.bytes))
        #expect(fixture.fingerprint.count == 7 + 64)
        // The framework's own function agrees, on the description those bytes read back as.
        let description = try Daemon.Description(decoding: fixture.bytes)
        Self.expectFixtures(description, fixture, "the bytes are canonical: they read and write back alike")
    }

    @Test func theFramework_makesTheFixturesBytes_forTheOperationsRecordsCalls() throws {
        let fixture = try Self.fixture()
        #expect(fixture.service == "clinics" && fixture.operations == Self.asked)
        Self.expectFixtures(
            Self.frameworkDescription(), fixture,
            "clinics' get, getMany or nearest changed: rewrite the fixture (see FingerprintFixtureTests)")
    }

    @Test func thePagesRecipe_followedFromDescribesJSONAlone_makesTheSameBytes() throws {
        let fixture = try Self.fixture()
        // What an outside client has: the callee's `daemon.describe` answer in its JSON form,
        // with every operation in routing order, not only those asked.
        let describe = try JSONSerialization.jsonObject(
            with: Data(try ServiceDescription.of(Clinics.self).jsonString().utf8))
        let bytes = try PageRecipe.canonicalBytes(
            describe: try #require(describe as? [String: Any]), service: "clinics", asked: Self.asked.reversed())
        #expect(Hex.encode(bytes) == Hex.encode(fixture.bytes))
        #expect("sha256:" + PageSHA256.hex(of: bytes) == fixture.fingerprint)
    }

    @Test func theIndependentSHA256_givesTheStandardsOwnExamples() {
        #expect(PageSHA256.hex(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            PageSHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let twoBlocks = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(PageSHA256.hex(of: twoBlocks) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}

/// SHA-256 (FIPS 180-4) and lower-case hex, written for the test from the standard alone: no
/// library, so the fixture's fingerprint is not checked by the code that made it.
enum PageSHA256 {
    static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    static func hex(of message: [UInt8]) -> String {
        var h: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        var padded = message + [0x80]
        while padded.count % 64 != 56 { padded.append(0) }
        let bits = UInt64(message.count) * 8
        for shift in stride(from: 56, through: 0, by: -8) {
            padded.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
        func rotate(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
        for chunk in stride(from: 0, to: padded.count, by: 64) {
            var w = [UInt32](repeating: 0, count: 64)
            for i in 0..<16 {
                w[i] = padded[chunk + 4 * i..<chunk + 4 * i + 4].reduce(0) { $0 << 8 | UInt32($1) }
            }
            for i in 16..<64 {
                let s0 = rotate(w[i - 15], 7) ^ rotate(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotate(w[i - 2], 17) ^ rotate(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
            for i in 0..<64 {
                let t1 = hh &+ (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) &+ ((e & f) ^ (~e & g)) &+ k[i] &+ w[i]
                let t2 = (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            for (i, value) in [a, b, c, d, e, f, g, hh].enumerated() { h[i] = h[i] &+ value }
        }
        return h.map { word in
            let text = String(word, radix: 16)
            return String(repeating: "0", count: 8 - text.count) + text
        }.joined()
    }
}

/// PROTOCOL.md § 14's recipe, steps 1 to 6, written from the page over a `daemon.describe` answer
/// in its JSON form (PROTOCOL.md § 10): no framework type, no framework codec.
enum PageRecipe {
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// The canonical description's bytes of the operations `asked` (in any order) of `service`.
    static func canonicalBytes(describe: [String: Any], service: String, asked: [String]) throws -> [UInt8] {
        let operations = try list(describe, "operations")
        let messages = Dictionary(try list(describe, "messages").map { (try text($0, "name"), $0) }) { first, _ in first
        }
        let enums = Dictionary(try list(describe, "enums").map { (try text($0, "name"), $0) }) { first, _ in first }
        // Step 1 and 3: each served operation asked about, once, sorted by `service.operation` as bytes.
        let wanted = Set(asked)
        let chosen = try operations.filter { wanted.contains("\(try text($0, "service")).\(try text($0, "name"))") }
            .sorted { lhs, rhs in
                let left = Array("\((lhs["service"] as? String) ?? "").\((lhs["name"] as? String) ?? "")".utf8)
                let right = Array("\((rhs["service"] as? String) ?? "").\((rhs["name"] as? String) ?? "")".utf8)
                return left.lexicographicallyPrecedes(right)
            }
        // Step 4: the walk.
        var listedMessages: [[String: Any]] = []
        var listedEnums: [[String: Any]] = []
        var seenMessages: Set<String> = []
        var seenEnums: Set<String> = []
        func visit(_ name: String) throws {
            guard seenMessages.insert(name).inserted else { return }
            guard let message = messages[name] else { throw Problem(description: "describe lists no message \(name)") }
            listedMessages.append(message)
            for field in try list(message, "fields") {
                let type = try text(field, "type")
                if type.hasPrefix("message ") {
                    try visit(String(type.dropFirst("message ".count)))
                } else if type.hasPrefix("enum ") {
                    let enumeration = String(type.dropFirst("enum ".count))
                    guard seenEnums.insert(enumeration).inserted else { continue }
                    guard let found = enums[enumeration] else {
                        throw Problem(description: "no enumeration \(enumeration)")
                    }
                    listedEnums.append(found)
                }
            }
        }
        for operation in chosen {
            try visit(try text(operation, "input"))
            try visit(try text(operation, "output"))
            if let event = operation["event"] as? String { try visit(event) }
        }
        // Steps 2, 5 and 6: the fields, encoded by PROTOCOL.md § 6 and § 7.
        var body = Body()
        body.string(1, service)
        body.string(2, "")
        for operation in chosen { body.message(3, try operationInfo(operation)) }
        for message in listedMessages { body.message(4, try messageInfo(message)) }
        for enumeration in listedEnums {
            var info = Body()
            info.string(1, try text(enumeration, "name"))
            for name in (enumeration["cases"] as? [String]) ?? [] { info.string(2, name) }
            body.message(5, info)
        }
        return body.bytes
    }

    static func operationInfo(_ operation: [String: Any]) throws -> Body {
        var info = Body()
        info.string(1, try text(operation, "name"))
        info.string(2, (operation["summary"] as? String) ?? "")
        info.string(3, try text(operation, "input"))
        info.string(4, try text(operation, "output"))
        for code in (operation["errors"] as? [String]) ?? [] { info.string(5, code) }
        info.string(6, try text(operation, "service"))
        if let event = operation["event"] as? String { info.string(7, event) }
        if let route = operation["route"] as? [String: Any] {
            var routeInfo = Body()
            routeInfo.string(1, try text(route, "template"))
            let aliases = try list(route, "aliases").sorted {
                Array(((($0["name"] as? String) ?? "")).utf8).lexicographicallyPrecedes(
                    Array(((($1["name"] as? String) ?? "")).utf8))
            }
            for alias in aliases {
                var aliasInfo = Body()
                aliasInfo.string(1, try text(alias, "name"))
                aliasInfo.string(2, try text(alias, "field"))
                routeInfo.message(2, aliasInfo)
            }
            info.message(8, routeInfo)
        }
        for mark in (operation["marks"] as? [String]) ?? [] { info.string(9, mark) }
        return info
    }

    static func messageInfo(_ message: [String: Any]) throws -> Body {
        var info = Body()
        info.string(1, try text(message, "name"))
        info.string(2, (message["doc"] as? String) ?? "")
        for field in try list(message, "fields") {
            var fieldInfo = Body()
            fieldInfo.varint(1, try number(field, "tag"))
            fieldInfo.string(2, try text(field, "name"))
            fieldInfo.string(3, try text(field, "type"))
            fieldInfo.string(4, try text(field, "presence"))
            if let value = field["defaultValue"] as? String { fieldInfo.string(5, value) }
            fieldInfo.string(6, (field["doc"] as? String) ?? "")
            if field["maxBytes"] is NSNumber { fieldInfo.varint(7, try number(field, "maxBytes")) }
            fieldInfo.varint(8, (field["secret"] as? Bool) == true ? 1 : 0)
            info.message(3, fieldInfo)
        }
        return info
    }

    /// PROTOCOL.md § 6: keys `tag << 3 | wire type`, varints least significant group first, strings and
    /// nested messages length-delimited.
    struct Body {
        var bytes: [UInt8] = []

        mutating func raw(_ value: UInt64) {
            var value = value
            while value >= 0x80 {
                bytes.append(UInt8(value & 0x7f) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
        }

        mutating func varint(_ tag: UInt64, _ value: UInt64) {
            raw(tag << 3)
            raw(value)
        }

        mutating func string(_ tag: UInt64, _ value: String) {
            raw(tag << 3 | 2)
            raw(UInt64(value.utf8.count))
            bytes += value.utf8
        }

        mutating func message(_ tag: UInt64, _ value: Body) {
            raw(tag << 3 | 2)
            raw(UInt64(value.bytes.count))
            bytes += value.bytes
        }
    }

    static func list(_ object: [String: Any], _ key: String) throws -> [[String: Any]] {
        if object[key] == nil || object[key] is NSNull { return [] }
        guard let value = object[key] as? [[String: Any]] else { throw Problem(description: "`\(key)` is not a list") }
        return value
    }

    static func text(_ object: [String: Any], _ key: String) throws -> String {
        guard let value = object[key] as? String else { throw Problem(description: "`\(key)` is not a string") }
        return value
    }

    static func number(_ object: [String: Any], _ key: String) throws -> UInt64 {
        guard let value = object[key] as? NSNumber else { throw Problem(description: "`\(key)` is not a number") }
        return value.uint64Value
    }
}
