import Events

/// `--from quiz-app`: the fourth seed's redux-persist `persist:root`; the `app`
/// slice's `hints` and `hintsSeeded` become one `hints.granted` (docs/import.md).
enum QuizAppStore {
    /// Maps one file's bytes; `settings.at` is the grant's time (the store keeps none).
    static func map(file: String, bytes: [UInt8], rules: ImportRules) -> Result<ImportBatch, ImportProblems> {
        func fail(_ member: String?, _ message: String) -> Result<ImportBatch, ImportProblems> {
            .failure(ImportProblems(problems: [ImportProblem(file: file, member: member, message)]))
        }
        guard var root = try? JSONDocument.parse(bytes) else { return fail(nil, "not JSON") }
        if case .string(let inner) = root {   // as AsyncStorage.getItem returns it
            guard let parsed = try? JSONDocument.parse(Array(inner.utf8)) else { return fail(nil, "not JSON inside the string") }
            root = parsed
        }
        guard case .object(let slices) = root else { return fail(nil, "not a JSON object of slices") }
        guard let app = slices.first(where: { $0.name == "app" })?.value else { return fail("app", "missing") }
        guard case .string(let text) = app else {
            return fail("app", "not a JSON string (redux-persist stores each slice as one)")
        }
        guard case .object(let members)? = try? JSONDocument.parse(Array(text.utf8)) else {
            return fail("app", "not JSON inside the string")
        }
        let hintsValue = members.first { $0.name == "hints" }?.value
        guard case .number(let literal)? = hintsValue, let hints = Int(literal), hints >= 0 else {
            return fail("app.hints", "not a count: " + (hintsValue.map(Self.text) ?? "missing"))
        }
        var seeded = false
        if let s = members.first(where: { $0.name == "hintsSeeded" })?.value {
            guard case .bool(let b) = s else { return fail("app.hintsSeeded", "not a bool: " + Self.text(s)) }
            seeded = b
        }
        var batch = ImportBatch()
        guard hints > 0 else {
            batch.assumptions.append("the store holds 0 hints: nothing to grant (a grant's amount is at least 1)")
            return .success(batch)
        }
        guard let at = rules.settings.at else { return fail(nil, "the store keeps no time: give --at TIME") }
        let device = rules.settings.device ?? ""
        let grant = HintsGranted(amount: hints, reason: seeded ? .seed : .grant, extra: rules.marks(assumed: ["at", "reason"]))
        batch.events.append(rules.event(rules.baseID("persist:root/app.hints@" + device), at: at, .hintsGranted(grant)))
        batch.assumptions.append("made up: the grant's time (--at \(at.text)) and its reason \(grant.reason.rawValue) (marked \"assumed\")")
        return .success(batch)
    }

    /// A JSON value as a message shows it.
    static func text(_ v: JSONValue) -> String {
        var w = JSONWriter()
        w.value(v)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
