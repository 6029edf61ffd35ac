import VerticalsManifest

/// `verticals.target`: the whole suite. `systemctl enable --now verticals.target` starts every
/// socket and service; stopping it stops them all (each is `PartOf=` it).
enum SuiteTargetUnit {
    /// The unit's text.
    static func text(_ manifest: Manifest, layout: SystemdLayout) -> String {
        var file = UnitFile(header: SystemdExport.generatedHeader)
        var unit = UnitFile.Section(name: "Unit")
            .with("Description", SuiteName.targetDescription)
            .with(
                "Conflicts", layout.supervisorUnit,
                comment: ["The same suite under svc-supervisor: one or the other, never both."])
        for spec in manifest.services {
            let name = layout.unitName(spec.name)
            if spec.socket && spec.start == .onDemand {
                // start = "on-demand": only the socket; its first caller starts the service
                // (socket activation), and an idle_exit ends it until the next one.
                unit.set("Wants", "\(name).socket")
                continue
            }
            // Services start at once, not at their first call: each seeds its store and
            // appointments drains its outbox as soon as it runs.
            unit.set("Wants", (spec.socket ? "\(name).socket " : "") + "\(name).service")
        }
        file.append(unit)
        file.append(UnitFile.Section(name: "Install").with("WantedBy", "multi-user.target"))
        return file.text
    }
}
