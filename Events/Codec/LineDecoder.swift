/// Decodes one line straight from its bytes into the typed values.
///
/// One pass over the line validates it as JSON (every error the same, at the
/// same offset, as a parser that builds a tree) and records where each known
/// member's value lies, as a ``Capture``; members nobody knows are parsed into
/// ``JSONValue`` and kept in order. Only when the whole line is valid JSON are
/// the format's rules applied to the captures, in a fixed order (the order of
/// `record` and `newEvent` below), so a line breaking several rules always
/// reports the same one. `String`s are made only for the values kept.
///
/// Errors come in this order, as the format's reader defines them: the line
/// checks (blank, too long, BOM, CR, UTF-8), then JSON (`not_json`,
/// `duplicate_member`, lone surrogates, `not_object`), then the envelope's
/// rules, then the type's `data` rules.
struct LineDecoder {
    var s: JSONScanner
    /// False to apply every rule but make none of the envelope's strings
    /// (they come back empty; `id` only when written with escapes):
    /// ``LineCodec/checkRecord(_:)``, ``LineCodec/checkRecordKeepingData(_:)``.
    var materialize = true
    /// False to make none of `data`'s strings either (``LineCodec/checkRecord(_:)``).
    var materializeData = true
    /// The highest format version this reader knows: a stored line of a later
    /// one is kept as newer (``FormatVersion/readable``).
    var known = FormatVersion.readable
    /// The ``DataRules`` of the type the writer's walk found for `data`
    /// (``WriterWalks``' table: ``DataRules/of(_:)`` of `data`'s captured
    /// type), for the second stage; nil before the walk, after the general
    /// walk, and for a type without a table. Unretained (the table keeps
    /// every one for the program's life), so the decoder stays plain values.
    var walkedRules: Unmanaged<DataRules>? = nil
    // What the line's captures do not hold (members a layout does not define,
    // the items of `data`'s array member) is not the decoder's: a ``Spilled``
    // beside it, made by the caller and handed to the walks (`inout`) and the
    // rules (by value), so that the decoder is a plain value, dropped with
    // nothing destroyed (a test checks `_isPOD`).

    init(_ line: UnsafeRawBufferPointer, at offset: Int = 0, depth: Int = 0) {
        s = JSONScanner(line, checksLine: true, at: offset, depth: depth)
    }

    /// The line checks that need no scan: the rest are met by the scan (see `JSONScanner.checked`).
    @inline(__always) private static func checkLength(_ line: UnsafeRawBufferPointer) throws(EventError) {
        if let problem = LineChecks.lengthProblem(line) { throw problem }
    }

    /// The line checked as a line and scanned as one JSON object, ready for the envelope's rules.
    /// The writer's own lines are walked by ``scanWritersLine(into:)`` (the
    /// same captures, less work); any other line, or all when `writersWalk`
    /// is false (the tests' and fuzzers' comparison), by the general walk.
    /// What the captures do not hold is in the ``Spilled`` answered with them.
    @inline(__always) static func scanned(_ line: UnsafeRawBufferPointer, materialize: Bool = true, data: Bool = true,
                                          writersWalk: Bool = true)
        throws(EventError) -> (LineDecoder, EnvelopeCapture, Spilled) {
        let (decoder, e, spilled, _) = try scan(line, materialize: materialize, data: data, writersWalk: writersWalk)
        return (decoder, e, spilled)
    }

    /// ``scanned(_:materialize:data:writersWalk:)``, and whether the writer's walk took the line.
    @inline(__always) static func scan(_ line: UnsafeRawBufferPointer, materialize: Bool, data: Bool, writersWalk: Bool)
        throws(EventError) -> (LineDecoder, EnvelopeCapture, Spilled, writers: Bool) {
        try checkLength(line)
        var decoder = LineDecoder(line)
        decoder.materialize = materialize
        decoder.materializeData = data
        var e = EnvelopeCapture()
        var spilled = Spilled()
        if writersWalk, decoder.scanWritersLine(into: &e, spilled: &spilled) { return (decoder, e, spilled, true) }
        decoder = LineDecoder(line)
        decoder.materialize = materialize
        decoder.materializeData = data
        e = EnvelopeCapture()
        spilled = Spilled()
        try decoder.scanEnvelope(into: &e, spilled: &spilled)
        return (decoder, e, spilled, false)
    }

    /// The record of a stored line, read by a reader that knows the format
    /// versions up to `known` (a line of a later one is kept as newer).
    static func record(_ line: UnsafeRawBufferPointer, known: Int = FormatVersion.readable, writersWalk: Bool = true) throws(EventError) -> Record {
        var (decoder, e, spilled) = try scanned(line, writersWalk: writersWalk)
        decoder.known = known
        return try decoder.record(e, spilled)
    }

    /// Applies every rule of ``record(_:)``, in the same order, with the same
    /// errors, but makes only the strings the chain needs. A writer's line
    /// whose `data` plainly keeps its type's rules is checked without
    /// building its payload or record (``writersKeys(_:)``, the second stage);
    /// any other line as ``keyed(_:data:writersWalk:)`` checks it.
    static func keys(_ line: UnsafeRawBufferPointer, writersWalk: Bool = true) throws(EventError) -> LineCodec.RecordKeys {
        // The writer's walk and the second stage in place (``scan(_:materialize:data:writersWalk:)``
        // without its copies of the captures), any other line as it reads them.
        try checkLength(line)
        var decoder = LineDecoder(line)
        decoder.materialize = false
        decoder.materializeData = false
        if writersWalk {
            // Walked into here and read here by the rules (passed by address): never copied.
            var e = EnvelopeCapture()
            var spilled = Spilled()
            if decoder.scanWritersLine(into: &e, spilled: &spilled) {
                let keys = try decoder.writersChecked(&e, spilled)
                spilled.drop()
                return keys
            }
        }
        return try generalKeys(line)
    }

    /// ``keys(_:writersWalk:)`` by the general walk.
    @inline(never) private static func generalKeys(_ line: UnsafeRawBufferPointer) throws(EventError) -> LineCodec.RecordKeys {
        let (decoder, e, spilled, _) = try scan(line, materialize: false, data: false, writersWalk: false)
        return try decoder.keyed(e, spilled).keys
    }

    /// ``keys(_:writersWalk:)`` of a line the writer's walk took into `e`:
    /// the second stage when its `data` plainly keeps its type's rules, else
    /// every rule as ``keyed(_:)`` applies them. `e` is only read: passed by
    /// address (`inout`), so the rules read the captures where the walk left
    /// them and nothing is copied. Out of line and small, so that the rules
    /// inline here.
    @inline(never)
    func writersChecked(_ e: inout EnvelopeCapture, _ spilled: Spilled) throws(EventError) -> LineCodec.RecordKeys {
        if let (seq, _, _) = try writersRules(&e, spilled) { return keys(e, seq: seq, isNewer: false) }
        return try keyedKeys(e, spilled)
    }

    /// ``keyed(_:)``'s keys (out of line: the lines the second stage hands back).
    @inline(never)
    private func keyedKeys(_ e: EnvelopeCapture, _ spilled: Spilled) throws(EventError) -> LineCodec.RecordKeys {
        try keyed(e, spilled).keys
    }

    /// ``record(_:)``'s rules, order and errors; returns what the chain needs
    /// and the record with none of the envelope's strings made (`id`, `at`'s
    /// text, `user`, `device`, `prev` empty; `id` and `user` are in the keys),
    /// and `data`'s strings made only when `data` is true.
    static func keyed(_ line: UnsafeRawBufferPointer, data: Bool, writersWalk: Bool = true) throws(EventError) -> (keys: LineCodec.RecordKeys, record: Record) {
        let (decoder, e, spilled) = try scanned(line, materialize: false, data: data, writersWalk: writersWalk)
        return try decoder.keyed(e, spilled)
    }

    /// The record of the scanned line `e` (made as this decoder makes strings;
    /// what the captures do not hold in `spilled`) and the chain's keys
    /// (inlined: the capture is not copied).
    @inline(__always)
    func keyed(_ e: EnvelopeCapture, _ spilled: Spilled) throws(EventError) -> (keys: LineCodec.RecordKeys, record: Record) {
        let record = try self.record(e, spilled)
        var isNewer = false
        if case .newer = record { isNewer = true }
        return (keys(e, seq: record.seq, isNewer: isNewer), record)
    }

    /// The chain's keys of the scanned line `e`, whose rules were applied:
    /// `id`, `prev` and `user` as their bytes, or as their text made here
    /// when written with escapes (no rule hands a string on: a check makes none).
    @inline(__always)
    func keys(_ e: EnvelopeCapture, seq: Int, isNewer: Bool) -> LineCodec.RecordKeys {
        let prev = e[.prev], idCapture = e[.id], user = e[.user]
        // Without escapes, a string's bytes are its value (the rules checked them); with, its text.
        @inline(__always) func text(_ c: Capture) -> LineCodec.RecordKeys.Text {
            c.flag ? .text(s.string(c)) : .bytes(c.start..<c.end)
        }
        return LineCodec.RecordKeys(seq: seq, id: text(idCapture), isNewer: isNewer, prev: text(prev), user: user.kind == .string ? text(user) : nil)
    }

    static func newEvent(_ line: UnsafeRawBufferPointer) throws(EventError) -> NewEvent {
        var (decoder, e, spilled) = try scanned(line)
        decoder.known = FormatVersion.latest   // an event appended is always checked fully
        return try decoder.newEvent(e, spilled)
    }

    // MARK: - The envelope's rules

    func record(_ e: EnvelopeCapture, _ spilled: Spilled) throws(EventError) -> Record {
        let f = FieldRules(s, .envelope, materialize: materialize)
        let (v, seq, id) = try head(e, f)
        if v > known {
            let prev = try self.prev(e[.prev], f)
            let user = e[.user].kind == .string ? (materialize ? s.string(e[.user]) : "") : nil
            let type = e[.type].kind == .string ? (materialize ? s.string(e[.type]) : "") : nil
            return .newer(NewerVersionLine(version: v, seq: seq, id: id, user: user, prev: prev, type: type, at: newerAt(e[.at])))
        }
        let (at, user, device, type, prev) = try envelope(e, f, version: v)
        let event = try self.event(type, e, spilled)
        try check(event, on: at)
        return .event(Envelope(seq: seq, id: id, at: at, user: user, device: device, event: event, prev: prev))
    }

    /// The rules of `v`, `seq` and `id`, in ``record(_:)``'s order: a stored line's first three.
    @inline(__always)
    func head(_ e: EnvelopeCapture, _ f: FieldRules) throws(EventError) -> (v: Int, seq: Int, id: String) {
        let (v, seq) = try versionAndSeq(e, f)
        return (v, seq, try id(e[.id], f))
    }

    /// ``head(_:_:)``'s rules, in its order, answering no string (a check:
    /// ``keys(_:seq:isNewer:)`` reads `id` where it is written), so none is released.
    @inline(__always)
    func checkedHead(_ e: EnvelopeCapture, _ f: FieldRules) throws(EventError) -> (v: Int, seq: Int) {
        let (v, seq) = try versionAndSeq(e, f)
        if !isPlainID(e[.id]) { _ = try anyID(e[.id], f) }
        return (v, seq)
    }

    /// The first two of ``head(_:_:)``'s rules.
    @inline(__always)
    private func versionAndSeq(_ e: EnvelopeCapture, _ f: FieldRules) throws(EventError) -> (v: Int, seq: Int) {
        let v = try version(e, f)
        return (v, try f.integer(e[.seq], "seq", min: 1))
    }

    /// The rest of the envelope's rules on a line of a version this reader
    /// knows (after ``head(_:_:)``), in ``record(_:)``'s order, but `data`'s own.
    /// `named`: the type whose name is exactly `type`'s bytes, when the
    /// caller found it already (the writer's walk, `writersKeys`).
    @_transparent
    func envelope(_ e: EnvelopeCapture, _ f: FieldRules, version v: Int, named: EventType? = nil) throws(EventError)
        -> (at: Timestamp, user: String, device: String?, type: EventType, prev: String) {
        let at = try timestamp(e[.at], f)
        let user = try f.string(e[.user], "user", .name)
        let device = try f.optionalString(e[.device], "device", .name)
        let type = try self.type(e[.type], f, named: named)
        try matches(v, type, f)
        try data(e[.data], f)
        let prev = try self.prev(e[.prev], f)
        try rejectUnknown(e, f)
        return (at, user, device, type, prev)
    }

    private func newEvent(_ e: EnvelopeCapture, _ spilled: Spilled) throws(EventError) -> NewEvent {
        let f = FieldRules(s, .envelope, materialize: materialize)
        let v: Int? = e[.v].kind == .absent ? nil : try version(e, f)
        if e[.seq].kind != .absent { throw f.error("seq", "is assigned by the ledger at append; leave it out") }
        if e[.prev].kind != .absent { throw f.error("prev", "is assigned by the ledger at append; leave it out") }
        let id: String? = e[.id].isPresent ? try self.id(e[.id], f) : nil
        let at = try timestamp(e[.at], f)
        let user = try f.string(e[.user], "user", .name)
        let device = try f.optionalString(e[.device], "device", .name)
        let type = try f.enumeration(e[.type], "type", EventType.init(utf8:))
        if let v { try matches(v, type, f) }
        try data(e[.data], f)
        try rejectUnknown(e, f)
        let event = try self.event(type, e, spilled)
        try check(event, on: at)
        return NewEvent(id: id, at: at, user: user, device: device, event: event)
    }

    /// `v`: an integer >= 1.
    @inline(__always)
    private func version(_ e: EnvelopeCapture, _ f: FieldRules) throws(EventError) -> Int {
        let v = try f.integer(e[.v], "v")
        guard v >= 1 else { throw notVersion(v, f) }
        return v
    }

    /// ``version(_:_:)``'s error (out of line: made only for a line that breaks the rule).
    @inline(never)
    private func notVersion(_ v: Int, _ f: FieldRules) -> EventError {
        f.error("v", "must be 1 or a newer format version (got \(v))")
    }

    /// A stored line's `type`: one of the types of the versions this reader
    /// knows (a reader of version 1 refuses a version-2 type as unknown).
    /// `named` is the type whose name is exactly `c`'s bytes (written without
    /// escapes), when the caller matched them already: the same match as
    /// ``EventType/init(utf8:)``'s, not made twice.
    @inline(__always)
    private func type(_ c: Capture, _ f: FieldRules, named: EventType? = nil) throws(EventError) -> EventType {
        let type: EventType
        if let named, c.kind == .string, !c.flag { type = named } else { type = try f.enumeration(c, "type", EventType.init(utf8:)) }
        guard type.version > known else { return type }
        return try unknownType(type, f)
    }

    /// The `type` rule's error for a type of a version this reader does not know.
    @inline(never)
    private func unknownType(_ type: EventType, _ f: FieldRules) throws(EventError) -> EventType {
        let allowed = EventType.allCases.filter { $0.version <= known }.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        throw f.error("type", "must be one of \(allowed) (got \"\(type.rawValue)\")")
    }

    /// The rule of events-v2.md: a line's `v` is the version of its type.
    @inline(__always)
    private func matches(_ v: Int, _ type: EventType, _ f: FieldRules) throws(EventError) {
        guard v != type.version else { return }
        throw mismatch(v, type, f)
    }

    /// ``matches(_:_:_:)``'s error (out of line: made only for a line that breaks the rule).
    @inline(never)
    private func mismatch(_ v: Int, _ type: EventType, _ f: FieldRules) -> EventError {
        f.error("v", "must be \(type.version) for \(type): a line's v is the format version of its type (got \(v))")
    }

    /// The payload's rules against the event's day (``Payload/problem(onDay:)``).
    private func check(_ event: Event, on at: Timestamp) throws(EventError) {
        if let (member, rule) = event.problem(onDay: at.day) { throw EventError(.invalidData, member: member, rule) }
    }

    /// A newer line's `at` when it is a valid timestamp, else nil (only `seq`, `id` and `prev` are its rules).
    private func newerAt(_ c: Capture) -> Timestamp? {
        guard c.kind == .string, !c.flag else { return nil }
        guard case .success(let (instant, offset, day)) = Timestamp.parse(s.raw(c)) else { return nil }
        return Timestamp(text: materialize ? s.string(c) : "", instant: instant, offsetMinutes: offset, day: day)
    }

    @inline(__always)
    private func id(_ c: Capture, _ f: FieldRules) throws(EventError) -> String {
        // Checked only, written without escapes, kept: inline; anything else by the whole rule.
        if !materialize, isPlainID(c) { return "" }
        return try anyID(c, f)
    }

    /// Whether `c` is an id written without escapes that keeps the rule (its bytes are its value).
    @inline(__always) private func isPlainID(_ c: Capture) -> Bool {
        c.kind == .string && !c.flag && LineDecoder.isValidID(s.raw(c))
    }

    @inline(never)
    private func anyID(_ c: Capture, _ f: FieldRules) throws(EventError) -> String {
        guard c.kind != .absent else { throw f.error("id", "is required") }
        guard c.kind == .string else { throw f.error("id", "must be a string, not \(c.kind.name)") }
        if !c.flag, LineDecoder.isValidID(s.raw(c)) { return materialize ? s.string(c) : "" }
        let text = s.string(c)
        var copy = text
        guard !copy.withUTF8({ LineDecoder.isValidID(UnsafeRawBufferPointer($0)) }) else { return text }
        throw f.error("id", "must be 1 to 64 characters of A-Z a-z 0-9 . _ : - (got \"\(text.prefixForMessage)\")")
    }

    /// Whether `u` is 1 to 64 characters of `A-Z a-z 0-9 . _ : -`.
    @inline(__always) static func isValidID(_ u: UnsafeRawBufferPointer) -> Bool {
        let n = u.count
        guard n >= 1, n <= 64 else { return false }
        // `-` (valid) in the lanes past a short id.
        return !ByteSearch.anyWord(of: u, paddedWith: UInt8(ascii: "-")) { !isIDWord($0) }
    }

    /// Whether all eight bytes of `word` are `A-Z a-z 0-9 . _ : -`.
    @inline(__always) static func isIDWord(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high = ones &* 0x80
        guard word & high == 0 else { return false }
        // For a byte b < 0x80, b + (0x80 - t) has its high bit set exactly when b >= t, with no carry out.
        @inline(__always) func atLeast(_ t: UInt64) -> UInt64 { word &+ ones &* (0x80 - t) }
        @inline(__always) func within(_ low: UInt64, _ highest: UInt64) -> UInt64 { atLeast(low) & ~atLeast(highest &+ 1) }
        // `-` and `.`; `0-9` and `:`; `A-Z`; `_`; `a-z`.
        let valid = within(0x2D, 0x2E) | within(0x30, 0x3A) | within(0x41, 0x5A) | within(0x5F, 0x5F) | within(0x61, 0x7A)
        return valid & high == high
    }

    @inline(__always)
    private func timestamp(_ c: Capture, _ f: FieldRules) throws(EventError) -> Timestamp {
        // Checked only, written without escapes, valid: inline; anything else by the whole rule.
        if !materialize, c.kind == .string, !c.flag, case .success(let (instant, offset, day)) = Timestamp.parse(s.raw(c)) {
            return Timestamp(text: "", instant: instant, offsetMinutes: offset, day: day)
        }
        return try anyTimestamp(c, f)
    }

    @inline(never)
    private func anyTimestamp(_ c: Capture, _ f: FieldRules) throws(EventError) -> Timestamp {
        guard c.kind != .absent else { throw f.error("at", "is required") }
        guard c.kind == .string else { throw f.error("at", "must be an RFC 3339 string, not \(c.kind.name)") }
        let text = materialize || c.flag ? s.string(c) : ""
        let parsed: Result<(Instant, Int, Day), TimestampError>
        if c.flag {
            var copy = text
            parsed = copy.withUTF8 { Timestamp.parse(UnsafeRawBufferPointer($0)) }
        } else {
            parsed = Timestamp.parse(s.raw(c))
        }
        switch parsed {
        case .success(let (instant, offset, day)):
            return Timestamp(text: text, instant: instant, offsetMinutes: offset, day: day)
        case .failure(let error):
            throw f.error("at", "\(error) (got \"\(s.string(c).prefixForMessage)\")")
        }
    }

    @inline(__always)
    private func data(_ c: Capture, _ f: FieldRules) throws(EventError) {
        guard c.kind == .object else { throw notObject(c, f) }
    }

    /// ``data(_:_:)``'s error (out of line: made only for a line that breaks the rule).
    @inline(never)
    private func notObject(_ c: Capture, _ f: FieldRules) -> EventError {
        c.kind == .absent ? f.error("data", "is required") : f.error("data", "must be an object, not \(c.kind.name)")
    }

    @inline(__always)
    private func prev(_ c: Capture, _ f: FieldRules) throws(EventError) -> String {
        // Checked only, written without escapes, 64 lowercase hex digits: inline; anything else by the whole rule.
        if !materialize, c.kind == .string, !c.flag, LineDecoder.isSHA256Hex(s.raw(c)) { return "" }
        return try anyPrev(c, f)
    }

    /// Whether `u` is 64 lowercase hex digits (a SHA-256 as the chain writes it).
    @inline(__always) static func isSHA256Hex(_ u: UnsafeRawBufferPointer) -> Bool {
        guard u.count == 64 else { return false }
        // Sixteen bytes at a time (two words in a vector register), one test at the end.
        var flagged = LineDecoder.notLowercaseHex(u.loadUnaligned(fromByteOffset: 0, as: SIMD2<UInt64>.self))
        flagged |= LineDecoder.notLowercaseHex(u.loadUnaligned(fromByteOffset: 16, as: SIMD2<UInt64>.self))
        flagged |= LineDecoder.notLowercaseHex(u.loadUnaligned(fromByteOffset: 32, as: SIMD2<UInt64>.self))
        flagged |= LineDecoder.notLowercaseHex(u.loadUnaligned(fromByteOffset: 48, as: SIMD2<UInt64>.self))
        return flagged[0] | flagged[1] == 0
    }

    @inline(never)
    private func anyPrev(_ c: Capture, _ f: FieldRules) throws(EventError) -> String {
        guard c.kind != .absent else { throw f.error("prev", "is required") }
        if c.kind == .string {
            if !c.flag, LineDecoder.isSHA256Hex(s.raw(c)) { return materialize ? s.string(c) : "" }
            if c.flag {
                let bytes = s.unescapedBytes(c)
                if bytes.withUnsafeBytes(LineDecoder.isSHA256Hex) { return s.string(c) }
            }
        }
        throw f.error("prev", "must be 64 lowercase hex digits (a SHA-256)")
    }

    /// The high bit of each byte of `words` that is not `0-9` or `a-f`; 0 when all sixteen are.
    @inline(__always) static func notLowercaseHex(_ words: SIMD2<UInt64>) -> SIMD2<UInt64> {
        let ones = SIMD2<UInt64>(repeating: 0x0101_0101_0101_0101)
        let high = ones &* 0x80
        // For a byte b < 0x80, b + (0x80 - t) has its high bit set exactly when b >= t, with no carry out;
        // a byte of 0x80 or more is flagged by its own high bit.
        @inline(__always) func atLeast(_ t: UInt64) -> SIMD2<UInt64> { (words & ~high) &+ ones &* (0x80 - t) }
        let digit = atLeast(0x30) & ~atLeast(0x3A)
        let letter = atLeast(0x61) & ~atLeast(0x67)
        return (~(digit | letter) | words) & high
    }

    @inline(__always)
    private func rejectUnknown(_ e: EnvelopeCapture, _ f: FieldRules) throws(EventError) {
        if e.firstUnknown.kind != .absent { throw unknownMember(e.firstUnknown, f) }
    }

    /// ``rejectUnknown(_:_:)``'s error: the member's name as written (out of line: made only for a line that breaks the rule).
    @inline(never)
    private func unknownMember(_ name: Capture, _ f: FieldRules) -> EventError {
        f.error(s.string(name), "is not an envelope member (put extra members in data)")
    }

    // MARK: - Scanning the envelope

    /// The envelope's members as scanned: plain values (offsets into the
    /// line, kinds, flags), nothing reference counted; what they do not hold
    /// is in the ``Spilled`` beside them.
    struct EnvelopeCapture {
        var slots = Slots()
        /// `data` as scanned for its type, when the type was known by then.
        var data = DataCapture()
        /// The name of the first member the envelope does not define, in
        /// written order (its text is made only for the error); absent for none.
        var firstUnknown = Capture()

        @inline(__always) subscript(_ m: EnvelopeMember) -> Capture {
            get { slots[m.rawValue] }
            set { slots[m.rawValue] = newValue }
        }
    }

    /// Scans the whole line, which must be one JSON object, into `e` (what it
    /// does not hold into `spilled`).
    private mutating func scanEnvelope(into e: inout EnvelopeCapture, spilled: inout Spilled) throws(EventError) {
        s.skipWhitespace()
        guard s.peek() == UInt8(ascii: "{") else {
            _ = try s.parseValue()
            try s.expectEnd()
            throw s.checked(EventError(.notObject, "the line must be a JSON object"))
        }
        if try s.openObject() {
            var seen: UInt16 = 0
            var unknown: [String] = []
            var duplicates = DuplicateCheck()
            var next = 0
            var first = true
            let tokens = WriterOrder.envelope
            while true {
                let nameOffset: Int
                let member: EnvelopeMember?
                var name = Capture()
                if let token = s.matchName(tokens, next: next, first: first) {
                    // `,"name":` as the writer puts it: comma, name and colon read at once.
                    nameOffset = s.i - token.count + token.quote
                    s.skipWhitespace()
                    member = EnvelopeMember(rawValue: token.slot)
                } else {
                    if !first, !(try s.nextMember()) { break }
                    s.skipWhitespace()
                    nameOffset = s.i
                    name = try s.memberName()
                    member = s.identify(name, { EnvelopeMember($0) }, { EnvelopeMember($0) })
                    if let member {
                        guard seen & (1 << member.rawValue) == 0 else { throw s.duplicate(member.name, at: nameOffset) }
                        try s.colon()
                    }
                }
                first = false
                if let member {
                    let bit: UInt16 = 1 << member.rawValue
                    guard seen & bit == 0 else { throw s.duplicate(member.name, at: nameOffset) }
                    seen |= bit
                    next = member.rawValue + 1
                    e[member] = member == .data ? try scanEnvelopeData(type: e[.type], into: &e.data, spilled: &spilled) : try s.captureValue()
                } else {
                    let text = s.string(name)
                    if duplicates.repeats(text, among: unknown) { throw s.duplicate(text, at: nameOffset) }
                    unknown.append(text)
                    if e.firstUnknown.kind == .absent { e.firstUnknown = name }
                    try s.colon()
                    _ = try s.parseValue()
                }
            }
        }
        try s.expectEnd()
    }

    /// Scans `data`: for its type when the type is known (written before it, or
    /// found ahead), otherwise as any value (then `event` scans it again).
    private mutating func scanEnvelopeData(type written: Capture, into d: inout DataCapture, spilled: inout Spilled) throws(EventError) -> Capture {
        guard s.peek() == UInt8(ascii: "{") else { return try s.captureValue() }
        let type: EventType?
        if written.kind == .absent {
            type = Skim(s.bytes).typeAhead(afterValueAt: s.i)
        } else if written.kind == .string {
            type = s.identify(written, { EventType(utf8: $0) }, { EventType(utf8: $0) })
        } else {
            type = nil
        }
        guard let type else { return try s.captureValue() }
        let start = s.i
        try scanData(type, into: &d, spilled: &spilled)
        return Capture(.object, start: start, end: s.i)
    }

    /// The typed event from `data`, scanned for `type` (again, if it was scanned for another).
    private func event(_ type: EventType, _ e: EnvelopeCapture, _ spilled: Spilled) throws(EventError) -> Event {
        if e.data.type == type { return try event(type, e.data, spilled) }
        var again = LineDecoder(s.bytes, at: e[.data].start, depth: 1)
        again.materialize = materialize
        again.materializeData = materializeData
        again.known = known
        var d = DataCapture()
        var spilledAgain = Spilled()
        try again.scanData(type, into: &d, spilled: &spilledAgain)
        // Read with what this scan spilled.
        return try again.event(type, d, spilledAgain)
    }
}
