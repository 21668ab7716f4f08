// ledger-stress: a writer process for the crash, concurrency and soak tests,
// and the ledger's benchmarks.
//
//   ledger-stress append-loop LOG --writer W --count N [--batch B] [--user U] [--start K] [--deferred] [--quiet] [--stats]
//       Appends events W-K ... W-(K+N-1) (K defaults to 1) in batches of B
//       (default 10), each fsync'd before the next (--deferred: one fsync at
//       the end). After each batch returns, prints `ack <seq> <id>` for each
//       of its events and flushes, so a killer knows exactly what was
//       acknowledged (--quiet: nothing). Recoveries (torn tails moved aside)
//       are reported on stderr. --stats prints on stderr the wall and CPU
//       time, the open's, and the CPU time spent inside LedgerWriter.append.
//   ledger-stress plain-loop LOG --count N [--batch B] [--bytes L] [--writer W] [--user U] [--start K] [--deferred] [--stats]
//                            [--fsync-delay-us D]
//       The baseline for append-loop: the same lines (what append-loop with
//       the same options writes, `prev` left as zeros) written with one
//       write and one fsync per batch, and nothing else (no lock, no
//       checks, no hashing). With --bytes L, every line is L bytes (LF
//       included; one line padded or cut), made once: nothing but the
//       I/O runs in the loop (give L = an append-loop log's bytes / events
//       for the same bytes). --deferred: one fsync at the end. --stats as
//       for append-loop, with the time spent in write+fsync. The fsync goes through the
//       ledger's system-call seam; --fsync-delay-us D makes every fsync wait D µs first
//       (the seam's delay fault, as `store-bench group --fsync-delay-us`: a slower disk,
//       paid alike by the loop and the store it is compared with).
//   ledger-stress read LOG
//       One pass of the reader over LOG: streams every line with
//       LogReader.forEachLine (counting lines that do not decode), then the
//       checked read (LogReader.read). Prints `lines N undecodable U events E
//       head SEQ:SHA torn T`, the first problem, if any, and `peak-rss-kib K`
//       (VmHWM, this process's own peak); exits 1 on a problem. For the
//       hostile-input tests.
//   ledger-stress read-loop LOG --until FILE [--min-passes N]
//       A reader running beside writers: passes over LOG until FILE exists
//       (and at least N passes were made). Each pass must see only lines that
//       decode, an intact chain (LogReader.read), at least as many lines as the
//       pass before, and the previous pass's head unchanged (verify with
//       --expect-head). A half-written line may only appear as a torn tail.
//       Prints `passes P max-lines L torn-tails-seen T`; exits 1 at the first
//       violation, naming it.
//   ledger-stress bench-sha256 [--mib M]      SHA-256 throughput over M MiB (default 256).
//   ledger-stress bench-read LOG              Times LogReader.verify over LOG.
//   ledger-stress bench-stages LOG [--runs N] Times verify's stages one at a time over LOG (one thread, CPU time).

import Events
import Ledger

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

func writeOut(_ fd: CInt, _ text: String) {
    var bytes = Array(text.utf8)
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeMutableBytes { buf in write(fd, buf.baseAddress! + done, buf.count - done) }
        if n < 0 {
            if errno == EINTR { continue }
            exit(1)
        }
        done += n
    }
    bytes.removeAll()
}

func fail(_ message: String, code: Int32 = 1) -> Never {
    writeOut(2, "ledger-stress: \(message)\n")
    exit(code)
}

func usage() -> Never {
    fail("""
    usage: ledger-stress append-loop LOG --writer W --count N [--batch B] [--user U] [--start K] [--deferred] [--quiet] [--stats]
           ledger-stress plain-loop LOG --count N [--batch B] [--bytes L] [--writer W] [--user U] [--start K] [--deferred] [--stats]
                                    [--fsync-delay-us D]
           ledger-stress read LOG
           ledger-stress read-loop LOG --until FILE [--min-passes N]
           ledger-stress bench-sha256 [--mib M]
           ledger-stress bench-read LOG
           ledger-stress bench-stages LOG [--runs N]
    """, code: 64)
}

/// Parses `--name value` options and bare words.
struct Arguments {
    var words: [String] = []
    var options: [String: String] = [:]
    var flags: Set<String> = []

    init(_ args: ArraySlice<String>, flags known: Set<String>) {
        var i = args.startIndex
        while i < args.endIndex {
            let a = args[i]
            if a.hasPrefix("--") {
                if known.contains(a) { flags.insert(a); i += 1; continue }
                guard i + 1 < args.endIndex else { usage() }
                options[a] = args[i + 1]
                i += 2
            } else {
                words.append(a)
                i += 1
            }
        }
    }

    func int(_ name: String, default value: Int? = nil) -> Int {
        guard let text = options[name] else {
            if let value { return value }
            fail("\(name) is required", code: 64)
        }
        guard let n = Int(text), n >= 0 else { fail("\(name) must be a count, not \(text)", code: 64) }
        return n
    }
}

/// Makes the events of one writer: for number `k`, quiz attempts of ten
/// events (start, eight answers, finish), so the log is realistic for projections.
///
/// The line of event `k` is
/// `{"id":"W-k","at":"2025-10-21T<k's second of the day>.<k % 1000>+03:00","user":"U","type":…,"data":…}`;
/// the values are made directly (no JSON parsed, the strings shared by an
/// attempt made once), so that making events costs little beside appending them.
struct EventMaker {
    let writer: String
    let user: String
    private let questions = (0..<9).map { "q\($0)" }
    private let quizzes = (0..<7).map { "daily-\($0)" }
    private var attemptNumber = -1
    private var attempt = ""

    init(writer: String, user: String) { self.writer = writer; self.user = user }

    mutating func event(_ k: Int) -> NewEvent {
        let n = (k - 1) / 10
        if n != attemptNumber { attemptNumber = n; attempt = "\(writer)-a\(n)" }
        let event: Event
        switch k % 10 {
        case 1:
            event = .quizStarted(QuizStarted(attempt: attempt, quiz: quizzes[n % 7], questions: 8, daily: true, category: "reading"))
        case 0:
            event = .quizFinished(AttemptEnded(attempt: attempt))
        default:
            event = .answerSelected(AnswerSelected(attempt: attempt, question: questions[k % 10 - 1], choice: k % 4,
                                                   correct: k % 3 != 0, skill: "inference", ms: 1000 + k % 5000))
        }
        return NewEvent(id: id(k), at: at(k), user: user, event: event)
    }

    /// `W-k`.
    func id(_ k: Int) -> String {
        var w = writer
        return w.withUTF8 { prefix in
            String(unsafeUninitializedCapacity: prefix.count + 21) { out in
                var i = 0
                for b in prefix { out[i] = b; i += 1 }
                out[i] = UInt8(ascii: "-"); i += 1
                var digits = 1, m = k
                while m >= 10 { digits += 1; m /= 10 }
                m = k
                for d in stride(from: digits - 1, through: 0, by: -1) { out[i + d] = UInt8(48 + m % 10); m /= 10 }
                return i + digits
            }
        }
    }

    /// `2025-10-21THH:MM:SS.F+03:00`: second `k % 86400` of the day, fraction `k % 1000` (unpadded).
    func at(_ k: Int) -> Timestamp {
        let second = k % 86_400
        let fraction = k % 1000
        let text = String(unsafeUninitializedCapacity: 40) { out in
            var i = 0
            for b in "2025-10-21T".utf8 { out[i] = b; i += 1 }
            func two(_ v: Int) { out[i] = UInt8(48 + v / 10); out[i + 1] = UInt8(48 + v % 10); i += 2 }
            two(second / 3600); out[i] = 58; i += 1
            two(second / 60 % 60); out[i] = 58; i += 1
            two(second % 60); out[i] = 46; i += 1
            if fraction >= 100 { out[i] = UInt8(48 + fraction / 100); i += 1 }
            if fraction >= 10 { out[i] = UInt8(48 + fraction / 10 % 10); i += 1 }
            out[i] = UInt8(48 + fraction % 10); i += 1
            for b in "+03:00".utf8 { out[i] = b; i += 1 }
            return i
        }
        do { return try Timestamp(parsing: text) } catch { fail("internal: made an invalid timestamp \(text): \(error)") }
    }
}

func appendLoop(_ args: Arguments) {
    guard args.words.count == 1 else { usage() }
    let path = args.words[0]
    guard let w = args.options["--writer"], !w.isEmpty else { fail("--writer is required", code: 64) }
    let count = args.int("--count")
    let batch = max(1, args.int("--batch", default: 10))
    let start = max(1, args.int("--start", default: 1))
    let user = args.options["--user"] ?? "u-\(w)"
    let durability: Durability = args.flags.contains("--deferred") ? .deferred : .everyBatch
    let quiet = args.flags.contains("--quiet")
    let stats = args.flags.contains("--stats")

    var maker = EventMaker(writer: w, user: user)
    let t0 = seconds(), c0 = cpuSeconds()
    let writer: LedgerWriter
    do { writer = try LedgerWriter(path: path) } catch { fail("\(error)") }
    let opened = (wall: seconds() - t0, cpu: cpuSeconds() - c0)
    var reported = 0
    func reportRecoveries() {
        while reported < writer.recoveries.count {
            writeOut(2, "ledger-stress: \(writer.recoveries[reported])\n")
            reported += 1
        }
    }
    reportRecoveries()
    var inAppend = 0.0
    var k = start
    let end = start + count
    while k < end {
        let n = min(batch, end - k)
        let events = (k..<(k + n)).map { maker.event($0) }
        let results: [AppendResult]
        let before = stats ? cpuSeconds() : 0
        do { results = try writer.append(events, durability: durability) } catch { fail("\(error)") }
        if stats { inAppend += cpuSeconds() - before }
        reportRecoveries()
        if !quiet {
            writeOut(1, results.map { "ack \($0.seq) \($0.id)\n" }.joined())
        }
        k += n
    }
    if durability == .deferred {
        do { try writer.sync() } catch { fail("\(error)") }
    }
    writer.close()
    if stats {
        let wall = seconds() - t0, cpu = cpuSeconds() - c0
        writeOut(2, "append-loop: \(count) events in batches of \(batch)\(durability == .deferred ? " (deferred, one fsync at the end)" : ", fsync per batch"): "
                 + "\(format3(wall)) s wall (\(rate(count, wall)) events/s), \(format3(cpu)) s CPU of this thread; "
                 + "open \(format3(opened.wall)) s wall, \(format3(opened.cpu)) s CPU; "
                 + "in LedgerWriter.append \(format3(inAppend)) s CPU (\(rate(count, inAppend)) events/s of CPU)\n")
    }
}

/// `ledger-stress plain-loop`: the same bytes as `append-loop`, written with
/// one `write` and one `fsync` per batch and nothing else (no lock, no
/// checks, no hashing): what the disk allows, for the benchmark to compare
/// appends with in the same run.
func plainLoop(_ args: Arguments) {
    guard args.words.count == 1 else { usage() }
    let path = args.words[0]
    let w = args.options["--writer"] ?? "b"
    let count = args.int("--count")
    let batch = max(1, args.int("--batch", default: 10))
    let start = max(1, args.int("--start", default: 1))
    let user = args.options["--user"] ?? "u-\(w)"
    let bytesPerLine = args.options["--bytes"].map { _ in args.int("--bytes") }
    let sync = !args.flags.contains("--deferred")
    let stats = args.flags.contains("--stats")
    // The fsync through the seam, with the delay fault when asked (a disk of a known, slower speed).
    let delay = args.int("--fsync-delay-us", default: 0)
    let faults = delay > 0 ? FaultInjector() : nil
    faults?.inject(.delay(delay), into: .fsync, times: Int.max)
    let system = System(faults: faults)
    if let bytesPerLine, bytesPerLine < 2 { fail("--bytes must be at least 2 (a byte and the LF)", code: 64) }

    var maker = EventMaker(writer: w, user: user)
    /// The line `append-loop` writes for event `k` (as the `k`-th line of a new log), `prev` left as zeros.
    func line(_ k: Int) -> [UInt8] {
        let e = maker.event(k)
        return LineCodec.encode(e.sealed(seq: k - start + 1, id: e.id ?? "", prev: Envelope.genesis))
    }
    // With --bytes L every line is L bytes: the first event's line, padded with
    // spaces (or cut) to L - 1, and an LF; one batch is built once and written again and again.
    var fixed: [UInt8] = []
    if let bytesPerLine {
        var one = line(start)
        if one.count >= bytesPerLine {
            one.removeLast(one.count - bytesPerLine + 1)
        } else {
            one.insert(contentsOf: repeatElement(UInt8(ascii: " "), count: bytesPerLine - 1 - one.count), at: one.count - 1)
        }
        one.append(0x0A)
        for _ in 0..<batch { fixed.append(contentsOf: one) }
    }

    let fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { fail("\(path): open: \(String(cString: strerror(errno)))") }
    let t0 = seconds(), c0 = cpuSeconds()
    var inIO = 0.0
    var total = 0
    var k = start
    let end = start + count
    var bytes: [UInt8] = []
    while k < end {
        let n = min(batch, end - k)
        if bytesPerLine != nil {
            bytes = n == batch ? fixed : Array(fixed[0..<(fixed.count / batch * n)])
        } else {
            bytes.removeAll(keepingCapacity: true)
            for j in k..<(k + n) { bytes.append(contentsOf: line(j)); bytes.append(0x0A) }
        }
        let t = seconds()
        bytes.withUnsafeBytes { b in
            var done = 0
            while done < b.count {
                let r = write(fd, b.baseAddress! + done, b.count - done)
                if r < 0 {
                    if errno == EINTR { continue }
                    fail("\(path): write: \(String(cString: strerror(errno)))")
                }
                done += r
            }
        }
        if sync {
            do throws(SystemCallError) { try system.fsync(fd) } catch { fail("\(path): \(error)") }
        }
        inIO += seconds() - t
        total += bytes.count
        k += n
    }
    if !sync { _ = try? system.fsync(fd) }
    close(fd)
    if stats {
        let wall = seconds() - t0, cpu = cpuSeconds() - c0
        writeOut(2, "plain-loop: \(count) events, \(total) bytes, in batches of \(batch)\(sync ? ", fsync per batch" : " (no fsync until the end)"): "
                 + "\(format3(wall)) s wall (\(rate(count, wall)) events/s), \(format3(cpu)) s CPU; "
                 + "in write\(sync ? "+fsync" : "") \(format3(inIO)) s wall (\(rate(count, inIO)) events/s)\n")
    }
}

/// `n / seconds`, rounded, with thousands separators.
func rate(_ n: Int, _ seconds: Double) -> String {
    guard seconds > 0 else { return "inf" }
    var digits = String(Int((Double(n) / seconds).rounded()))
    var out = ""
    while digits.count > 3 {
        out = "," + digits.suffix(3) + out
        digits.removeLast(3)
    }
    return digits + out
}

/// CPU time of the calling thread, in seconds.
func cpuSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// The process's peak resident set size in KiB (VmHWM from /proc/self/status), or nil off Linux.
///
/// Unlike a parent's wait4 rusage, VmHWM counts only this program image: the
/// maxrss a child inherits at exec includes its spawner's memory.
func peakRSSKiB() -> Int? {
    guard let f = fopen("/proc/self/status", "r") else { return nil }
    defer { fclose(f) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, CInt(line.count), f) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("VmHWM:") {
            return Int(text.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
    }
    return nil
}

func readOnce(_ args: Arguments) {
    guard args.words.count == 1 else { usage() }
    let path = args.words[0]
    let reader = LogReader(path: path)
    var lines = 0, undecodable = 0
    var firstUndecodable: String? = nil
    let raw: LogReader.LineCount
    do {
        raw = try reader.forEachLine { line in
            lines += 1
            if case .failure(let e) = line.record {
                undecodable += 1
                if firstUndecodable == nil { firstUndecodable = "\(e)" }
            }
        }
    } catch { fail("\(error)") }
    var text = "lines \(lines) undecodable \(undecodable) torn \(raw.tornTail.map { "\($0.length)" } ?? "0")"
    if let firstUndecodable { text += "\nfirst undecodable: \(firstUndecodable.prefix(200))" }
    let outcome: Result<LogSummary, LedgerError> = Result { () throws(LedgerError) in try reader.read { _ in }.summary }
    if case .success(let summary) = outcome { text += "\nevents \(summary.events) head \(summary.head)" }
    text += "\npeak-rss-kib \(peakRSSKiB().map { "\($0)" } ?? "unknown")\n"
    writeOut(1, text)
    if case .failure(let error) = outcome { fail("\(error)") }
}

func readLoop(_ args: Arguments) {
    guard args.words.count == 1 else { usage() }
    let path = args.words[0]
    guard let until = args.options["--until"] else { fail("--until FILE is required", code: 64) }
    let minPasses = args.int("--min-passes", default: 1)
    let reader = LogReader(path: path)
    var passes = 0, maxLines = 0, tornSeen = 0
    var previous: Head? = nil
    while true {
        let stopping = access(until, F_OK) == 0
        var lines = 0
        do {
            let raw = try reader.forEachLine { line in
                lines += 1
                if case .failure(let e) = line.record {
                    fail("pass \(passes + 1): a complete line does not decode (a torn or half line seen as data?): \(e)")
                }
            }
            if raw.tornTail != nil { tornSeen += 1 }
            let report = try reader.verify(expectHead: previous)
            if let problem = report.problem { fail("pass \(passes + 1): verify: \(problem)") }
            if report.events < lines {
                fail("pass \(passes + 1): verify saw \(report.events) events, fewer than the \(lines) lines streamed before it")
            }
            if let previous, report.events < previous.seq {
                fail("pass \(passes + 1): the log shrank from \(previous.seq) to \(report.events) events")
            }
            if report.events > 0 { previous = report.head }
        } catch { fail("pass \(passes + 1): \(error)") }
        passes += 1
        maxLines = max(maxLines, lines)
        if stopping && passes >= minPasses { break }
    }
    writeOut(1, "passes \(passes) max-lines \(maxLines) torn-tails-seen \(tornSeen) head \(previous.map { "\($0)" } ?? "0")\n")
}

func seconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func benchSHA256(_ args: Arguments) {
    let mib = max(1, args.int("--mib", default: 256))
    let chunk = [UInt8]((0..<(16 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    var hasher = SHA256()
    let t0 = seconds()
    var done = 0
    while done < mib << 20 {
        let n = min(chunk.count, (mib << 20) - done)
        chunk.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        done += n
    }
    let digest = hasher.finalize()
    let dt = seconds() - t0
    // Short lines, as the chain hashes them: one hash per 300-byte line.
    let line = Array(chunk[0..<300])
    let lines = 200_000
    let t1 = seconds()
    var x = SHA256.Digest.zero
    for _ in 0..<lines { x = SHA256.hash(line) }
    let dl = seconds() - t1
    print("sha256: \(mib) MiB in \(format3(dt)) s = \(format1(Double(mib) / dt)) MiB/s (digest \(digest.hex.prefix(16))…)")
    print("sha256: \(lines) lines of 300 bytes in \(format3(dl)) s = \(format1(Double(lines * 300) / dl / 1048576)) MiB/s, "
          + "\(Int(Double(lines) / dl)) lines/s (\(x.hex.prefix(8))…)")
}

func benchRead(_ args: Arguments) {
    guard args.words.count == 1 else { usage() }
    let path = args.words[0]
    let t0 = seconds()
    let report: VerifyReport
    do { report = try LogReader(path: path).verify() } catch { fail("\(error)") }
    let dt = seconds() - t0
    var st = stat()
    let size = stat(path, &st) == 0 ? Double(st.st_size) : 0
    print("verify: \(report.events) lines, \(format1(size / 1048576)) MiB in \(format3(dt)) s = "
          + "\(format1(size / 1048576 / dt)) MiB/s, \(Int(Double(report.events) / dt)) lines/s; "
          + (report.problem.map { "\($0)" } ?? "ok, head \(report.head)"))
    let t1 = seconds()
    var n = 0
    do { try LogReader(path: path).forEachLine { _ in n += 1 } } catch { fail("\(error)") }
    let d1 = seconds() - t1
    print("forEachLine (decode only): \(n) lines in \(format3(d1)) s = \(format1(size / 1048576 / d1)) MiB/s")
    let t2 = seconds()
    do { try LedgerWriter(path: path).close() } catch { fail("\(error)") }
    print("LedgerWriter open (full check + id index): \(format3(seconds() - t2)) s")
}

/// The CPU time of the calling thread (user + system), in seconds.
func threadSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// verify's work on a log, one stage at a time over the whole log, on one
/// thread, each the least CPU time of `--runs` passes: reading the file,
/// splitting lines, the structure scan alone (every string's end), the
/// writer's walk (structure and members), the walk and the rules (the second
/// stage), the general check (`checkRecord`, a line the second stage does
/// not take) and SHA-256 (the SHA instructions when the CPU has them), a
/// line at a time and as verify's chunks hash, 1, 2 or 4 lines interleaved.
func benchStages(_ args: Arguments) {
    guard args.words.count == 1 else { usage() }
    let path = args.words[0]
    let runs = max(1, args.int("--runs", default: 3))
    var st = stat()
    guard stat(path, &st) == 0, st.st_size > 0 else { fail("cannot stat \(path), or it is empty") }
    let size = Int(st.st_size)
    var data = [UInt8](repeating: 0, count: size)
    var readTime = Double.infinity
    for _ in 0..<runs {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { fail("cannot open \(path)") }
        let t = threadSeconds()
        var done = 0
        data.withUnsafeMutableBytes { b in
            while done < size {
                let n = read(fd, b.baseAddress! + done, min(1 << 20, size - done))
                if n <= 0 { break }
                done += n
            }
        }
        readTime = min(readTime, threadSeconds() - t)
        close(fd)
        guard done == size else { fail("short read of \(path)") }
    }
    var figures: [(String, Double, Int)] = [("read the file (1 MiB reads)", readTime, 0)]
    data.withUnsafeBytes { all in
        var lines: [Range<Int>] = []
        var splitTime = Double.infinity
        for _ in 0..<runs {
            lines.removeAll(keepingCapacity: true)
            let t = threadSeconds()
            var start = 0
            while start < size, let lf = memchr(all.baseAddress! + start, 0x0A, size - start) {
                let end = all.baseAddress!.distance(to: UnsafeRawPointer(lf))
                lines.append(start..<end)
                start = end + 1
            }
            splitTime = min(splitTime, threadSeconds() - t)
        }
        figures.append(("split lines (memchr)", splitTime, lines.count))
        func stage(_ name: String, _ body: (UnsafeRawBufferPointer) -> Bool) {
            var best = Double.infinity
            var taken = 0
            for _ in 0..<runs {
                taken = 0
                let t = threadSeconds()
                for r in lines where body(UnsafeRawBufferPointer(rebasing: all[r])) { taken += 1 }
                best = min(best, threadSeconds() - t)
            }
            figures.append((name, best, taken))
        }
        stage("structure scan: every string's end (SIMD search)") { LineCodec.stringCount($0) > 0 }
        stage("writer's walk: structure and members") { LineCodec.walksAsWriter($0) }
        stage("walk + rules: second stage (checkWritersLine)") { (try? LineCodec.checkWritersLine($0)) != nil }
        stage("general check (checkRecord, no second stage)") { line in
            // The general walk alone: a line the writer's walk would not take.
            (try? LineCodec.checkRecordGeneral(line)) != nil
        }
        stage("verify's check (checkRecord)") { (try? LineCodec.checkRecord($0)) != nil }
        stage("SHA-256 of each line (LineDigest)") { LineDigest.of($0) != SHA256.Digest.zero }
        // As verify's chunks hash: up to 1,024 lines at a time, `lanes` of them interleaved.
        let chunk = 1024
        var spans = [LineDigest.Span](repeating: LineDigest.span(UnsafeRawBufferPointer(start: nil, count: 0)), count: chunk)
        let digests = UnsafeMutablePointer<SHA256.Digest>.allocate(capacity: chunk)
        defer { digests.deallocate() }
        for lanes in [1, 2, 4] {
            var best = Double.infinity
            for _ in 0..<runs {
                let t = threadSeconds()
                var k = 0
                while k < lines.count {
                    let n = min(chunk, lines.count - k)
                    for j in 0..<n { spans[j] = LineDigest.span(UnsafeRawBufferPointer(rebasing: all[lines[k + j]])) }
                    spans.withUnsafeBufferPointer {
                        LineDigest.of(UnsafeBufferPointer(rebasing: $0[..<n]), into: digests, lanes: lanes)
                    }
                    k += n
                }
                best = min(best, threadSeconds() - t)
            }
            figures.append(("SHA-256, 1,024 lines at a time, \(lanes) interleaved (LineDigest.of(_:into:lanes:))", best, lines.count))
        }
    }
    print("bench-stages \(path): \(size) bytes, least CPU time (user + system, this thread) of \(runs) runs")
    print("| stage | lines taken | CPU s | ns/byte | MB/s |")
    print("|---|---:|---:|---:|---:|")
    for (name, t, taken) in figures {
        print("| \(name) | \(taken) | \(format3(t)) | \(format3(t * 1e9 / Double(size))) | \(format1(Double(size) / t / 1e6)) |")
    }
}

func format1(_ x: Double) -> String { String(Double(Int(x * 10)) / 10) }
func format3(_ x: Double) -> String { String(Double(Int(x * 1000)) / 1000) }

let argv = CommandLine.arguments
guard argv.count >= 2 else { usage() }
switch argv[1] {
case "append-loop": appendLoop(Arguments(argv.dropFirst(2), flags: ["--deferred", "--quiet", "--stats"]))
case "plain-loop": plainLoop(Arguments(argv.dropFirst(2), flags: ["--deferred", "--stats"]))
case "read": readOnce(Arguments(argv.dropFirst(2), flags: []))
case "read-loop": readLoop(Arguments(argv.dropFirst(2), flags: []))
case "bench-sha256": benchSHA256(Arguments(argv.dropFirst(2), flags: []))
case "bench-read": benchRead(Arguments(argv.dropFirst(2), flags: []))
case "bench-stages": benchStages(Arguments(argv.dropFirst(2), flags: []))
case "--help", "-h", "help":
    writeOut(1, "ledger-stress: a writer process for the ledger's crash and concurrency tests, and its benchmarks\n")
    usage()
default: usage()
}
