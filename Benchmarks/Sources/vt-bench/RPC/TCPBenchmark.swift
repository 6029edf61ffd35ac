import Foundation
import Histogram

/// Section `tcp`: the RPC rows over TCP loopback, plain (`VERTICALS_TLS=off`), against
/// the C libuv echo over TCP in the same rounds, and against our own stack over a Unix socket:
/// latency with one call in flight (64 B body, both processes on one vCPU), and throughput with
/// 1 connection × 64 in flight (two vCPUs); the same over mutual TLS 1.3 (what TLS adds to p50,
/// held to ``tlsTarget``), and what a new connection costs with its handshake against plain TCP.
/// Target: TCP p50 ≤ 1.3× the C echo over TCP.
struct TCPBenchmark {
    let settings: BenchSettings
    let report: Report
    let directory: String
    var latencyCount = 20_000
    var throughputSeconds = 1.0

    /// What mutual TLS may add to the 64 B round trip's p50, at most (µs).
    static let tlsTarget = 15.0

    enum Stack: String, CaseIterable {
        case cTCP = "C libuv echo, TCP"
        case oursTCP = "ours, TCP"
        case oursTLS = "ours, TCP + mutual TLS"
        case oursUnix = "ours, Unix socket"
    }

    /// Certificates for the TLS rows, minted once with `openssl`: the server as `bench`, the client as `client`.
    var certificates: (server: [String: String], client: [String: String]) {
        let ca = "\(directory)/tls-ca"
        if !FileManager.default.fileExists(atPath: "\(ca).pem") {
            _ = Subprocess.run(
                "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                    "\(ca).key", "-out", "\(ca).pem", "-days", "2", "-subj", "/CN=bench-ca", "-addext",
                    "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign",
                ])
            for name in ["bench", "client"] {
                let base = "\(directory)/tls-\(name)"
                _ = FileManager.default.createFile(
                    atPath: "\(base).ext", contents: Data("subjectAltName=URI:verticals://\(name)\n".utf8))
                _ = Subprocess.run(
                    "/usr/bin/openssl",
                    [
                        "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                        "\(base).key", "-out", "\(base).csr", "-subj", "/CN=\(name)",
                    ])
                _ = Subprocess.run(
                    "/usr/bin/openssl",
                    [
                        "x509", "-req", "-in", "\(base).csr", "-CA", "\(ca).pem", "-CAkey", "\(ca).key",
                        "-CAcreateserial",
                        "-out", "\(base).pem", "-days", "2", "-extfile", "\(base).ext",
                    ])
            }
        }
        func files(_ name: String) -> [String: String] {
            let base = "\(directory)/tls-\(name)"
            return [
                "VERTICALS_TLS_CERT": "\(base).pem", "VERTICALS_TLS_KEY": "\(base).key",
                "VERTICALS_TLS_CA": "\(ca).pem",
            ]
        }
        return (files("bench"), files("client"))
    }

    func run() {
        var p50: [Stack: [Double]] = [:]
        var p99: [Stack: [Double]] = [:]
        var rates: [Stack: [Double]] = [:]
        var connectCost: [Stack: [Double]] = [:]
        for round in 1...settings.rounds {
            progress("tcp round \(round)/\(settings.rounds)")
            for stack in Stack.allCases {
                var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000_000)
                for sample in latencySamples(stack) { _ = histogram.record(sample) }
                p50[stack, default: []].append(Double(histogram.valueAtPercentile(50)) / 1000)
                p99[stack, default: []].append(Double(histogram.valueAtPercentile(99)) / 1000)
            }
            for stack in [Stack.cTCP, .oursTCP, .oursTLS] {
                rates[stack, default: []].append(throughput(stack))
            }
            for stack in [Stack.oursTCP, .oursTLS] {
                connectCost[stack, default: []].append(newConnection(stack))
            }
        }
        report.add(
            "rpc over tcp", "64 B same vCPU p50", unit: "µs", ours: p50[.oursTCP]!, baselineName: "C TCP",
            baseline: p50[.cTCP]!, ratioName: "ours/C", target: .atMost(1.3))
        report.add(
            "rpc over tcp", "64 B same vCPU p99", unit: "µs", ours: p99[.oursTCP]!, baselineName: "C TCP",
            baseline: p99[.cTCP]!, ratioName: "ours/C")
        report.add(
            "rpc over tcp", "64 B same vCPU p50, TCP against our Unix socket", unit: "µs", ours: p50[.oursTCP]!,
            baselineName: "ours Unix", baseline: p50[.oursUnix]!, ratioName: "TCP/Unix")
        report.add(
            "rpc over tcp", "1 conn × 64 in flight, 64 B", unit: "req/s", ours: rates[.oursTCP]!, baselineName: "C TCP",
            baseline: rates[.cTCP]!, ratioName: "ours/C")
        report.add(
            "rpc over tcp", "64 B same vCPU p50, TCP + mutual TLS", unit: "µs", ours: p50[.oursTLS]!,
            baselineName: "C TCP",
            baseline: p50[.cTCP]!, ratioName: "ours/C")
        report.add(
            "rpc over tcp", "64 B same vCPU p99, TCP + mutual TLS", unit: "µs", ours: p99[.oursTLS]!,
            baselineName: "C TCP",
            baseline: p99[.cTCP]!, ratioName: "ours/C")
        report.add(
            "rpc over tcp", "64 B same vCPU p50, what TLS adds", unit: "µs",
            Summary(zip(p50[.oursTLS]!, p50[.oursTCP]!).map { $0 - $1 }), target: .atMost(Self.tlsTarget, "µs"))
        report.add(
            "rpc over tcp", "1 conn × 64 in flight, 64 B, TCP + mutual TLS", unit: "req/s", ours: rates[.oursTLS]!,
            baselineName: "C TCP", baseline: rates[.cTCP]!, ratioName: "ours/C")
        report.add(
            "rpc over tcp", "new connection until usable, median, TCP + mutual TLS handshake", unit: "µs",
            ours: connectCost[.oursTLS]!, baselineName: "plain TCP", baseline: connectCost[.oursTCP]!,
            ratioName: "TLS/TCP")
    }

    /// The median time from connect to a usable connection (with the handshake for TLS), in µs.
    private func newConnection(_ stack: Stack) -> Double {
        var line = ""
        withServer(stack, cpu: 0) { address, environment in
            line = Subprocess.run(
                RPCBenchmark.ownExecutable, ["connect-cost", address, "200"], cpu: 1, environment: environment)
        }
        guard let field = line.split(whereSeparator: \.isWhitespace).first(where: { $0.hasPrefix("micros=") }),
            let micros = Double(field.dropFirst("micros=".count))
        else { fail("connect-cost printed \(line)") }
        return micros
    }

    // MARK: One run

    private func latencySamples(_ stack: Stack) -> [UInt64] {
        let output = "\(directory)/tcp-samples.bin"
        withServer(stack, cpu: 0) { address, environment in
            _ = runClient(
                stack, cpu: 0, environment: environment,
                c: ["latency", address, "\(BenchEcho.framePayloadLength(bodySize: 64))", "\(latencyCount)", output],
                ours: ["echo-latency", directory, "64", "\(latencyCount)", output])
        }
        guard let data = FileManager.default.contents(atPath: output), data.count == latencyCount * 8 else {
            fail("the \(stack.rawValue) latency client wrote no samples")
        }
        return data.withUnsafeBytes { Array($0.bindMemory(to: UInt64.self)) }
    }

    private func throughput(_ stack: Stack) -> Double {
        var line = ""
        withServer(stack, cpu: 0) { address, environment in
            line = runClient(
                stack, cpu: 1, environment: environment,
                c: [
                    "throughput", address, "\(BenchEcho.framePayloadLength(bodySize: 64))", "1", "64",
                    "\(throughputSeconds)",
                ],
                ours: ["echo-throughput", directory, "64", "1", "64", "\(throughputSeconds)"])
        }
        return RPCBenchmark.requestsPerSecond(printed: line, by: stack.rawValue)
    }

    /// Runs `stack`'s client pinned to `cpu` and returns what it printed: the C echo's with the
    /// arguments `c`, or ours with `ours` (it finds the server from `environment`).
    private func runClient(
        _ stack: Stack, cpu: Int, environment: [String: String], c: [String], ours: [String]
    ) -> String {
        switch stack {
        case .cTCP: Subprocess.run(settings.uvEcho, c, cpu: cpu)
        case .oursTCP, .oursTLS, .oursUnix:
            Subprocess.run(RPCBenchmark.ownExecutable, ours, cpu: cpu, environment: environment)
        }
    }

    /// Runs `body` with the server's address and the environment its client needs while
    /// `stack`'s echo server listens, pinned to `cpu`.
    private func withServer(_ stack: Stack, cpu: Int, _ body: (String, [String: String]) -> Void) {
        let server: Process
        switch stack {
        case .cTCP:
            let port = TCPProbe.freePort()
            server = Subprocess.start(settings.uvEcho, ["server", "tcp:127.0.0.1:\(port)"], cpu: cpu)
            TCPProbe.waitForListener(port)
            body("tcp:127.0.0.1:\(port)", [:])
        case .oursTCP:
            let port = TCPProbe.freePort()
            let endpoint = "tcp:127.0.0.1:\(port)"
            server = Subprocess.start(
                RPCBenchmark.ownExecutable, ["echo-server"], cpu: cpu,
                environment: ["VERTICALS_LISTEN": endpoint, "VERTICALS_TLS": "off", "VERTICALS_LOG_LEVEL": "error"])
            TCPProbe.waitForListener(port)
            body(endpoint, ["VERTICALS_ENDPOINT_BENCH": endpoint, "VERTICALS_TLS": "off"])
        case .oursTLS:
            let port = TCPProbe.freePort()
            let endpoint = "tcp:127.0.0.1:\(port)"
            let (serverFiles, clientFiles) = certificates
            server = Subprocess.start(
                RPCBenchmark.ownExecutable, ["echo-server"], cpu: cpu,
                environment: serverFiles.merging(["VERTICALS_LISTEN": endpoint, "VERTICALS_LOG_LEVEL": "warning"]) {
                    $1
                })
            TCPProbe.waitForListener(port)
            body(endpoint, clientFiles.merging(["VERTICALS_ENDPOINT_BENCH": endpoint]) { $1 })
        case .oursUnix:
            let socket = "\(directory)/\(BenchEcho.name).sock"
            unlink(socket)
            server = Subprocess.start(
                RPCBenchmark.ownExecutable, ["echo-server"], cpu: cpu,
                environment: ["VERTICALS_SOCKET_DIR": directory, "VERTICALS_LOG_LEVEL": "warning"])
            Subprocess.waitForListener(socket)
            body(socket, [:])
        }
        Subprocess.stop(server)
    }
}

/// Loopback TCP helpers for the `tcp` section.
enum TCPProbe {
    /// A port on 127.0.0.1 that was free a moment ago (bound to port 0, read back, closed).
    static func freePort() -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let status = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 ? getsockname(fd, $0, &length) : -1
            }
        }
        guard fd >= 0, status == 0 else { fail("cannot find a free TCP port") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Waits until something accepts on 127.0.0.1:`port`.
    static func waitForListener(_ port: UInt16, timeout: Duration = .seconds(15)) {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = loopback(port: port)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            close(fd)
            if connected == 0 { return }
            usleep(5_000)
        }
        fail("nothing listens on 127.0.0.1:\(port) after \(timeout)")
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return address
    }
}
