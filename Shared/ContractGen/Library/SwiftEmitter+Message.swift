/// The struct of one message: properties, memberwise init, schema and direct codec.
extension SwiftEmitter {
    mutating func emit(_ message: MessageDeclaration) {
        docLines(message.doc)
        line("public struct \(message.name): \((["WireMessage"] + message.conformances).joined(separator: ", ")) {")
        indent += 1
        for field in message.fields {
            docLines(field.doc)
            line("public var \(field.name): \(propertyType(field))")
        }
        if !message.fields.isEmpty { line() }
        emitMemberwiseInit(message)
        line()
        emitSchema(message)
        line()
        emitEncoder(message)
        line()
        emitDecoder(message)
        indent -= 1
        line("}")
    }

    /// `public init(token: String, limit: Int = 20, cursor: String? = nil)`: labels in field order;
    /// an optional defaults to nil and a defaulted field to its wire default.
    private mutating func emitMemberwiseInit(_ message: MessageDeclaration) {
        let parameters = message.fields.map { field in
            let declared = "\(field.name): \(propertyType(field))"
            switch field.presence {
            case .optional: return declared + " = nil"
            case .defaulted(let literal): return declared + " = \(swiftLiteral(literal))"
            case .required, .repeated: return declared
            }
        }
        line("/// Creates the value from its fields.")
        emitCall("public init", parameters, suffix: " {")
        indent += 1
        for field in message.fields { line("self.\(field.name) = \(field.name)") }
        indent -= 1
        line("}")
    }

    /// `name(a, b, c)` on one line when it fits in 120 columns, else its arguments wrapped below.
    mutating func emitCall(_ name: String, _ arguments: [String], suffix: String = "") {
        let oneLine = "\(name)(\(arguments.joined(separator: ", ")))\(suffix)"
        if oneLine.count + indent * 4 <= 120 {
            line(oneLine)
            return
        }
        line("\(name)(")
        indent += 1
        for chunk in Self.wrap(
            arguments.enumerated().map { $0.offset < arguments.count - 1 ? $0.element + "," : $0.element },
            width: 120 - indent * 4)
        {
            line(chunk)
        }
        indent -= 1
        line(")\(suffix)")
    }

    private mutating func emitSchema(_ message: MessageDeclaration) {
        line("public static let schema = MessageSchema(")
        indent += 1
        line("\(SwiftSyntax.stringLiteral("\(file.name).\(message.name)")),")
        if message.fields.isEmpty {
            line("[],")
        } else {
            line("[")
            indent += 1
            for field in message.fields {
                let head = "\(field.tag), \(SwiftSyntax.stringLiteral(field.name)), \(fieldType(resolved(field)))"
                let bound = checker.maxBytes(of: field, in: message, of: file).map { "maxBytes: \($0), " } ?? ""
                let docArgument = bound + "doc: \(SwiftSyntax.stringLiteral(Self.summary(of: field.doc)))"
                let secret = field.secret ? ".markedSecret" : ""
                switch field.presence {
                case .required: line(".required(\(head), \(docArgument))\(secret),")
                case .optional: line(".optional(\(head), \(docArgument))\(secret),")
                case .repeated: line(".repeated(\(head), \(docArgument))\(secret),")
                case .defaulted(let literal):
                    line(".defaulted(\(head), \(defaultValue(literal, resolved(field))), \(docArgument))\(secret),")
                }
            }
            indent -= 1
            line("],")
        }
        line("doc: \(SwiftSyntax.stringLiteral(Self.summary(of: message.doc))))")
        indent -= 1
    }

    /// The names the codec cannot use for a local or bare property: its own parameters.
    private static let codecNames: Set<String> = ["body", "tag"]

    private mutating func emitEncoder(_ message: MessageDeclaration) {
        line("public func encode(to body: inout BodyWriter) {")
        indent += 1
        for field in message.fields {
            let operand = Self.codecNames.contains(field.name) ? "self.\(field.name)" : field.name
            line("body.write(\(field.tag), \(operand))")
        }
        indent -= 1
        line("}")
    }

    private func local(_ field: FieldDeclaration) -> String {
        Self.codecNames.contains(field.name) ? "\(field.name)Value" : field.name
    }

    private mutating func emitDecoder(_ message: MessageDeclaration) {
        line("public init(from body: inout BodyReader) throws(WireDecodingError) {")
        indent += 1
        guard !message.fields.isEmpty else {
            line("while try body.nextTag() != nil { try body.skip() }")
            line("self.init()")
            indent -= 1
            line("}")
            return
        }
        for field in message.fields {
            let type = resolved(field)
            switch field.presence {
            case .required, .optional: line("var \(local(field)): \(swiftType(type, qualified: true))?")
            case .repeated: line("var \(local(field)): [\(swiftType(type, qualified: true))] = []")
            case .defaulted(let literal):
                switch type {
                case .scalar(.int), .scalar(.string), .scalar(.bool):
                    line("var \(local(field)) = \(swiftLiteral(literal))")
                default:
                    line("var \(local(field)): \(swiftType(type, qualified: true)) = \(swiftLiteral(literal))")
                }
            }
        }
        line("while let tag = try body.nextTag() {")
        indent += 1
        line("switch tag {")
        for field in message.fields {
            let bound = checker.maxBytes(of: field, in: message, of: file).map { "maxBytes: \($0)" }
            switch field.presence {
            case .repeated:
                line("case \(field.tag): try body.append(to: &\(local(field))\(bound.map { ", \($0)" } ?? ""))")
            default: line("case \(field.tag): \(local(field)) = try body.read(\(bound ?? ""))")
            }
        }
        line("default: try body.skip()")
        line("}")
        indent -= 1
        line("}")
        // Each required field unwrapped by `guard let`, which hands its value on to the
        // initialiser; passed through a function that returns it (`body.required`), each string
        // field cost a retain and a release, a tenth of decoding a booking.
        for field in message.fields where field.presence == .required {
            line("guard let \(local(field)) else { throw WireDecodingError.missingField(tag: \(field.tag)) }")
        }
        emitCall("self.init", message.fields.map { "\($0.name): \(local($0))" })
        indent -= 1
        line("}")
    }
}
