/// A command's `--help`: the synopsis (made from the declared options), the description, the options block
/// made from the declared options (aligned, wrapped at 80 columns), and the examples.
enum HelpText {
    /// The width the options block is wrapped to.
    static let width = 80

    /// The whole help of `command`.
    static func of(_ command: any Command.Type) -> String {
        let text = synopsis(command) + "\n\n" + command.help + "\n\nOptions:\n" + optionsBlock(command.options)
        let lines = command.examples.split(separator: "\n")
        guard !lines.isEmpty else { return text }
        let count = lines.filter { $0.first != " " }.count
        return text + "\n\n" + (count == 1 ? "Example:\n" : "Examples:\n") + lines.map { "  " + $0 }.joined(separator: "\n")
    }

    /// `Usage: progress-ledger NAME` and each form of ``Command/usage``,
    /// made from the declared options, one form a line (wrapped at
    /// ``width``, further lines indented under the first).
    static func synopsis(_ command: any Command.Type) -> String {
        let usage = "Usage: progress-ledger \(command.name) "
        let indent = String(repeating: " ", count: usage.count)
        return usage + command.usage.flatMap { $0.lines(width: width, indent: indent.count) }.joined(separator: "\n" + indent)
    }

    /// One entry a line (`  --user U   the learner...`), then `-h, --help`.
    static func optionsBlock(_ options: [any OptionSpec]) -> String {
        let entries = options.map { ($0.label, $0.helpLine) } + [("-h, --help", "show this help")]
        let column = 2 + (entries.map(\.0.count).max() ?? 0) + 3
        return entries.map { label, help in
            wrap(help, first: "  " + label.padding(column - 2), indent: String(repeating: " ", count: column))
        }.joined(separator: "\n")
    }

    /// `text` after `first`, its words filling lines of ``width`` columns, each
    /// further line starting with `indent`; a `\n` in `text` starts a new line.
    static func wrap(_ text: String, first: String, indent: String) -> String {
        var lines: [String] = []
        for (k, paragraph) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = k == 0 ? first : indent
            var empty = true
            for word in paragraph.split(separator: " ") {
                if !empty, line.count + 1 + word.count > width { lines.append(line); (line, empty) = (indent, true) }
                line += (empty ? "" : " ") + word
                empty = false
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
