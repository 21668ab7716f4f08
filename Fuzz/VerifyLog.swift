// libFuzzer target: verify and the reader (Ledger.LogReader) over whole logs.
//
// Built by scripts/fuzz with `swiftc -sanitize=fuzzer,address -parse-as-library`
// together with the Events and Ledger modules; not a SwiftPM target.
//
// Each input is written to a scratch file (in $FUZZ_SCRATCH or /dev/shm) and read as a log:
// - verify never throws for a readable regular file, never crashes, traps,
//   hangs or leaks;
// - its report is consistent: on a problem at line K, K-1 events were
//   accepted; when it passes, the count is the number of complete lines and
//   the head is the last complete line's seq and SHA-256, and a torn tail is
//   reported exactly when the file does not end in LF;
// - the checked read (LogReader.read) agrees with it: the same problem, or the
//   same summary, with one record per accepted line;
// - the raw read (forEachLine) hands out exactly the complete lines, and
//   each one's record decodes iff the line decoder accepts its bytes;
// - verify with the head it just printed as --expect-head passes.

import Events
import Ledger

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@inline(never)
func fail(_ message: String) -> Never {
    fatalError("fuzz-verify: " + message)
}

let scratchPath: String = {
    let dir = getenv("FUZZ_SCRATCH").map { String(cString: $0) } ?? "/dev/shm"
    return "\(dir)/progress-ledger-fuzz-\(getpid()).log"
}()

let scratchFD: CInt = {
    let fd = open(scratchPath, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    if fd < 0 { fail("cannot create \(scratchPath)") }
    return fd
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVerifyLog(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    if size > 0, pwrite(scratchFD, bytes.baseAddress, size, 0) != size { fail("pwrite") }
    if ftruncate(scratchFD, off_t(size)) != 0 { fail("ftruncate") }

    // The complete lines, found independently with memchr.
    var lineEnds: [Int] = []
    var from = 0
    while from < size, let base = bytes.baseAddress, let hit = memchr(base + from, 0x0A, size - from) {
        let lf = UnsafeRawPointer(hit) - base
        lineEnds.append(lf)
        from = lf + 1
    }
    let tailLength = size - from

    let reader = LogReader(path: scratchPath, chunkSize: 4096)
    let report: VerifyReport
    do { report = try reader.verify() } catch { fail("verify threw \(error)") }

    if let problem = report.problem {
        _ = problem.description
        guard problem.kind != .tornTail, problem.kind != .headMismatch else { fail("verify reported \(problem)") }
        guard report.events == problem.line - 1, problem.line <= lineEnds.count else {
            fail("problem \(problem) after \(report.events) events, \(lineEnds.count) complete lines")
        }
    } else {
        guard report.events == lineEnds.count else { fail("passed with \(report.events) events, \(lineEnds.count) complete lines") }
        let lastStart = lineEnds.count >= 2 ? lineEnds[lineEnds.count - 2] + 1 : 0
        let expectedHead = lineEnds.isEmpty ? Head.empty
            : Head(seq: lineEnds.count, sha256: SHA256.hash(UnsafeRawBufferPointer(rebasing: bytes[lastStart..<lineEnds[lineEnds.count - 1]])))
        guard report.head == expectedHead else { fail("head \(report.head), expected \(expectedHead)") }
        guard (report.summary.tornTail?.length ?? 0) == tailLength else { fail("torn tail \(String(describing: report.summary.tornTail)), \(tailLength) bytes after the last LF") }
        if report.events > 0 {
            guard (try? reader.verify(expectHead: report.head))?.isOK == true else { fail("its own head does not verify") }
        }
    }

    // The checked read agrees.
    var records = 0
    do {
        let summary = try reader.read { _ in records += 1 }.summary
        guard report.isOK, summary == report.summary, records == report.events else {
            fail("read passed (\(records) records) where verify reported \(String(describing: report.problem))")
        }
    } catch {
        guard error.code == .damaged, error.problem == report.problem, records == report.events else {
            fail("read threw \(error) after \(records) records; verify: \(String(describing: report.problem))")
        }
    }

    // The raw read hands out exactly the complete lines.
    var k = 0
    do {
        let summary = try reader.forEachLine { line in
            let end = lineEnds[k]
            let start = k == 0 ? 0 : lineEnds[k - 1] + 1
            guard line.number == k + 1, line.offset == start, line.length == end - start else { fail("line \(k + 1) misplaced") }
            if line.length <= LineCodec.maxLineLength {
                guard line.bytes.elementsEqual(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) else { fail("line \(k + 1) bytes differ") }
                let direct = (try? LineCodec.decodeRecord(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))) != nil
                guard direct == ((try? line.record.get()) != nil) else { fail("line \(k + 1) decodes differently") }
            }
            k += 1
        }
        guard summary.lines == lineEnds.count, k == lineEnds.count, (summary.tornTail?.length ?? 0) == tailLength else {
            fail("forEachLine saw \(summary.lines) lines, \(lineEnds.count) expected")
        }
    } catch { fail("forEachLine threw \(error)") }
    return 0
}
