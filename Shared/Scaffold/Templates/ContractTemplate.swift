/// The contract files of a new vertical (in the product's contracts module): its contract with one example operation (Swift),
/// and the messages of that operation in the contract language (docs/CONTRACTS.md), from which
/// VerticalsContractPlugin generates their structs, schemas and codecs on every build.
enum ContractTemplate {
    /// `Shared/<Interface>/Verticals/<Name>/<Name>.swift`: the operations.
    static func contract(_ v: VerticalName) -> String {
        #"""
        import VerticalsContract
        import VerticalsWire

        /// \#(v.typeName)'s contract: what `svc-\#(v.name)` serves, as data. Every other vertical and
        /// every tool knows \#(v.name) only through this file and `\#(v.name).vcontract` beside it.
        ///
        /// `svc-supervisor new` started it with one example operation, ``hello``; replace it with
        /// the vertical's real operations (and update `summary`).
        ///
        /// Its operations are here; its messages and enumerations are declared in `\#(v.name).vcontract`
        /// beside this file, from which VerticalsContractPlugin generates their Swift (docs/CONTRACTS.md).
        public enum \#(v.typeName): ServiceContract {
            public static let name = "\#(v.name)"
            public static let summary = "\#(v.typeName): one sentence about what this vertical owns."

            /// Greets someone and counts how often they were greeted: the example operation.
            public static let hello = Operation<HelloInput, Greeting>(
                name, "hello", summary: "Greet someone by name and count the greetings so far (example operation).",
                errors: [.invalidInput], route: Route("/\#(v.name)/hello"))

            public static let operations = [hello.descriptor]
        }

        """#
    }

    /// `Shared/<Interface>/Verticals/<Name>/<name>.vcontract`: the messages, one line per field.
    static func messages(_ v: VerticalName) -> String {
        #"""
        // The messages and enumerations of the \#(v.name) contract, one line per field (docs/CONTRACTS.md).
        // Its operations are Swift, in \#(v.typeName).swift; vt-contractgen makes the types, schemas and codecs of these.
        contract \#(v.name)

        // Inputs

        /// The Input of ``\#(v.typeName)/hello``.
        input HelloInput {
            /// Who to greet: 1 to 100 characters (the contract bounds it at 4096 bytes, the default for an Input).
            1 name: string
        }

        // Outputs

        /// The Output of ``\#(v.typeName)/hello``.
        message Greeting {
            /// The greeting, e.g. `Hello, Ada!`.
            1 text: string
            /// How many times this name has been greeted, this time included.
            2 count: int
        }

        """#
    }
}
