import ArgumentParser

/// The arguments of a command that calls a marked operation (`login`, `admin create`, `admin
/// grant`, `admin revoke`): the values of its Input's fields, and the vertical's connection.
struct MarkedCallArguments: ParsableArguments {
    @Argument(
        parsing: .allUnrecognized,
        help: "Values of the operation's required fields, in order; --field-name VALUE for any field.")
    var fields: [String] = []
    @OptionGroup var connection: VerticalConnectionOptions
}
