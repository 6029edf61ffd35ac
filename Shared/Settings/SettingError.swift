import VerticalsWire

/// An environment variable set to a value its declaration (``Setting``) does not allow: the
/// variable's name, the value it was set to, and what it may be, in words.
///
/// Its ``code`` is `notAllowed`; the variable, value and what is allowed are also the
/// details `variable`, `value` and `allowed`.
public struct SettingError: CodedError {
    /// What kind of problem it is.
    public typealias Code = ErrorKind<SettingError>

    /// The variable's name (``variable``), its value (``value``) and what is allowed (``allowed``).
    public var variable, value, allowed: String

    /// Creates the error for `variable`=`value`, which had to be `allowed`.
    public init(variable: String, value: String, allowed: String) {
        (self.variable, self.value, self.allowed) = (variable, value, allowed)
    }

    /// What kind of problem it is: always `notAllowed`.
    public var code: Code { .notAllowed }

    /// What is wrong and what to do: `NAME=value is not allowed: expected …`.
    public var message: String {
        "\(variable)=\(value) is not allowed: expected \(allowed) (unset it for the default)"
    }

    /// The details `variable`, `value` and `allowed`.
    public var details: [ErrorDetail] {
        [ErrorDetail("variable", variable), ErrorDetail("value", value), ErrorDetail("allowed", allowed)]
    }
}

extension ErrorKind where Domain == SettingError {
    /// A variable is set to a value its declaration does not allow.
    public static var notAllowed: Self { Self("notAllowed") }
}
