/// An ``Option`` with something added that changes how the command reads it
/// (``Defaulted``: a value when not given; ``Required``: an error when not
/// given). The parser and the help see the option it wraps.
protocol OptionWrapper: OptionSpec {
    associatedtype Value: Sendable
    /// The option as declared.
    var option: Option<Value> { get set }
}

extension OptionWrapper {
    var name: String { option.name }
    var valueName: String? { option.valueName }
    var help: String { option.help }
    var repeatable: Bool { option.repeatable }
    var relations: [OptionRelation] {
        get { option.relations }
        set { option.relations = newValue }
    }
    var choices: [String]? { option.choices }
    var implies: (option: String, value: String)? { nil }
    func value(of text: String) throws(CLIError) -> any Sendable { try option.value(of: text) }
}
