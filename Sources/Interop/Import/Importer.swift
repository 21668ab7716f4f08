import Events

/// Maps one learner's old store to events of format version 1 (docs/import.md): every row of
/// every file first; any bad row refuses the whole import.
package enum Importer {
    /// The events of `files` (path and bytes; a SQLite file is opened by its path),
    /// or every bad row. `submission` is required for `.satAttempts`.
    package static func map(_ kind: ImportKind, files: [(path: String, bytes: [UInt8])], settings: ImportSettings,
                           submission: SubmissionTarget? = nil) -> Result<ImportBatch, ImportProblems> {
        let rules = ImportRules(kind: kind, settings: settings)
        let result: Result<ImportBatch, ImportProblems>
        switch kind {
        case .quizApp:
            guard files.count == 1, let file = files.first else {
                return .failure(ImportProblems(problems: [ImportProblem(file: files.map(\.path).joined(separator: ", "), "quiz-app reads one FILE")]))
            }
            result = QuizAppStore.map(file: file.path, bytes: file.bytes, rules: rules)
        case .cryptogram:
            result = CryptogramStore.map(files: files, rules: rules)
        case .satAttempts:
            guard let submission else {
                return .failure(ImportProblems(problems: [ImportProblem(file: "", "sat-attempts needs --kind, --content and --category")]))
            }
            result = SatAttemptsStore.map(files: files, target: submission, rules: rules)
        case .dailyQuiz:
            result = DailyQuizStore.map(files: files, rules: rules)
        }
        // Every event must be one the ledger accepts; a row that makes one it refuses is named.
        if case .success(let batch) = result {
            for event in batch.events {
                do { _ = try LineCodec.encodeChecked(event, id: event.id ?? "") } catch {
                    return .failure(ImportProblems(problems: [ImportProblem(file: files.first?.path ?? "", row: event.id,
                                                                            member: error.member, error.rule)]))
                }
            }
        }
        return result
    }

    /// The event as `--dry-run` prints it: its line without `seq` and `prev`, LF-ended.
    package static func dryRunLine(_ event: NewEvent) -> [UInt8] {
        let line = LineCodec.encode(event.sealed(seq: 1, id: event.id ?? "", prev: Envelope.genesis))
        let v = Array(#"{"v":\#(event.event.type.version),"#.utf8)
        let head = v.count + Array(#""seq":1,"#.utf8).count, tail = Array(#","prev":""#.utf8).count + 64 + 2
        return v + line[head..<(line.count - tail)] + Array("}\n".utf8)
    }
}

/// What the history of `sat-attempts` does not say: which content, its kind and category.
package struct SubmissionTarget: Sendable, Hashable {
    /// `--kind`.
    package var kind: SubmissionMade.Kind
    /// `--content`.
    package var content: String   // not a key: settings of one import
    /// `--category`.
    package var category: String   // not a key: settings of one import
    /// Makes a target.
    package init(kind: SubmissionMade.Kind, content: String, category: String) {
        self.kind = kind; self.content = content; self.category = category
    }
}
