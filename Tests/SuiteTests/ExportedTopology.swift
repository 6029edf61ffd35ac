import Testing
import Foundation
import Glibc
import VerticalsTesting

/// What `svc-supervisor export kubernetes` wrote for a manifest, read back from its YAML (with
/// PyYAML, as `kubectl` would read it): each vertical's program, environment (its ConfigMap),
/// port and mounts (its workload), and the NetworkPolicies' graph. The namespace rehearsal runs
/// from this and nothing else, so the rules it enforces are the exported ones, not a second copy.
struct ExportedTopology {
    /// One vertical as its pod would run.
    struct Vertical {
        let name: String
        /// The program's file name (the image's `/usr/local/bin/svc-NAME`).
        let program: String
        /// Its ConfigMap's data.
        let environment: [String: String]
        /// The container port its Service's named port targets.
        let port: Int
        /// Mount path → volume name, from the container's `volumeMounts`.
        let mounts: [String: String]
    }

    var verticals: [Vertical] = []
    /// Per vertical, the verticals its NetworkPolicy admits (ingress `from` pod selectors).
    var callers: [String: Set<String>] = [:]
    /// Per vertical, the verticals its NetworkPolicy lets it reach (egress `to` pod selectors).
    var callees: [String: Set<String>] = [:]
    /// The verticals whose ingress admits pods labelled as operators.
    var operatorIngress: Set<String> = []
    /// The verticals the operator policy lets an operator pod reach.
    var operatorEgress: Set<String> = []
    /// The verticals whose egress allows DNS (UDP and TCP 53).
    var dns: Set<String> = []

    static let nameLabel = "app.kubernetes.io/name"
    static let operatorLabel = "verticals.dev/role"

    /// Runs `svc-supervisor export kubernetes --manifest MANIFEST --out DIR/k8s` and reads what it wrote.
    static func export(manifest: String, in directory: TemporaryDirectory) throws -> ExportedTopology {
        let out = directory.file("k8s")
        let exported = try runCommand(
            "svc-supervisor", ["export", "kubernetes", "--manifest", manifest, "--out", out], in: directory)
        guard exported.status == 0 else { throw RawSocketError("export kubernetes: \(exported.standardError)") }
        let files = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".yaml") }.sorted()
            .map { "\(out)/\($0)" }
        let reader =
            "import sys, json, yaml; json.dump([d for f in sys.argv[1:] for d in yaml.safe_load_all(open(f)) if d], sys.stdout)"
        // python3 from PATH: `make test` puts the checkout's virtual environment (PyYAML included) first.
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let read = try runCommand(
            "/usr/bin/env", ["python3", "-c", reader] + files, environment: ["PATH": path], in: directory)
        guard read.status == 0,
            let objects = try JSONSerialization.jsonObject(with: Data(read.standardOutput.utf8)) as? [[String: Any]]
        else { throw RawSocketError("reading the exported YAML: \(read.standardError)") }
        return ExportedTopology(objects)
    }

    init(_ objects: [[String: Any]]) {
        func kind(_ kind: String) -> [[String: Any]] { objects.filter { $0["kind"] as? String == kind } }
        func name(_ object: [String: Any]) -> String {
            (object["metadata"] as? [String: Any])?["name"] as? String ?? ""
        }
        let configMaps = Dictionary(kind("ConfigMap").map { (name($0), $0["data"] as? [String: String] ?? [:]) }) {
            first, _ in first
        }
        for workload in kind("StatefulSet") + kind("Deployment") {
            let spec = workload["spec"] as? [String: Any]
            let pod = (spec?["template"] as? [String: Any])?["spec"] as? [String: Any]
            guard let container = (pod?["containers"] as? [[String: Any]])?.first else { continue }
            let program =
                ((container["command"] as? [String])?.first ?? "").split(separator: "/").last.map(String.init) ?? ""
            let port = (container["ports"] as? [[String: Any]])?.first?["containerPort"] as? Int ?? 0
            var mounts: [String: String] = [:]
            for mount in container["volumeMounts"] as? [[String: Any]] ?? [] {
                if let path = mount["mountPath"] as? String, let volume = mount["name"] as? String {
                    mounts[path] = volume
                }
            }
            let configMap = (container["envFrom"] as? [[String: Any]])?.first.flatMap {
                ($0["configMapRef"] as? [String: Any])?["name"] as? String
            }
            verticals.append(
                Vertical(
                    name: name(workload), program: program, environment: configMaps[configMap ?? ""] ?? [:], port: port,
                    mounts: mounts))
        }
        for policy in kind("NetworkPolicy") {
            let spec = policy["spec"] as? [String: Any] ?? [:]
            let selected = Self.labels(spec["podSelector"])
            let own = selected[Self.nameLabel]
            for rule in spec["egress"] as? [[String: Any]] ?? [] {
                let ports = (rule["ports"] as? [[String: Any]] ?? []).map {
                    "\($0["protocol"] ?? "")/\($0["port"] ?? "")"
                }
                for peer in rule["to"] as? [[String: Any]] ?? [] {
                    if peer["namespaceSelector"] != nil {
                        if let own, Set(ports) == ["UDP/53", "TCP/53"] { dns.insert(own) }
                    } else if let callee = Self.labels(peer["podSelector"])[Self.nameLabel] {
                        if let own {
                            callees[own, default: []].insert(callee)
                        } else if selected[Self.operatorLabel] != nil {
                            operatorEgress.insert(callee)
                        }
                    }
                }
            }
            for rule in spec["ingress"] as? [[String: Any]] ?? [] {
                for peer in rule["from"] as? [[String: Any]] ?? [] {
                    let labels = Self.labels(peer["podSelector"])
                    guard let own else { continue }
                    if let caller = labels[Self.nameLabel] { callers[own, default: []].insert(caller) }
                    if labels[Self.operatorLabel] != nil { operatorIngress.insert(own) }
                }
            }
        }
    }

    /// The `matchLabels` of a selector.
    private static func labels(_ selector: Any?) -> [String: String] {
        (selector as? [String: Any])?["matchLabels"] as? [String: String] ?? [:]
    }

    /// The nftables ruleset that enforces `vertical`'s NetworkPolicy in its own namespace, with
    /// each vertical (and the operator host, `operator`) at its address in `addresses`: default
    /// deny both ways; in, its port from its callers and the operator; out, its callees' ports
    /// and DNS. Replies to what was allowed pass (`ct state established`), loopback is its own.
    func ruleset(for vertical: String, addresses: [String: String]) -> String {
        let port = verticals.first { $0.name == vertical }?.port ?? 0
        var ingress = (callers[vertical] ?? []).compactMap { addresses[$0] }
        if operatorIngress.contains(vertical), let address = addresses["operator"] { ingress.append(address) }
        var egress: [String] = []
        for callee in (callees[vertical] ?? []).sorted() {
            if let address = addresses[callee], let port = verticals.first(where: { $0.name == callee })?.port {
                egress.append("ip daddr \(address) tcp dport \(port) accept")
            }
        }
        if dns.contains(vertical) { egress += ["udp dport 53 accept", "tcp dport 53 accept"] }
        let admitted =
            ingress.isEmpty ? [] : ["ip saddr { \(ingress.sorted().joined(separator: ", ")) } tcp dport \(port) accept"]
        return Self.table(input: admitted, output: egress)
    }

    /// The operator host's ruleset: out, every vertical the operator policy names; nothing in.
    func operatorRuleset(addresses: [String: String]) -> String {
        let egress = operatorEgress.sorted().compactMap { callee -> String? in
            guard let address = addresses[callee], let port = verticals.first(where: { $0.name == callee })?.port else {
                return nil
            }
            return "ip daddr \(address) tcp dport \(port) accept"
        }
        return Self.table(input: [], output: egress)
    }

    private static func table(input: [String], output: [String]) -> String {
        let common = ["ct state established,related accept"]
        return """
            table inet verticals {
                chain input {
                    type filter hook input priority 0; policy drop;
                    iif "lo" accept
            \((common + input).map { "        \($0)" }.joined(separator: "\n"))
                }
                chain output {
                    type filter hook output priority 0; policy drop;
                    oif "lo" accept
            \((common + output).map { "        \($0)" }.joined(separator: "\n"))
                }
            }

            """
    }
}
