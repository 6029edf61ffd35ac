extension DefaultValue {
    /// The default a single value stands for, or nil for a nested message or a list (no
    /// field defaults to one): the inverse of ``WireValue/init(_:)``.
    public init?(_ value: WireValue) {
        switch value {
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(value)
        case .uint(let value): self = .uint(value)
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .bytes(let value): self = .bytes(value)
        case .timestamp(let value): self = .timestamp(value.microsecondsSinceEpoch)
        case .enumeration(let value): self = .enumeration(value)
        case .message, .list: return nil
        }
    }
}
