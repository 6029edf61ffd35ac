import Glibc
import VerticalsClient

/// The manifest again, with one callee's program replaced by ``HostileCallee`` (this program,
/// `--hostile-callee FILE`): a compromised vertical in a callee's place, for its callers to meet.
enum HostileManifest {
    /// The callee a hostile program best replaces in `manifest`: the service most named in other
    /// services' `depends_on` among those with a `depends_on` of their own (a root, such as the
    /// vertical that issues sessions, stays real, so that its callers are still reached with a
    /// session); nil when no service is both.
    static func likeliestCallee(in manifest: String) -> String? {
        guard let text = WholeFile.read(manifest) else { return nil }
        var service: String?
        var callers: [String: Int] = [:]
        var callsOthers: Set<String> = []
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingPrefix(while: { $0 == " " })
            if trimmed.hasPrefix("[") {
                service =
                    trimmed.hasPrefix("[services.")
                    ? String(trimmed.dropFirst("[services.".count).prefix { $0 != "]" }) : nil
            } else if let service, trimmed.hasPrefix("depends_on") {
                let names = trimmed.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map {
                    String($0.element.prefix { $0 != "." })
                }
                if !names.isEmpty { callsOthers.insert(service) }
                for name in Set(names) { callers[name, default: 0] += 1 }
            }
        }
        return callers.filter { callsOthers.contains($0.key) }.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    }

    /// Writes `folder/suite.toml` with `callee` served by `bin/vt-fuzz-live --hostile-callee
    /// description`; the manifest's path.
    static func write(from manifest: String, into folder: String, bin: String, callee: String, description: String)
        throws -> String
    {
        guard let text = WholeFile.read(manifest) else {
            throw LiveSuite.StartError(description: "cannot read \(manifest)")
        }
        var lines: [String] = []
        var inCallee = false
        var replaced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingPrefix(while: { $0 == " " })
            if trimmed.hasPrefix("[") { inCallee = trimmed.hasPrefix("[services.\(callee)]") }
            if inCallee, trimmed.hasPrefix("executable") || trimmed.hasPrefix("args") {
                if !replaced {
                    lines.append("executable = \"\(bin)/vt-fuzz-live\"")
                    lines.append("args = [\"--hostile-callee\", \"\(description)\"]")
                    replaced = true
                }
                continue
            }
            lines.append(String(line))
        }
        guard replaced else {
            throw LiveSuite.StartError(description: "\(manifest) has no [services.\(callee)] with an executable")
        }
        let copy = "\(folder)/suite.toml"
        guard let file = fopen(copy, "w") else { throw LiveSuite.StartError(description: "cannot write \(copy)") }
        fputs(lines.joined(separator: "\n"), file)
        fclose(file)
        return copy
    }
}
