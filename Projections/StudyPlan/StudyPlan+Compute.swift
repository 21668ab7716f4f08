import Events

extension StudyPlan {
    /// The plan from its fold, with recommendations from `catalog` for contents
    /// the learner has not yet mastered (`mastered`: submitted with a score of 80 or more).
    package static func compute(_ state: StudyPlanProjection.State, catalog: Catalog?,
                                mastered: (String) -> Bool) -> StudyPlan {
        var skillsByCategory: [ExactString?: [SkillResult]] = [:]
        for (key, window) in state.windows {
            let counted = window.counted
            guard !counted.isEmpty else { continue }
            let correct = counted.reduce(0) { $0 + ($1.correct ? 1 : 0) }
            skillsByCategory[key.category, default: []].append(
                SkillResult(category: key.category?.value, skill: key.skill.value, correct: correct,
                            total: counted.count))
        }
        let names = Set(skillsByCategory.keys).union(state.quizDiagnostics).union(state.submissionDiagnostics)
        let ordered = names.sorted { a, b in CodePoint.less(nilLast: a?.value, b?.value) }
        let categories = ordered.map { name in
            Category(category: name?.value,
                     diagnosticCompleted: state.quizDiagnostics.contains(name) || state.submissionDiagnostics.contains(name),
                     skills: (skillsByCategory[name] ?? []).sorted { CodePoint.less($0.skill, $1.skill) })
        }
        var plan = StudyPlan(categories: categories)
        if let catalog { plan.recommended = catalog.recommend(for: plan.weaknesses, mastered: mastered) }
        return plan
    }
}
