import Events
import Projections
import Testing

@Suite("JSON and text output")
struct JSONAndTextTests {
    @Test("the whole JSON of a small day, members in the spec's order")
    func wholeJSON() {
        var log = LogBuilder(user: "u-42")
        log.grant("2025-10-21T08:00:00+03:00", 3)
        log.start("2025-10-21T09:00:00+03:00", "a-1", quiz: "daily-21", questions: 2, category: "reading")
        log.hint("2025-10-21T09:00:10+03:00", "a-1", "q1", .reveal)
        log.answer("2025-10-21T09:00:20+03:00", "a-1", "q1", skill: "inference")
        log.answer("2025-10-21T09:00:30.5+03:00", "a-1", "q2", correct: false, skill: "inference")
        log.finish("2025-10-21T09:01:00.5+03:00", "a-1")
        log.puzzle("2025-10-21T10:00:00+03:00", "p-1", seconds: "12.5")
        log.submit("2025-10-21T11:00:00+03:00", "l-\"1\"", answers: [(true, "inference")])
        let json = fold(log).json
        let expected = """
        {"user":"u-42","day":"2025-10-21",\
        "daily_quiz":{"day":"2025-10-21","status":"completed","quiz":"daily-21","attempt":"a-1","answered":2,\
        "next_question":2,"score":1,"total":2,"completed":true,"best_score":1,\
        "completed_at":"2025-10-21T09:01:00.5+03:00","attempts":1,"retries_used":0,"retries_left":1},\
        "streak":{"current":1,"active_today":true,"longest":1,"runs":[{"start":"2025-10-21","end":"2025-10-21","days":1,\
        "frozen":[],"paused":0}],"freezes":{"held":0,"granted":0,"used":0}},\
        "history":[{"day":"2025-10-21","quiz":"daily-21","best_score":1,"total":2,"percent":50,\
        "completed_at":"2025-10-21T09:01:00.5+03:00"}],\
        "quizzes":[{"quiz":"daily-21","attempts":1,"finished":1,"abandoned":0,"retries":0,"best_score":1,\
        "best_percent":50,"latest_percent":50,"fastest_seconds":60.5}],\
        "puzzles":[{"puzzle":"p-1","encoding":"caesar","attempts":1,"completed":1,"failed":0,"best_seconds":12.5,\
        "latest":{"outcome":"completed","at":"2025-10-21T10:00:00+03:00","seconds":12.5}}],\
        "submissions":[{"content":"l-\\"1\\"","kind":"lesson","category":"reading","total_attempts":1,"best_score":100,\
        "latest_score":100,"recent":[{"score":100,"correct":1,"total":1,"at":"2025-10-21T11:00:00+03:00"}]}],\
        "study_plan":{"categories":[{"category":"reading","diagnostic_completed":false,\
        "skills":[{"skill":"inference","correct":1,"total":3,"percent":33,"level":"weakness"}],"strengths":[],\
        "weaknesses":[{"skill":"inference","correct":1,"total":3,"percent":33}]}],"strengths":[],\
        "weaknesses":[{"skill":"inference","correct":1,"total":3,"percent":33,"category":"reading"}],"recommended":[]},\
        "hints":{"balance":2,"granted":3,"used":1,"used_by_kind":{"fifty_fifty":0,"reveal":1}},\
        "stats":{"quizzes_completed":1,"questions_answered":3,"correct":2,"accuracy":67,"puzzles_completed":1,\
        "submissions":1,"first_active":"2025-10-21","last_active":"2025-10-21","active_days":1,"time_spent_seconds":12.5},\
        "achievements":[],"anomalies":[],\
        "review":{"retention":0.9,"due":0,"budget":20,"done":0,"today":[],"more":0,"items":[\
        {"item":null,"kind":"quiz","source":"daily-21","question":"q1","skill":"inference","stability":1.2931,\
        "difficulty":5.112170705601056,"reviews":1,"lapses":0,"last_review":"2025-10-21T09:00:20+03:00",\
        "due":"2025-10-22T09:00:20+03:00","due_day":"2025-10-22"},\
        {"item":null,"kind":"quiz","source":"daily-21","question":"q2","skill":"inference","stability":0.212,\
        "difficulty":6.4133,"reviews":1,"lapses":0,"last_review":"2025-10-21T09:00:30.5+03:00",\
        "due":"2025-10-22T09:00:30.5+03:00","due_day":"2025-10-22"},\
        {"item":null,"kind":"submission","source":"l-\\"1\\"","question":"q1","skill":"inference","stability":2.3065,\
        "difficulty":2.118103970459016,"reviews":1,"lapses":0,"last_review":"2025-10-21T11:00:00+03:00",\
        "due":"2025-10-23T11:00:00+03:00","due_day":"2025-10-23"}]}}
        """
        // (The difficulties' last digits are glibc's pow, as py-fsrs's on the same machine.)
        #expect(json == expected)
    }

    @Test("an unknown user: day null and every member empty, in the same shape")
    func unknownUser() {
        var log = LogBuilder()
        log.dailyDone("2025-10-21", "a-1")
        let state = fold(log, user: "U-1")   // case-sensitive: not u-1
        #expect(state == LearnerState(user: "U-1"))
        #expect(state.json == """
        {"user":"U-1","day":null,"daily_quiz":{"day":null,"status":"not_started","quiz":null,"attempt":null,\
        "answered":0,"next_question":0,"score":0,"total":null,"completed":false,"best_score":null,\
        "completed_at":null,"attempts":0,"retries_used":0,"retries_left":1},\
        "streak":{"current":0,"active_today":false,"longest":0,"runs":[],"freezes":{"held":0,"granted":0,"used":0}},"history":[],"quizzes":[],"puzzles":[],\
        "submissions":[],"study_plan":{"categories":[],"strengths":[],"weaknesses":[],"recommended":[]},\
        "hints":{"balance":0,"granted":0,"used":0,"used_by_kind":{"fifty_fifty":0,"reveal":0}},\
        "stats":{"quizzes_completed":0,"questions_answered":0,"correct":0,"accuracy":null,"puzzles_completed":0,\
        "submissions":0,"first_active":null,"last_active":null,"active_days":0,"time_spent_seconds":0},"achievements":[],"anomalies":[],\
        "review":{"retention":0.9,"due":0,"budget":20,"done":0,"today":[],"more":0,"items":[]}}
        """)
        #expect(LearnerState(folding: [], options: StateOptions(user: "u-1")) == LearnerState(user: "u-1"))
    }

    @Test("the user is matched exactly: no Unicode normalisation")
    func exactUser() {
        var log = LogBuilder(user: "Jos\u{E9}")
        log.dailyDone("2025-10-21", "a-1")
        #expect(fold(log, user: "Jose\u{301}").day == nil)
        #expect(fold(log, user: "Jos\u{E9}").day == day("2025-10-21"))
    }

    @Test("text: the daily-quiz button as the app shows it", arguments: [
        (DailyQuiz(day: nil), "Start"),
        (DailyQuiz(day: nil, status: .inProgress, answered: 3, total: 5, attempts: 1), "Continue (4/5)"),
        (DailyQuiz(day: nil, status: .completed, score: 4, total: 5, completed: true, attempts: 1), "Completed 4/5 · 1 retry left"),
        (DailyQuiz(day: nil, status: .completed, score: 4, total: 5, completed: true, attempts: 1, retryLimit: 3),
         "Completed 4/5 · 3 retries left"),
        (DailyQuiz(day: nil, status: .abandoned, answered: 2, score: 1, total: 5, attempts: 2), "Abandoned at 2/5 · no retries left"),
    ])
    func button(quiz: DailyQuiz, label: String) {
        #expect(quiz.button == label)
    }

    @Test("text: the whole rendering of a learner's day")
    func wholeText() {
        var log = LogBuilder(user: "u-42")
        log.grant("2025-10-20T08:00:00Z", 3)
        log.dailyDone("2025-10-20", "a-0", correct: 5)
        log.dailyDone("2025-10-21", "a-1", correct: 4)
        log.submit("2025-10-21T11:00:00Z", "l-1", answers: [(false, "vocab"), (false, "vocab"), (true, "vocab")])
        log.answer("2025-10-21T12:00:00Z", "ghost", "q1")
        #expect(fold(log).text == """
        u-42 · 2025-10-21
        Daily quiz: Completed 4/5 · 1 retry left — daily-2025-10-21
        Streak: 2 days · done today · longest 2
        History: 2025-10-21 4/5 · 2025-10-20 5/5
        Strengths: none yet
        Weaknesses: vocab (reading) 33% of 3
        Hints: 3 left (3 granted, 0 used)
        Stats: 2 quizzes completed · 77% right of 13 answers · 0 puzzles · 1 submission · 2 learning days (2025-10-20 to 2025-10-21)
        Review: 0 of 13 items due · next 8 on 2025-10-22
        Anomalies: 1 (see --json for each one's seq and detail)

        """)
    }
}
