/// The unit tests of a new vertical: its example operation through its Endpoint, in-process,
/// over the wire form, with a World of fakes.
enum TestTemplate {
    /// `Tests/Services/<Name>Tests/HelloTests.swift`.
    static func hello(_ v: VerticalName) -> String {
        #"""
        import IOInterface
        @testable import \#(v.typeName)Service
        @testable import ServiceKit
        import Testing

        @Suite("\#(v.name).hello")
        struct HelloTests {
            @Test func hello_greetsByNameAndCountsEachGreeting() async throws {
                let router = Endpoint.routes(world: try World.test())

                let first = try await router.call(\#(v.typeName).hello, .init(name: "Ada"))
                let second = try await router.call(\#(v.typeName).hello, .init(name: " Ada "))
                let other = try await router.call(\#(v.typeName).hello, .init(name: "Grace"))

                #expect(first == \#(v.typeName).Greeting(text: "Hello, Ada!", count: 1))
                #expect(second.count == 2)
                #expect(other.count == 1)
            }

            @Test(arguments: ["", "   ", String(repeating: "a", count: Greet.maxNameLength + 1)])
            func hello_withABadName_isInvalidInputNamingTheField(name: String) async throws {
                let router = Endpoint.routes(world: try World.test())
                do {
                    _ = try await router.call(\#(v.typeName).hello, .init(name: name))
                    Issue.record("expected invalidInput")
                } catch let error as ServiceError {
                    #expect(error.code == .invalidInput)
                    #expect(error.details.contains(ErrorDetail("field", "name")))
                }
            }
        }

        extension Router {
            /// Serves one `operation` call in-process: encodes `input` as a request frame, runs the
            /// route, and decodes the response frame, as the host and a client would.
            func call<Input, Output>(_ operation: Operation<Input, Output>, _ input: Input) async throws -> Output {
                let request = Message.frame(
                    Envelope(kind: .request, correlationID: 1, operation: operation.fullName), body: input)
                let handler = try #require(self.route(for: operation.fullName), "\(operation.fullName) is not routed")
                let message = try Message(payload: Array(request.dropFirst(FrameEncoder.headerSize)))
                let response = try await handler(message, RequestContext(operation: operation.fullName, correlationID: 1))
                return try Message(payload: Array(response.dropFirst(FrameEncoder.headerSize))).decodeBody(as: Output.self)
            }
        }

        """#
    }
}
