import Events

/// An option that takes a value (`--user U` or `--user=U`), declared once
/// with its help line and how its text becomes a `Value`: the parser checks
/// the value, and the command reads it typed, `args[Self.user]`.
struct Option<Value: Sendable>: OptionSpec {
    let name: String
    let valueName: String?
    let help: String
    let repeatable: Bool
    var relations: [OptionRelation] = []
    /// The values it takes, when they are a list (`daily|any`): the synopsis shows them.
    var choices: [String]?
    /// What happens when it is not given, when that is no value of its own
    /// (`the day of U's latest event`): the help line ends `(default: NOTE)`.
    var defaultNote: String?
    var defaultText: String? { nil }
    var implies: (option: String, value: String)? { nil }
    var helpSuffix: String { defaultNote.map { " (default: \($0))" } ?? "" }
    private let convert: @Sendable (String) throws(CLIError) -> Value

    /// `name VALUE`, read by `convert` (which throws the usage error of a bad value).
    init(_ name: String, value: String, help: String, repeatable: Bool = false,
         _ convert: @escaping @Sendable (String) throws(CLIError) -> Value) {
        (self.name, valueName, self.help, self.repeatable, self.convert) = (name, value, help, repeatable, convert)
    }

    func value(of text: String) throws(CLIError) -> any Sendable { try convert(text) }

    /// This option, saying what not giving it means (`(default: no lower bound)`).
    func byDefault(_ note: String) -> Option {
        var copy = self
        copy.defaultNote = note
        return copy
    }

    /// This option with the value it has when not given, which the help line
    /// shows (`(default 30)`, `shown` or the value's text) and `args[option]` returns.
    func defaulting(to value: Value, shown: String? = nil) -> Defaulted<Value> {
        Defaulted(option: self, defaultValue: value, shown: shown)
    }

    /// This option, required by every form of its command: the help line ends
    /// `; required`, the synopsis shows it unbracketed, `args.required` reads it.
    var required: Required<Value> { Required(option: self) }

    /// An option whose text, when `valid`, is its value; otherwise `--NAME takes RULE (got 'TEXT')`.
    static func checked(_ name: String, value: String, help: String, takes rule: String,
                        _ valid: @escaping @Sendable (String) -> Value?) -> Option {
        Option(name, value: value, help: help) { (text) throws(CLIError) in
            guard let value = valid(text) else { throw .usage("\(name) takes \(rule) (got '\(text.prefixForMessage)')") }
            return value
        }
    }
}

extension Option where Value == String {
    /// An option whose value is any text.
    init(_ name: String, value: String, help: String, repeatable: Bool = false) {
        self.init(name, value: value, help: help, repeatable: repeatable) { $0 }
    }

    /// An option whose value must not be empty (`--user takes a non-empty learner id`).
    static func nonEmpty(_ name: String, value: String, help: String, what: String) -> Option {
        Option(name, value: value, help: help) { (text) throws(CLIError) in
            guard !text.isEmpty else { throw .usage("\(name) takes \(what)") }
            return text
        }
    }
}

extension Option where Value == Int {
    /// A whole number within `range`.
    static func integer(_ name: String, value: String = "N", help: String, range: ClosedRange<Int>) -> Option {
        checked(name, value: value, help: help, takes: "a whole number from \(range.lowerBound) to \(range.upperBound)") {
            Int($0).flatMap { range.contains($0) ? $0 : nil }
        }
    }
}

extension Option where Value == Day {
    /// A calendar day `YYYY-MM-DD` that exists.
    static func day(_ name: String, help: String) -> Option {
        checked(name, value: "D", help: help, takes: "a date YYYY-MM-DD that exists") { Day($0) }
    }
}

extension Option where Value: RawRepresentable<String> & CaseIterable {
    /// One of the cases of `Value`, by raw value; anything else is a usage
    /// error naming them all (`--by takes one of finished, percent, streak (got 'x')`).
    static func choice(_ name: String, value: String, help: String) -> Option {
        let names = Value.allCases.map { $0.rawValue }
        // Joined here, not by `joined(separator:)`: the standard library's is
        // generic, and its first call looks its conformances up at run time
        // (~0.2 M instructions at each start of a command declaring a choice).
        var list = ""
        for (k, name) in names.enumerated() {
            if k > 0 { list += ", " }
            list += name
        }
        var option = checked(name, value: value, help: help, takes: "one of " + list) {
            Value(rawValue: $0)
        }
        option.choices = names
        return option
    }

    /// This option with the value it has when not given (shown by its raw value).
    func defaulting(to value: Value) -> Defaulted<Value> { Defaulted(option: self, defaultValue: value, shown: value.rawValue) }
}
