/// What the parser and the help know of one option of a command, whatever
/// the type of its value: declared once (an ``Option`` or a ``Flag``), it is
/// accepted by the parser, listed in the help's options block and read back typed.
protocol OptionSpec: Sendable {
    /// `--name`.
    var name: String { get }
    /// The value's name in the help (`U` of `--user U`); nil for a flag.
    var valueName: String? { get }
    /// What the option does, for the help (wrapped there; `\n` starts a new line).
    var help: String { get }
    /// Whether it may be given more than once.
    var repeatable: Bool { get }
    /// The options it does not go with, those it needs, and the values of
    /// another option it is only for (`--after` is for `--format jsonl`).
    var relations: [OptionRelation] { get set }
    /// The value the option stands for when it is not given (`--format`'s
    /// default), as text; nil: none. Checked against ``OptionRelation/only(_:values:)``.
    var defaultText: String? { get }
    /// For a flag that is the short form of an option's value (`--json` for
    /// `--format json`): that option's name and value.
    var implies: (option: String, value: String)? { get }
    /// The values it takes when they are a short list (`daily|any`), for the synopsis.
    var choices: [String]? { get }
    /// Whether every form of the command needs it (the synopsis shows it unbracketed).
    var isRequired: Bool { get }
    /// What the help line ends with: its default (`(default 30)`) or `; required`.
    var helpSuffix: String { get }
    /// The value `text` stands for, checked; a usage error names the option.
    func value(of text: String) throws(CLIError) -> any Sendable
}

/// How an option relates to another option of its command (checked when parsing).
enum OptionRelation: Sendable {
    /// Refused together with the option of this name.
    case conflicts(String)
    /// Refused without the option of this name (`label`: `--user U`).
    case needs(String, label: String)
    /// Refused unless the option named `option` has one of `values`: as
    /// given, as a flag given implies it, or by its default. An option that
    /// only some output formats use says so this way, so it is never
    /// accepted and then ignored.
    case only(String, values: [String])
}

extension OptionSpec {
    var choices: [String]? { nil }
    var isRequired: Bool { false }
    var helpSuffix: String { "" }

    /// `--name VALUE`, as the help and the usage errors write it.
    var label: String { valueName.map { "\(name) \($0)" } ?? name }

    /// This option, refused together with `other` ("--a and --b do not go together").
    func conflicting(with other: some OptionSpec) -> Self { relating(.conflicts(other.name)) }

    /// This option, refused without `other` ("--a needs --b B").
    func needing(_ other: some OptionSpec) -> Self { relating(.needs(other.name, label: other.label)) }

    /// This option, refused unless `other` has one of `values` ("--after is
    /// for --format jsonl only (the format here is xapi)"); the help line
    /// starts with the values (`jsonl: ...`).
    func only<V: RawRepresentable<String>>(with other: Option<V>, _ values: V...) -> Self {
        relating(.only(other.name, values: values.map { $0.rawValue }))
    }

    /// This option, refused unless `other` (with a default, or required) has one of `values`.
    func only<W: OptionWrapper>(with other: W, _ values: W.Value...) -> Self where W.Value: RawRepresentable<String> {
        relating(.only(other.name, values: values.map { $0.rawValue }))
    }

    /// The values of another option this one is only for, if any.
    var onlyFor: (option: String, values: [String])? {
        for relation in relations { if case .only(let option, let values) = relation { return (option, values) } }
        return nil
    }

    /// The help line as `--help` prints it: prefixed with the values it is
    /// only for (`jsonl, xapi: the learner's events only`), ending with its
    /// default or `; required` (``helpSuffix``).
    var helpLine: String { (onlyFor.map { $0.values.joined(separator: ", ") + ": " } ?? "") + help + helpSuffix }

    private func relating(_ relation: OptionRelation) -> Self {
        var copy = self
        copy.relations.append(relation)
        return copy
    }
}
