/// One piece of a command's synopsis, made from the options' declarations,
/// so the synopsis names them as the parser and the options block do.
indirect enum Usage: Sendable {
    /// `--name VALUE` (its choices, `daily|any`, for the value when short), unbracketed:
    /// the form needs it.
    case option(any OptionSpec)
    /// `--name value`: the option with the one value this form has (`--format flat`).
    case value(any OptionSpec, String)
    /// `[...]`: optional in this form.
    case optional([Usage])
    /// `(LABEL: ...)`: what one value of another option needs (`(sat-attempts: --kind K ...)`).
    case note(String, [Usage])
    /// An operand (`LOG|DIR`, `FILE...`).
    case operand(String)

    /// `options` as a synopsis lists them: a required one bare, any other in
    /// brackets (a repeatable one followed by `...`), a flag that stands for
    /// a value of the option before it joined to it (`[--format text|json | --json]`).
    static func of(_ options: [any OptionSpec]) -> [Usage] {
        var items: [Usage] = []
        for option in options {
            if let implied = option.implies, case .optional(let previous)? = items.last,
               case .option(let target)? = previous.first, target.name == implied.option {
                items[items.count - 1] = .optional(previous + [.operand("|"), .option(option)])
            } else if option.isRequired {
                items.append(.option(option))
            } else {
                items.append(.optional([.option(option)]))
                if option.repeatable { items.append(.operand("...")) }
            }
        }
        return items
    }

    /// The text of this piece.
    var text: String {
        switch self {
        case .option(let option):
            // A short list of choices is shown for the value (`daily|any`); a long one by its name (`KIND`).
            let choices = option.choices?.joined(separator: "|")
            return option.name + (option.valueName.map { " " + (choices.flatMap { $0.count <= 24 ? $0 : nil } ?? $0) } ?? "")
        case .value(let option, let value): return option.name + " " + value
        case .optional(let items): return "[" + Usage.text(items) + "]"
        case .note(let label, let items): return "(" + label + ": " + Usage.text(items) + ")"
        case .operand(let text): return text
        }
    }

    /// `items`' texts, one space apart (none before `...`).
    static func text(_ items: [Usage]) -> String { words(items, fit: .max).joined(separator: " ") }

    /// `items`' texts, a repeat mark joined to the piece before it: a group
    /// (`[...]`, `(...)`) is one word when it fits in `fit` columns, else its
    /// own words, so that it wraps.
    static func words(_ items: [Usage], fit: Int) -> [String] {
        var words: [String] = []
        for item in items {
            if case .operand("...") = item, let last = words.popLast() { words.append(last + "..."); continue }
            let whole = item.text
            guard whole.count > fit else { words.append(whole); continue }
            switch item {
            case .optional(let inner): words += bracketed(Usage.words(inner, fit: fit), "[", "]")
            case .note(let label, let inner): words += bracketed(Usage.words(inner, fit: fit), "(" + label + ":", ")")
            default: words.append(whole)
            }
        }
        return words
    }

    /// `words` with `open` before the first (as a word of its own when it ends with `:`) and `close` after the last.
    private static func bracketed(_ words: [String], _ open: String, _ close: String) -> [String] {
        guard !words.isEmpty else { return [open + close] }
        var inner = words
        if open.hasSuffix(":") { inner.insert(open, at: 0) } else { inner[0] = open + inner[0] }
        inner[inner.count - 1] += close
        return inner
    }
}

/// One way to call a command: its operands and options, in order.
struct Form: Sendable {
    /// The pieces, operands first.
    let items: [Usage]

    /// `operands` (empty: none) then `items`.
    init(_ operands: String, _ items: [Usage]) {
        self.items = (operands.isEmpty ? [] : [.operand(operands)]) + items
    }

    /// `operands` then `options` as ``Usage/of(_:)`` lists them.
    init(_ operands: String, options: [any OptionSpec] = []) { self.init(operands, Usage.of(options)) }

    /// The form's lines, its pieces filling `width` columns after `indent`
    /// columns (a piece is never cut), each line after the first indented
    /// two more columns, so a form's continuation stands apart from the next form.
    func lines(width: Int, indent: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in Usage.words(items, fit: width - indent - 2) {
            let start = lines.isEmpty ? indent : indent + 2
            if !line.isEmpty, start + line.count + 1 + word.count > width { lines.append(line); line = "  " }
            line += (line.isEmpty || line == "  " ? "" : " ") + word
        }
        return lines + [line]
    }
}
