import Events

/// The parsed command line of one command: positionals, and the values of
/// the options it declares, each already checked and typed.
struct ParsedArguments {
    private(set) var positionals: [String] = []
    private var values = GivenValues()

    /// Parses `arguments` against `options`. `--name=value` and `--name value`
    /// both work; `--` ends the options. An unknown option, a bad value, an
    /// option given twice, with one it does not go with or without one it
    /// needs, is a usage error.
    init(_ arguments: [String], options: [any OptionSpec]) throws(CLIError) {
        var rest = arguments[...]
        var given: [any OptionSpec] = []
        while let a = rest.popFirst() {
            if a == "--" { positionals += rest; break }
            guard a.hasPrefix("-"), a != "-" else { positionals.append(a); continue }
            let parts = a.split(separator: "=", maxSplits: 1).map(String.init)
            let (name, inline) = (parts[0], parts.count > 1 ? parts[1] : a.hasSuffix("=") ? "" : nil)
            guard let spec = options.first(where: { $0.name == name }) else { 
                throw .usage("unknown option '\(name.prefixForMessage)'"
                             + Suggestion.hint(for: name, among: options.map { $0.name } + ["--help"]))
            }
            if spec.valueName == nil {
                guard inline == nil else { throw .usage("option '\(name)' takes no value") }
                values.set(name, [true])
            } else {
                guard let text = inline ?? rest.popFirst() else { throw .usage("option '\(name)' needs a value") }
                if values[name] != nil, !spec.repeatable { throw .usage("option '\(name)' given more than once") }
                values.append(try spec.value(of: text), text: text, to: name)
            }
            if !given.contains(where: { $0.name == name }) { given.append(spec) }
        }
        for spec in given {
            for relation in spec.relations {
                switch relation {
                case .conflicts(let other) where values[other] != nil: throw .usage("\(spec.name) and \(other) do not go together")
                case .needs(let other, let label) where values[other] == nil: throw .usage("\(spec.name) needs \(label)")
                case .only(let other, let allowed):
                    let value = Self.effectiveText(of: other, values: values, given: given, options: options)
                    guard let value, allowed.contains(value) else {
                        let what = other == "--format" ? "the format here is \(value ?? "none")"
                            : value.map { "here \(other) is \($0)" } ?? "\(other) is not given"
                        throw .usage("\(spec.name) is for \(other) \(allowed.joined(separator: "|")) only (\(what))")
                    }
                default: continue
                }
            }
        }
    }

    /// The value option `name` stands for: its text as given, else the
    /// value a given flag implies for it (`--json`: `json`), else its default.
    private static func effectiveText(of name: String, values: GivenValues, given: [any OptionSpec],
                                      options: [any OptionSpec]) -> String? {
        if let text = values.text(of: name) { return text }
        if let implied = given.lazy.compactMap(\.implies).first(where: { $0.option == name }) { return implied.value }
        return options.first { $0.name == name }?.defaultText
    }

    /// The value of `option` (its last, if repeatable), or nil when it was not
    /// given (or is not one of the command's options).
    subscript<Value>(_ option: Option<Value>) -> Value? { values[option.name]?.last as? Value }

    /// The value of `option` as given, else its default.
    subscript<Value>(_ option: Defaulted<Value>) -> Value { values[option.name]?.last as? Value ?? option.defaultValue }

    /// Whether `flag` was given.
    subscript(_ flag: Flag) -> Bool { values[flag.name] != nil }

    /// Every value of a repeatable option, in order.
    func all<Value>(_ option: Option<Value>) -> [Value] { values[option.name]?.compactMap { $0 as? Value } ?? [] }

    /// The value of an option the command requires: "missing --user U" when absent.
    func required<Value>(_ option: Required<Value>) throws(CLIError) -> Value { try required(option.option) }

    /// The value of an option the form in use needs (`export --user U`'s
    /// `--user`): "missing --user U" when absent.
    func required<Value>(_ option: Option<Value>) throws(CLIError) -> Value {
        guard let value = self[option] else { throw .usage("missing \(option.label)") }
        return value
    }

    /// The single positional argument, named `what` in the usage error.
    func onePositional(_ what: String) throws(CLIError) -> String {
        guard positionals.count == 1 else {
            throw .usage(positionals.isEmpty ? "missing \(what)" : "expected one \(what), got \(positionals.count) arguments")
        }
        return positionals[0]
    }
}

/// The values of the options given, by name, in the order given: a list, as
/// a command is given a few. (A dictionary cost its storage's metadata and a
/// resize at every start of a command given options: ~0.2 M instructions of
/// `state --user U --json`; docs/performance.md, "cold state, eighth pass".)
/// Names are option names, not text of the format.
private struct GivenValues {
    private var entries: [(name: String, values: [any Sendable], text: String?)] = []

    /// The values given for `name`, nil when it was not given.
    subscript(name: String) -> [any Sendable]? {
        for entry in entries where entry.name == name { return entry.values }
        return nil
    }

    /// The text last given for `name`, when it takes a value.
    func text(of name: String) -> String? {
        for entry in entries where entry.name == name { return entry.text }
        return nil
    }

    /// `name`'s values are `values` (a flag's `[true]`).
    mutating func set(_ name: String, _ values: [any Sendable]) {
        if let k = entries.firstIndex(where: { $0.name == name }) { entries[k].values = values } else { entries.append((name, values, nil)) }
    }

    /// One more value of `name`, given as `text`.
    mutating func append(_ value: any Sendable, text: String, to name: String) {
        if let k = entries.firstIndex(where: { $0.name == name }) {
            entries[k].values.append(value)
            entries[k].text = text
        } else {
            entries.append((name, [value], text))
        }
    }
}
