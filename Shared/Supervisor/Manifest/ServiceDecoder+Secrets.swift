import VerticalsContract
import VerticalsManifest

extension ServiceDecoder {
    /// `receives = ["sessions", "password"]`: the kinds of secret the CLI sends to this service
    /// (``SecretKind``), each once. It belongs to one service, never `[defaults]`, which would
    /// give every service each kind.
    mutating func receives(_ value: ManifestValue) -> [SecretKind] {
        guard service != nil else {
            report(
                "receives", "belongs to one service, not [defaults]: one vertical receives each kind of secret",
                always: true)
            return []
        }
        let names = SecretKind.allCases.map(\.rawValue)
        var kinds: [SecretKind] = []
        for text in strings(value, at: "receives") {
            guard let kind = SecretKind(rawValue: text) else {
                let hint = ManifestKeys.nearest(to: text, among: names).map { "; did you mean \"\($0)\"?" } ?? ""
                report(
                    "receives",
                    "\"\(text)\" is not a kind of secret: one of \(names.map { "\"\($0)\"" }.joined(separator: ", "))\(hint)"
                )
                continue
            }
            if kinds.contains(kind) {
                report("receives", "\"\(text)\" is listed twice", as: .duplicate)
            } else {
                kinds.append(kind)
            }
        }
        return kinds
    }
}
