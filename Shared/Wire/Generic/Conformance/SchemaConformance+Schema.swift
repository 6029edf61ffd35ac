extension SchemaConformance {
    /// Inconsistencies inside `schema` and the schemas of the messages it nests: defaults
    /// of another type than their field, unknown enumeration defaults, duplicate enum cases.
    public static func check(schema: MessageSchema) -> [Finding] {
        var findings: [Finding] = []
        var visited = Set<String>()
        checkSchema(schema, root: schema.name, path: "", visited: &visited, into: &findings)
        return findings
    }

    private static func checkSchema(
        _ schema: MessageSchema, root: String, path: String, visited: inout Set<String>, into findings: inout [Finding]
    ) {
        guard visited.insert(schema.name).inserted else { return }
        for field in schema.fields {
            let fieldPath = FieldPath.child(path, field.name)
            func note(_ problem: String) {
                findings.append(Finding(message: root, field: fieldPath, problem: problem))
            }
            if field.name.isEmpty { note("the field with tag \(field.tag) has no name") }
            if case .defaulted(let value) = field.presence {
                if !WireValue(value).fits(field.type) {
                    note("the default \(value) is not a value of type \(field.type)")
                }
                if case .enumeration(let enumeration) = field.type, case .enumeration(let name) = value,
                    !enumeration.cases.contains(name)
                {
                    note("the default \"\(name)\" is not a case of \(enumeration.name) (\(enumeration.cases))")
                }
            }
            switch field.type {
            case .enumeration(let enumeration):
                if Set(enumeration.cases).count != enumeration.cases.count {
                    note("\(enumeration.name) lists a case name twice")
                }
            case .message(let type):
                checkSchema(type.schema, root: root, path: fieldPath, visited: &visited, into: &findings)
            default:
                break
            }
        }
    }
}
