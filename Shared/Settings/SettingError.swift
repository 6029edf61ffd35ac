/// An environment variable set to a value its declaration (``Setting``) does not allow: the
/// variable's name, the value it was set to, and what it may be, in words.
public struct SettingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The variable's name (``variable``), its value (``value``) and what is allowed (``allowed``).
    public var variable, value, allowed: String

    /// Creates the error for `variable`=`value`, which had to be `allowed`.
    public init(variable: String, value: String, allowed: String) {
        (self.variable, self.value, self.allowed) = (variable, value, allowed)
    }

    public var description: String {
        "\(variable)=\(value) is not allowed: expected \(allowed) (unset it for the default)"
    }
}
