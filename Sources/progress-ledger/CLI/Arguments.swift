/// The parsed command line of one command: positionals, option values, flags.
struct ParsedArguments {
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments` against `options`. `--name=value` and `--name value`
    /// both work; `--` ends the options. Unknown options are usage errors.
    init(_ arguments: [String], options: [OptionSpec]) throws(CLIError) {
        var i = 0
        var optionsEnded = false
        while i < arguments.count {
            let a = arguments[i]
            i += 1
            if optionsEnded || !a.hasPrefix("-") || a == "-" {
                positionals.append(a)
                continue
            }
            if a == "--" { optionsEnded = true; continue }
            var name = a
            var inline: String? = nil
            if let eq = a.firstIndex(of: "=") {
                name = String(a[..<eq])
                inline = String(a[a.index(after: eq)...])
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                throw .usage("unknown option '\(name)'")
            }
            if spec.takesValue {
                let value: String
                if let inline { value = inline } else {
                    guard i < arguments.count else { throw .usage("option '\(name)' needs a value") }
                    value = arguments[i]
                    i += 1
                }
                if !spec.repeatable, values[name] != nil { throw .usage("option '\(name)' given more than once") }
                values[name, default: []].append(value)
            } else {
                guard inline == nil else { throw .usage("option '\(name)' takes no value") }
                flags.insert(name)
            }
        }
    }

    /// The value of an option given once, or nil.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option, in order.
    func values(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether a flag was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The single positional argument, named `what` in the usage error.
    func onePositional(_ what: String) throws(CLIError) -> String {
        guard positionals.count == 1 else {
            throw .usage(positionals.isEmpty ? "missing \(what)" : "expected one \(what), got \(positionals.count) arguments")
        }
        return positionals[0]
    }

    /// An integer option within a range, or `default` when absent.
    func integer(_ name: String, default def: Int, range: ClosedRange<Int>) throws(CLIError) -> Int {
        guard let text = value(name) else { return def }
        guard let n = Int(text), range.contains(n) else {
            throw .usage("\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound) (got '\(text)')")
        }
        return n
    }

    /// One of a fixed set of words, or `default` when absent.
    func choice(_ name: String, _ allowed: [String], default def: String) throws(CLIError) -> String {
        guard let text = value(name) else { return def }
        guard allowed.contains(text) else {
            throw .usage("\(name) takes one of \(allowed.joined(separator: ", ")) (got '\(text)')")
        }
        return text
    }
}
