/// An option every form of its command needs, declared so once: the help line
/// ends `; required`, the synopsis shows it unbracketed, and
/// `args.required(option)` reads it ("missing --user U" when absent).
struct Required<Value: Sendable>: OptionWrapper {
    var option: Option<Value>

    var defaultText: String? { nil }
    var isRequired: Bool { true }
    var helpSuffix: String { "; required" }
}
