import VerticalsManifest

/// The text rules of ``ManifestText`` where values enter: a name, path or folder with a control
/// character, a program that is not a plain file name, a `certificates` folder that is not a
/// normalised path, or an argument or environment value no process can receive is refused here,
/// naming its key, so that no export carries it into a file whose syntax it could change.
extension ServiceDecoder {
    /// `executable` when it holds no control character and ends in a plain file name, else nil
    /// (the problem noted).
    mutating func checkedExecutable(_ text: String) -> String? {
        if let scalar = ManifestText.controlCharacter(in: text) {
            report(
                "executable", "holds the control character \(ManifestText.shown(scalar)): name the program without it")
            return nil
        }
        let program = text.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? text
        guard ManifestText.isProgramName(program) else {
            report(
                "executable",
                "\(text.debugDescription) does not end in a plain program name: use A-Z, a-z, 0-9, '.', '_' and '-' "
                    + "(not \".\" or \"..\"), e.g. executable = \"svc-\(service ?? "name")\"")
            return nil
        }
        return text
    }

    /// `certificates` when it holds no control character and, when absolute, is normalised; else
    /// nil (the problem noted). A relative folder is taken from the manifest's folder.
    mutating func checkedCertificates(_ folder: String) -> String? {
        if let scalar = ManifestText.controlCharacter(in: folder) {
            report(
                "certificates", "holds the control character \(ManifestText.shown(scalar)): name the folder without it")
            return nil
        }
        if folder.hasPrefix("/") && !ManifestText.isNormalisedAbsolutePath(folder) {
            report(
                "certificates",
                "\(folder.debugDescription) is not a normalised path: write it without '//', '.' or '..' components "
                    + "and without a trailing '/', e.g. \"/etc/verticals/certs\"")
            return nil
        }
        guard ManifestText.fitsFileSystem(folder) else {
            report(
                "certificates",
                "has a folder name longer than 255 bytes, or is longer than 4095: no file system holds it")
            return nil
        }
        return folder
    }

    /// `arguments`, each item that no process can receive (a control character other than tab
    /// and newline) noted as a problem of `args`.
    mutating func checkedArguments(_ arguments: [String]) -> [String] {
        for (index, argument) in arguments.enumerated() {
            if let scalar = ManifestText.unpassableCharacter(in: argument) {
                report(
                    "args",
                    "item \(index + 1) holds the control character \(ManifestText.shown(scalar)), "
                        + "which no program can be given (only tab and newline are): remove it")
            }
        }
        return arguments
    }

    /// Notes environment value `text` at `key` as a problem when no process could receive it.
    mutating func checkEnvironmentValue(_ text: String, at key: String) {
        if let scalar = ManifestText.unpassableCharacter(in: text) {
            report(
                key,
                "holds the control character \(ManifestText.shown(scalar)), which no environment can hold "
                    + "(only tab and newline are): remove it")
        }
    }
}
