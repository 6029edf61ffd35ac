/// The IOInterface files of a new vertical: its contract with one example operation, and
/// the direct codec of its messages.
enum ContractTemplate {
    /// `Shared/IOInterface/Verticals/<Name>/<Name>.swift`.
    static func contract(_ v: VerticalName) -> String {
        #"""
        /// \#(v.typeName)'s contract: what `svc-\#(v.name)` serves, as data. Every other vertical and
        /// every tool knows \#(v.name) only through this file.
        ///
        /// `svc-supervisor new` started it with one example operation, ``hello``; replace it with
        /// the vertical's real operations (and update `summary`).
        public enum \#(v.typeName): ServiceContract {
            public static let name = "\#(v.name)"
            public static let summary = "\#(v.typeName): one sentence about what this vertical owns."

            /// Greets someone and counts how often they were greeted: the example operation.
            public static let hello = Operation<HelloInput, Greeting>(
                name, "hello", summary: "Greet someone by name and count the greetings so far (example operation).",
                errors: [.invalidInput], route: Route("/\#(v.name)/hello"))

            public static let operations = [hello.descriptor]

            // MARK: Inputs

            /// The Input of ``\#(v.typeName)/hello``.
            public struct HelloInput: WireMessage {
                /// Who to greet: 1 to 100 characters.
                public var name: String

                /// Creates the value from its fields.
                public init(name: String) {
                    self.name = name
                }

                public static let schema = MessageSchema("\#(v.name).HelloInput", [.required(1, "name", .string)])
            }

            // MARK: Outputs

            /// The Output of ``\#(v.typeName)/hello``.
            public struct Greeting: WireMessage {
                /// The greeting, e.g. `Hello, Ada!`.
                public var text: String
                /// How many times this name has been greeted, this time included.
                public var count: Int

                /// Creates the value from its fields.
                public init(text: String, count: Int) {
                    self.text = text
                    self.count = count
                }

                public static let schema = MessageSchema(
                    "\#(v.name).Greeting", [.required(1, "text", .string), .required(2, "count", .int)])
            }
        }

        """#
    }

    /// `Shared/IOInterface/Verticals/<Name>/<Name>+Codec.swift`.
    static func codec(_ v: VerticalName) -> String {
        #"""
        // The direct body codec of \#(v.name)'s messages: the fast path beside each schema.
        // `SchemaConformanceTests` proves every one writes exactly what its schema says.

        extension \#(v.typeName).HelloInput {
            public func encode(to body: inout BodyWriter) {
                body.write(1, name)
            }

            public init(from body: inout BodyReader) throws(WireDecodingError) {
                var name: String?
                while let tag = try body.nextTag() {
                    switch tag {
                    case 1: name = try body.read()
                    default: try body.skip()
                    }
                }
                self.init(name: try body.required(name, 1))
            }
        }

        extension \#(v.typeName).Greeting {
            public func encode(to body: inout BodyWriter) {
                body.write(1, text)
                body.write(2, count)
            }

            public init(from body: inout BodyReader) throws(WireDecodingError) {
                var text: String?
                var count: Int?
                while let tag = try body.nextTag() {
                    switch tag {
                    case 1: text = try body.read()
                    case 2: count = try body.read()
                    default: try body.skip()
                    }
                }
                self.init(text: try body.required(text, 1), count: try body.required(count, 2))
            }
        }

        """#
    }
}
