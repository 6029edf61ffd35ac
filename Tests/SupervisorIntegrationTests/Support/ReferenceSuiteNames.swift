import Testing
import VerticalsTesting

/// The reference suite of a checkout, found from its contract files
/// (`Shared/Example/IOInterface/Verticals/<Type>/<name>.vcontract`) rather than typed by hand: the modules
/// a product's build must not compile and the names its daemon must not hold.
struct ReferenceSuiteNames {
    /// Each vertical's type name, its folder: `Ledger` for `ledger`.
    var types: [String] = []
    /// Each vertical's contract name, the `contract` line of its file.
    var contracts: [String] = []
    /// `<contract>.<Name>` of every input, message and enumeration the contracts declare: the
    /// schema names a daemon serving them carries.
    var schemaNames: [String] = []

    /// The suite whose contracts sit under `root`.
    init(checkout root: String) throws {
        let found = try runCommand(
            "/usr/bin/find", ["\(root)/Shared/Example/IOInterface/Verticals", "-name", "*.vcontract"],
            in: TemporaryDirectory())
        for path in found.standardOutput.split(separator: "\n").sorted() {
            let folders = path.split(separator: "/")
            guard folders.count >= 2, let text = readFile(String(path)) else { continue }
            types.append(String(folders[folders.count - 2]))
            var contract = ""
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard words.count >= 2 else { continue }
                switch words[0] {
                case "contract": contract = String(words[1])
                case "input", "message", "enum":
                    schemaNames.append("\(contract).\(words[1].prefix { $0 != ":" && $0 != "{" })")
                default: break
                }
            }
            contracts.append(contract)
        }
    }

    /// Modules of the reference suite: its interface, sessions and test contracts, and each
    /// vertical's library and daemon.
    var targets: [String] {
        ["IOInterface", "Sessions", "SessionsTesting", "VerticalsTestSupport"]
            + types.map { "\($0)Service" } + contracts.map { "svc_\($0)" }
    }

    /// Names a binary holding any of the reference suite would carry: its schema names, its module.
    var strings: [String] { schemaNames + ["IOInterface"] }
}
