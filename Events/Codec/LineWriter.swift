/// Writes an envelope's line into one buffer with a cursor: the encoder's
/// fast path. It writes the same bytes as ``JSONWriter`` (the agreement tests
/// compare them with the former encoder), without an `Array` append per
/// token.
///
/// The buffer is sized from the strings' lengths; a string with many escapes
/// can outgrow it, and then the writer stops (`overflowed`) and the caller
/// uses ``JSONWriter``. Members the format does not define (`extra`) are left
/// to ``JSONWriter`` too.
struct LineWriter {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// Bytes written so far.
    private(set) var count = 0
    /// Whether a write did not fit; the bytes are then incomplete.
    private(set) var overflowed = false

    init?(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress else { return nil }
        self.base = base
        capacity = buffer.count
    }

    /// The line of `e`, or nil when it needs ``JSONWriter`` (unknown members, or escapes beyond the estimate).
    static func encode(_ e: Envelope) -> [UInt8]? {
        guard let estimate = estimate(e) else { return nil }
        var ok = false
        let line = [UInt8](unsafeUninitializedCapacity: estimate) { buffer, initialized in
            initialized = 0
            guard var w = LineWriter(buffer) else { return }
            w.write(e)
            ok = !w.overflowed
            initialized = ok ? w.count : 0
        }
        return ok ? line : nil
    }

    /// Room for the line when its strings need few escapes; nil when `e` has unknown members.
    private static func estimate(_ e: Envelope) -> Int? {
        var n = 160 + e.id.utf8.count + e.at.text.utf8.count + e.user.utf8.count + (e.device?.utf8.count ?? 0) + e.prev.utf8.count
        @inline(__always) func add(_ s: String?) { n += (s?.utf8.count ?? 0) + 24 }
        switch e.event {
        case .quizStarted(let d):
            guard d.extra.isEmpty else { return nil }
            add(d.attempt); add(d.quiz); add(d.title); add(d.category); add(d.difficulty); n += 120
        case .answerSelected(let d):
            guard d.extra.isEmpty else { return nil }
            add(d.attempt); add(d.question); add(d.skill); n += 120
        case .hintUsed(let d):
            guard d.extra.isEmpty else { return nil }
            add(d.attempt); add(d.question); n += 40
        case .quizFinished(let d), .quizAbandoned(let d):
            guard d.extra.isEmpty else { return nil }
            add(d.attempt)
        case .puzzleCompleted(let d), .puzzleFailed(let d):
            guard d.extra.isEmpty else { return nil }
            add(d.puzzle); add(d.encoding); add(d.seconds?.literal)
        case .submissionMade(let d):
            guard d.extra.isEmpty else { return nil }
            add(d.content); add(d.category); n += 80
            for a in d.answers {
                guard a.extra.isEmpty else { return nil }
                add(a.question); add(a.skill); n += 80
            }
        case .hintsGranted(let d):
            guard d.extra.isEmpty else { return nil }
            n += 60
        case .progressReset(let d):
            guard d.extra.isEmpty else { return nil }
            n += 40
        }
        return n
    }

    // MARK: - The line

    private mutating func write(_ e: Envelope) {
        raw(#"{"v":1,"seq":"#); integer(e.seq)
        raw(#","id":"#); string(e.id)
        raw(#","at":"#); string(e.at.text)
        raw(#","user":"#); string(e.user)
        if let device = e.device { raw(#","device":"#); string(device) }
        switch e.event {
        case .quizStarted(let d):
            raw(#","type":"quiz.started","data":{"attempt":"#); string(d.attempt)
            raw(#","quiz":"#); string(d.quiz)
            raw(#","questions":"#); integer(d.questions)
            if let v = d.daily { raw(#","daily":"#); bool(v) }
            if let v = d.title { raw(#","title":"#); string(v) }
            if let v = d.category { raw(#","category":"#); string(v) }
            if let v = d.difficulty { raw(#","difficulty":"#); string(v) }
            if let v = d.diagnostic { raw(#","diagnostic":"#); bool(v) }
        case .answerSelected(let d):
            raw(#","type":"answer.selected","data":{"attempt":"#); string(d.attempt)
            raw(#","question":"#); string(d.question)
            raw(#","choice":"#); integer(d.choice)
            raw(#","correct":"#); bool(d.correct)
            if let v = d.correctChoice { raw(#","correct_choice":"#); integer(v) }
            if let v = d.skill { raw(#","skill":"#); string(v) }
            if let v = d.ms { raw(#","ms":"#); integer(v) }
        case .hintUsed(let d):
            raw(#","type":"hint.used","data":{"attempt":"#); string(d.attempt)
            raw(#","question":"#); string(d.question)
            raw(#","hint":"#)
            switch d.hint {
            case .fiftyFifty: raw(#""fifty_fifty""#)
            case .reveal: raw(#""reveal""#)
            }
        case .quizFinished(let d):
            raw(#","type":"quiz.finished","data":{"attempt":"#); string(d.attempt)
        case .quizAbandoned(let d):
            raw(#","type":"quiz.abandoned","data":{"attempt":"#); string(d.attempt)
        case .puzzleCompleted(let d):
            raw(#","type":"puzzle.completed","data":{"puzzle":"#); puzzle(d)
        case .puzzleFailed(let d):
            raw(#","type":"puzzle.failed","data":{"puzzle":"#); puzzle(d)
        case .submissionMade(let d):
            raw(#","type":"submission.made","data":{"content":"#); string(d.content)
            raw(#","kind":"#)
            switch d.kind {
            case .lesson: raw(#""lesson""#)
            case .passage: raw(#""passage""#)
            }
            raw(#","category":"#); string(d.category)
            if let v = d.diagnostic { raw(#","diagnostic":"#); bool(v) }
            if let v = d.seconds { raw(#","seconds":"#); integer(v) }
            raw(#","answers":["#)
            for (k, a) in d.answers.enumerated() {
                raw(k == 0 ? #"{"question":"# : #",{"question":"#); string(a.question)
                raw(#","choice":"#); integer(a.choice)
                raw(#","correct":"#); bool(a.correct)
                if let v = a.skill { raw(#","skill":"#); string(v) }
                raw("}")
            }
            raw("]")
        case .hintsGranted(let d):
            raw(#","type":"hints.granted","data":{"amount":"#); integer(d.amount)
            raw(#","reason":"#)
            switch d.reason {
            case .seed: raw(#""seed""#)
            case .purchase: raw(#""purchase""#)
            case .reward: raw(#""reward""#)
            case .grant: raw(#""grant""#)
            }
        case .progressReset(let d):
            raw(#","type":"progress.reset","data":{"scope":"#)
            switch d.scope {
            case .all: raw(#""all""#)
            case .quizzes: raw(#""quizzes""#)
            case .puzzles: raw(#""puzzles""#)
            case .submissions: raw(#""submissions""#)
            }
        }
        raw(#"},"prev":"#); string(e.prev)
        raw("}")
    }

    private mutating func puzzle(_ d: PuzzlePlayed) {
        string(d.puzzle)
        raw(#","encoding":"#); string(d.encoding)
        if let v = d.seconds {
            raw(#","seconds":"#)
            var literal = v.literal
            literal.withUTF8 { copy($0) }
        }
    }

    // MARK: - Values

    @inline(__always) private mutating func copy(_ u: UnsafeBufferPointer<UInt8>) {
        guard let source = u.baseAddress else { return }
        guard count &+ u.count <= capacity else { overflowed = true; return }
        (base + count).update(from: source, count: u.count)
        count &+= u.count
    }

    @inline(__always) private mutating func byte(_ b: UInt8) {
        guard count < capacity else { overflowed = true; return }
        base[count] = b
        count &+= 1
    }

    @inline(__always) private mutating func raw(_ token: StaticString) {
        copy(UnsafeBufferPointer(start: token.utf8Start, count: token.utf8CodeUnitCount))
    }

    @inline(__always) private mutating func bool(_ b: Bool) {
        if b { raw("true") } else { raw("false") }
    }

    private mutating func integer(_ n: Int) {
        guard count &+ 21 <= capacity else { overflowed = true; return }
        if n >= 0, n < 10 {
            base[count] = UInt8(truncatingIfNeeded: n) &+ 48
            count &+= 1
            return
        }
        var digits = 0
        var m = n.magnitude
        repeat { digits &+= 1; m /= 10 } while m > 0
        if n < 0 { base[count] = UInt8(ascii: "-"); count &+= 1 }
        m = n.magnitude
        var k = count &+ digits
        repeat {
            k &-= 1
            base[k] = UInt8(truncatingIfNeeded: m % 10) &+ 48
            m /= 10
        } while m > 0
        count &+= digits
    }

    private mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { string($0) }
    }

    /// A JSON string literal: runs without escapes copied at once (as ``JSONWriter/string(_:)``).
    private mutating func string(_ u: UnsafeBufferPointer<UInt8>) {
        byte(UInt8(ascii: "\""))
        var start = 0
        var k = 0
        let n = u.count
        while k < n {
            if k &+ 8 <= n {
                let mask = JSONWriter.needsEscape(UnsafeRawBufferPointer(u).loadUnaligned(fromByteOffset: k, as: UInt64.self))
                if mask == 0 { k &+= 8; continue }
                k &+= mask.trailingZeroBitCount &>> 3
            }
            let c = u[k]
            guard c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") else { k &+= 1; continue }
            copy(UnsafeBufferPointer(rebasing: u[start..<k]))
            switch c {
            case UInt8(ascii: "\""): raw(#"\""#)
            case UInt8(ascii: "\\"): raw(#"\\"#)
            case 0x0A: raw(#"\n"#)
            case 0x0D: raw(#"\r"#)
            case 0x09: raw(#"\t"#)
            case 0x08: raw(#"\b"#)
            case 0x0C: raw(#"\f"#)
            default:
                let hex: StaticString = "0123456789abcdef"
                raw(#"\u00"#)
                byte(hex.utf8Start[Int(c >> 4)])
                byte(hex.utf8Start[Int(c & 0xF)])
            }
            k &+= 1
            start = k
        }
        copy(UnsafeBufferPointer(rebasing: u[start..<n]))
        byte(UInt8(ascii: "\""))
    }
}
