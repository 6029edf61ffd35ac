import ArgumentParser

/// `svc-supervisor call SERVICE OPERATION [JSON]` with only `--socket-dir`, `--run-dir` and
/// `--timeout`, read without ArgumentParser: building the tree of every command and decoding
/// through it costs a scripted call more than learning and making the call itself (the CLI
/// benchmark's row). Anything else (help, another flag, a bad value, a missing argument) is
/// nil, and ArgumentParser reads the command line as always, with its own messages.
package enum CallFastPath {
    /// The `call` that `arguments` (without the program's name) stand for, or nil.
    package static func parse(_ arguments: [String]) -> (any ParsableCommand)? {
        parseCall(arguments)
    }

    /// The ``CallCommand`` that `arguments` stand for, or nil.
    static func parseCall(_ arguments: [String]) -> CallCommand? {
        guard arguments.first == "call" else { return nil }
        var positional: [String] = []
        var socketDir: String?
        var runDir: String?
        var timeout = VerticalConnectionOptions.defaultTimeout
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("-"), argument != "-" else {
                positional.append(argument)
                continue
            }
            let (name, inline) = split(argument)
            guard let value = inline ?? rest.popFirst() else { return nil }
            switch name {
            case "--socket-dir": socketDir = value
            case "--run-dir": runDir = value
            case "--timeout":
                guard let seconds = Double(value), seconds > 0, seconds.isFinite else { return nil }
                timeout = seconds
            default: return nil
            }
        }
        guard (2...3).contains(positional.count) else { return nil }
        var suite = RunDirectoryOption()
        suite.runDir = runDir
        var connection = VerticalConnectionOptions()
        connection.socketDir = socketDir
        connection.suite = suite
        connection.timeout = timeout
        var call = CallCommand()
        call.service = positional[0]
        call.operation = positional[1]
        call.json = positional.count == 3 ? positional[2] : "{}"
        call.connection = connection
        call.trace = false // every property of a command made by hand must be set (`--trace` takes the slow path)
        return call
    }

    /// `--name=value` as its name and value; `--name` alone with no value.
    private static func split(_ argument: String) -> (String, String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
