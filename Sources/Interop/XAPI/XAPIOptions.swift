/// The options of an xAPI export (docs/xapi.md): the actor's account home page
/// and the base of the activity, verb and extension IRIs the ledger coins.
package struct XAPIOptions: Sendable, Hashable {
    /// The default `--homepage`.
    package static let defaultHomepage = "https://progress-ledger.example/"
    /// The default `--activity-base`.
    package static let defaultActivityBase = "https://progress-ledger.example/activities/"

    /// `actor.account.homePage` of every statement.
    package let homepage: String   // not a format string: an IRI option
    /// The activity base, ending with `/`.
    package let activityBase: String   // not a format string: an IRI option

    /// Checks both IRIs (scheme, `://`, something after it, no space or
    /// control character); a base without a trailing `/` gets one.
    package init(homepage: String = defaultHomepage, activityBase: String = defaultActivityBase) throws(XAPIOptionsError) {
        guard Self.isAbsoluteIRI(homepage) else { throw .notAnAbsoluteIRI(option: "--homepage", value: homepage) }
        guard Self.isAbsoluteIRI(activityBase) else { throw .notAnAbsoluteIRI(option: "--activity-base", value: activityBase) }
        self.homepage = homepage
        self.activityBase = activityBase.hasSuffix("/") ? activityBase : activityBase + "/"
    }

    /// `scheme://rest`: a letter, then letters, digits, `+ - .`; a non-empty rest;
    /// no space, control character or DEL anywhere.
    static func isAbsoluteIRI(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard !u.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { return false }
        guard let colon = u.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return false }
        func letter(_ c: UInt8) -> Bool { (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") }
        guard letter(u[0]) else { return false }
        for c in u[1..<colon] where !(letter(c) || (c >= 0x30 && c <= 0x39) || c == 0x2B || c == 0x2D || c == 0x2E) {
            return false
        }
        let rest = u[(colon + 1)...]
        return rest.starts(with: Array("//".utf8)) && rest.count > 2
    }
}

/// Why an xAPI option was refused.
package enum XAPIOptionsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The option's value is not `scheme://…` without spaces.
    case notAnAbsoluteIRI(option: String, value: String)

    /// The problem, naming the option.
    package var description: String {
        switch self {
        case .notAnAbsoluteIRI(let option, let value):
            "\(option) takes an absolute IRI (scheme://..., no spaces), got '\(value)'"
        }
    }
}
