import Testing
import VerticalsTesting

/// Root-only tests across network namespaces ("hosts" of a ``NetworkLab``), one at a time: each
/// builds its own lab and suite, and the machine has few cores to share. Skipped, saying why,
/// where namespaces cannot be made (not root, no `ip netns`).
@Suite(
    .serialized, .timeLimit(.minutes(10)),
    .enabled(if: NetworkLab.unavailableReason == nil, "network namespaces: \(NetworkLab.unavailableReason ?? "")"))
enum NamespaceTests {}
