import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsWire

/// Random and mutated input must only ever produce values or typed errors: no trap,
/// no hang. (The fuzz targets go further; these run on every `swift test`.)
@Suite("Hostile input")
struct HostileInputTests {
    private static let validJSON = try! Specimen.Site(
        id: "c1", name: "Hill \"Surgery\"", address: "1 Hill Road", latitude: 51.5, longitude: -0.125,
        timeZone: "Europe/London", phone: "+44 20 7946 0000", services: [.gp, .unknown("x")],
        hours: [.init(weekday: .monday, opens: 540, closes: 1020)], createdAt: .epoch
    ).jsonString(pretty: true)

    @Test("random bytes never crash the JSON parser", arguments: UInt64(1)...8)
    func jsonParser_givenRandomBytes_returnsOrThrows(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let alphabet = Array(#"{}[]":,-+.eE0123456789 \ntrufalsn\u00"#.utf8) + [0x80, 0xC3, 0xFF]
        for _ in 0..<500 {
            let count = Int.random(in: 0...64, using: &random)
            let noise = random.bytes(count)
            let structured = (0..<count).map { _ in alphabet.randomElement(using: &random)! }
            _ = try? JSONValue(parsing: noise)
            _ = try? JSONValue(parsing: structured)
            _ = try? MessageValue(json: String(decoding: structured, as: UTF8.self), as: Specimen.Site.schema)
        }
    }

    @Test("mutated JSON forms never crash the schema reader", arguments: UInt64(1)...8)
    func jsonForm_givenMutations_returnsOrThrows(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let original = Array(Self.validJSON.utf8)
        for _ in 0..<300 {
            var mutated = original
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<mutated.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: mutated[index] = UInt8.random(in: 0...255, using: &random)
                case 1: mutated.remove(at: index)
                default: mutated.insert(mutated[Int.random(in: 0..<mutated.count, using: &random)], at: index)
                }
            }
            if let value = try? JSONValue(parsing: mutated) {
                _ = try? MessageValue(json: value, as: Specimen.Site.schema)
            }
            _ = try? Specimen.Site(json: String(decoding: mutated, as: UTF8.self))
        }
    }

    @Test("mutated and random bodies never crash either decoder", arguments: UInt64(1)...8)
    func decoders_givenMutatedBodies_returnOrThrow(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let original = Specimen.NearbySites(sites: [
            .init(site: try! Specimen.Site(json: Self.validJSON), distanceMetres: 12.5)
        ]).encodedBody()
        for _ in 0..<500 {
            var body = Bool.random(using: &random) ? original : random.bytes(Int.random(in: 0...80, using: &random))
            if !body.isEmpty {
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    body[Int.random(in: 0..<body.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            }
            _ = try? Specimen.NearbySites(decoding: body)
            _ = try? MessageValue(decoding: body, as: Specimen.NearbySites.schema)
            _ = try? MessageValue(decoding: body, as: Specimen.NearbySites.schema, strict: true)
            var reader = ByteReader(body)
            _ = try? Envelope.read(from: &reader)
            var decoder = FrameDecoder(maxFrameSize: 64)
            decoder.append(body)
            while (try? decoder.nextFrame()) ?? nil != nil {}
        }
    }
}
