import Testing
import VerticalsEventLoop

@Suite("SocketEndpoint: parsing unix:PATH and tcp:HOST:PORT")
struct SocketEndpointTests {
    @Test(arguments: [
        ("unix:/run/verticals/ledger.sock", SocketEndpoint.unix(path: "/run/verticals/ledger.sock")),
        ("unix:relative.sock", .unix(path: "relative.sock")),
        ("tcp:127.0.0.1:7001", .tcp(host: "127.0.0.1", port: 7001)),
        ("tcp:[::1]:7001", .tcp(host: "::1", port: 7001)),
        ("tcp:[fe80::1:2]:65535", .tcp(host: "fe80::1:2", port: 65535)),
        ("tcp:ledger.internal:80", .tcp(host: "ledger.internal", port: 80)),
        ("tcp:localhost:0", .tcp(host: "localhost", port: 0)),
    ])
    func parse_readsEveryForm_andDescriptionReadsBack(text: String, expected: SocketEndpoint) throws {
        let endpoint = try SocketEndpoint(parsing: text)
        #expect(endpoint == expected)
        #expect(endpoint.description == text)
        #expect(try SocketEndpoint(parsing: endpoint.description) == endpoint)
    }

    @Test(arguments: [
        ("", SocketEndpointError.Code.unknownScheme),
        ("/run/x.sock", .unknownScheme),
        ("http://127.0.0.1:80", .unknownScheme),
        ("unix:", .emptyPath),
        ("unix:/tmp/\u{0}x", .emptyPath),
        ("unix:/" + String(repeating: "x", count: 120), .pathTooLong),
        ("tcp:127.0.0.1", .missingPort),
        ("tcp:127.0.0.1:", .badPort),
        ("tcp:127.0.0.1:65536", .badPort),
        ("tcp:127.0.0.1:-1", .badPort),
        ("tcp:127.0.0.1:+80", .badPort),
        ("tcp:127.0.0.1:8O", .badPort),
        ("tcp::80", .badHost),
        ("tcp:::1:80", .badHost),
        ("tcp:[::1]", .missingPort),
        ("tcp:[::1:80", .badHost),
        ("tcp:[127.0.0.1]:80", .badHost),
        ("tcp:bad_host:80", .badHost),
        ("tcp:-bad.example:80", .badHost),
        ("tcp:a..b:80", .badHost),
        ("tcp:" + String(repeating: "a", count: 64) + ":80", .badHost),
    ])
    func parse_refusesBadText_withATypedCode(text: String, code: SocketEndpointError.Code) {
        #expect(throws: SocketEndpointError(text, code)) { try SocketEndpoint(parsing: text) }
    }

    @Test func errorDescription_namesTheTextAndTheAcceptedForms() {
        let error = SocketEndpointError("tcp:x", .missingPort)
        #expect(error.code == .missingPort && error.code.description == "missingPort")
        #expect(error.description.contains("\"tcp:x\": it names no port"))
        #expect(error.description.contains("tcp:HOST:PORT"))
    }

    @Test func loopback_isUnixAnd127AndColonColonOneAndLocalhost_only() throws {
        for text in [
            "unix:/x.sock", "tcp:127.0.0.1:1", "tcp:127.8.9.10:1", "tcp:[::1]:1", "tcp:localhost:1",
            "tcp:[::ffff:127.0.0.1]:1",
        ] {
            #expect(try SocketEndpoint(parsing: text).isLoopback, "\(text)")
        }
        for text in [
            "tcp:0.0.0.0:1", "tcp:10.0.0.2:1", "tcp:[::]:1", "tcp:[fe80::1]:1", "tcp:example.org:1", "tcp:128.0.0.1:1",
        ] {
            #expect(try !SocketEndpoint(parsing: text).isLoopback, "\(text)")
        }
    }

    @Test func transport_saysWhich() throws {
        #expect(try SocketEndpoint(parsing: "unix:/a").transport == .unix)
        #expect(try SocketEndpoint(parsing: "tcp:127.0.0.1:1").transport == .tcp)
    }
}
