/// What `scripts/kubernetes-rehearsal.sh pod` printed, step by step: each step's line
/// `== STEP STATUS [MORE…]`, then its output indented by three spaces.
struct RehearsalTranscript {
    /// One step.
    struct Step {
        /// The words after the step's name: its status first (an exit status, or `yes`/`no`).
        let words: [String]
        /// Its output, unindented.
        let output: String

        /// The first word as an exit status.
        var status: Int? { words.first.flatMap { Int($0) } }
    }

    /// The steps by name.
    let steps: [String: Step]
    /// The whole text, for messages.
    let text: String

    init(_ text: String) {
        self.text = text
        var steps: [String: Step] = [:]
        var current: (name: String, words: [String])?
        var output: [Substring] = []
        func close() {
            if let current { steps[current.name] = Step(words: current.words, output: output.joined(separator: "\n")) }
            output = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("== ") {
                close()
                let words = line.dropFirst(3).split(separator: " ").map(String.init)
                current = words.first.map { ($0, Array(words.dropFirst())) }
            } else if line.hasPrefix("   ") {
                output.append(line.dropFirst(3))
            }
        }
        close()
        self.steps = steps
    }

    subscript(step: String) -> Step? { steps[step] }
}
