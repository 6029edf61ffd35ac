import Hummingbird
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// `GET /healthz` over HTTP: 200 `ok` when the vertical answers its own `daemon.health` over its
/// socket (the path every caller takes), else 503 with the reason.
enum HealthEndpoint {
    /// The variable naming the HTTP port (default ``defaultPort``), on 127.0.0.1.
    static let portVariable = "GREETER_HTTP_PORT"
    /// The port when ``portVariable`` is unset.
    static let defaultPort = 8080
    /// How long `/healthz` waits for the vertical's answer.
    static let timeout = Duration.seconds(2)

    /// ``portVariable`` is not a port number.
    struct PortError: Error, CustomStringConvertible {
        let value: String
        var description: String {
            "\(HealthEndpoint.portVariable)=\(value) is not a port number (1-65535): set it to one, or unset it for \(HealthEndpoint.defaultPort)"
        }
    }

    /// The Hummingbird application (a swift-service-lifecycle `Service`) serving `/healthz` for
    /// `runtime`'s vertical.
    static func application(runtime: ServiceRuntime) throws -> some ApplicationProtocol {
        let port: Int
        if let value = runtime.environment[portVariable] {
            guard let number = Int(value), (1...65535).contains(number) else { throw PortError(value: value) }
            port = number
        } else {
            port = defaultPort
        }
        let router = Hummingbird.Router()
        let (client, name) = (runtime.client, runtime.name)
        router.get("healthz") { _, _ -> Response in
            do {
                let body = try await client.callRaw(
                    service: name, operation: Daemon.health.fullName, body: Empty().encodedBody(), timeout: timeout)
                _ = try Daemon.Health(decoding: body)
                return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "ok\n")))
            } catch {
                return Response(
                    status: .serviceUnavailable, body: ResponseBody(byteBuffer: ByteBuffer(string: "\(error)\n")))
            }
        }
        return Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: runtime.logger)
    }
}
