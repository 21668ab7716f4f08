// Command tlog-check checks progress-ledger's receipts with the field's
// reference code, Go's golang.org/x/mod/sumdb/note and .../sumdb/tlog
// (docs/receipts.md), and that each tampered variant is refused.
//
//	tlog-check -vkey V -other-vkey W -origin O inclusion PROOF LINE
//	tlog-check -vkey V -other-vkey W -origin O consistency OLD NEW PROOF
//
// inclusion: PROOF is a C2SP tlog-proof (progress-ledger prove --seq), LINE
// the line it proves. The checkpoint it carries must open with note.Open and
// the verifier key V, be of origin O, and tlog.CheckRecord must accept the
// proof with the record hash tlog.RecordHash(SHA-256(line)).
//
// consistency: OLD and NEW are signed checkpoints, PROOF the consistency
// proof between them (progress-ledger prove --from); tlog.CheckTree must
// accept it.
//
// Then every variant must be refused: a flipped byte of the line, of each
// proof hash, of the root, of the signature; the other key W; another
// origin; (inclusion) the neighbouring index. Exit 0 when all hold, 1
// otherwise, naming what did not.
//
// Built in GOPATH mode against Debian's golang-golang-x-mod-dev:
// GO111MODULE=off GOPATH=/usr/share/gocode go build -o tlog-check main.go
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

var (
	vkeyFile  = flag.String("vkey", "", "the log's verifier key file")
	otherFile = flag.String("other-vkey", "", "another key's verifier key file (must be refused)")
	origin    = flag.String("origin", "", "the checkpoints' origin")
)

// A checkpoint opened with the key: its size and root.
type tree struct {
	size int64
	root tlog.Hash
}

func readKey(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		fail("%v", err)
	}
	return strings.TrimSpace(string(data))
}

// open opens a signed checkpoint with the verifier key and checks its origin
// and its three lines (C2SP tlog-checkpoint).
func open(msg []byte, vkey, wantOrigin string) (tree, error) {
	v, err := note.NewVerifier(vkey)
	if err != nil {
		return tree{}, err
	}
	n, err := note.Open(msg, note.VerifierList(v))
	if err != nil {
		return tree{}, err
	}
	lines := strings.Split(strings.TrimSuffix(n.Text, "\n"), "\n")
	if len(lines) < 3 {
		return tree{}, errors.New("a checkpoint has three lines")
	}
	if lines[0] != wantOrigin {
		return tree{}, fmt.Errorf("origin %q, not %q", lines[0], wantOrigin)
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 0 || strconv.FormatInt(size, 10) != lines[1] {
		return tree{}, fmt.Errorf("bad tree size %q", lines[1])
	}
	root, err := decodeHash(lines[2])
	if err != nil {
		return tree{}, err
	}
	return tree{size, root}, nil
}

func decodeHash(text string) (tlog.Hash, error) {
	var h tlog.Hash
	b, err := base64.StdEncoding.DecodeString(text)
	if err != nil || len(b) != len(h) {
		return h, fmt.Errorf("not a base64 hash: %q", text)
	}
	copy(h[:], b)
	return h, nil
}

func encodeHash(h tlog.Hash) string { return base64.StdEncoding.EncodeToString(h[:]) }

// A C2SP tlog-proof: the index, the hashes, the checkpoint's bytes.
type proof struct {
	index      int64
	hashes     []tlog.Hash
	checkpoint []byte
}

func parseProof(data []byte) (proof, error) {
	var p proof
	text := string(data)
	blank := strings.Index(text, "\n\n")
	if blank < 0 {
		return p, errors.New("no blank line before the checkpoint")
	}
	lines := strings.Split(text[:blank], "\n")
	p.checkpoint = data[blank+2:]
	if lines[0] != "c2sp.org/tlog-proof@v1" {
		return p, errors.New("not a c2sp.org/tlog-proof@v1")
	}
	lines = lines[1:]
	if len(lines) > 0 && strings.HasPrefix(lines[0], "extra ") {
		lines = lines[1:]
	}
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "index ") {
		return p, errors.New("no index line")
	}
	index, err := strconv.ParseInt(strings.TrimPrefix(lines[0], "index "), 10, 64)
	if err != nil {
		return p, err
	}
	p.index = index
	for _, line := range lines[1:] {
		h, err := decodeHash(line)
		if err != nil {
			return p, err
		}
		p.hashes = append(p.hashes, h)
	}
	return p, nil
}

func (p proof) encode() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "c2sp.org/tlog-proof@v1\nindex %d\n", p.index)
	for _, h := range p.hashes {
		b.WriteString(encodeHash(h) + "\n")
	}
	b.WriteString("\n")
	b.Write(p.checkpoint)
	return b.Bytes()
}

// checkInclusion: the proof's checkpoint opens, and tlog.CheckRecord accepts
// the record hash of the line's SHA-256 at the proof's index.
func checkInclusion(data, line []byte, vkey, wantOrigin string) error {
	p, err := parseProof(data)
	if err != nil {
		return err
	}
	t, err := open(p.checkpoint, vkey, wantOrigin)
	if err != nil {
		return err
	}
	digest := sha256.Sum256(line)
	return tlog.CheckRecord(tlog.RecordProof(p.hashes), t.size, t.root, p.index, tlog.RecordHash(digest[:]))
}

func parseHashes(data []byte) ([]tlog.Hash, error) {
	var hashes []tlog.Hash
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if line == "" {
			continue
		}
		h, err := decodeHash(line)
		if err != nil {
			return nil, err
		}
		hashes = append(hashes, h)
	}
	return hashes, nil
}

// checkConsistency: both checkpoints open, and tlog.CheckTree accepts the proof.
func checkConsistency(oldNote, newNote, data []byte, vkey, wantOrigin string) error {
	old, err := open(oldNote, vkey, wantOrigin)
	if err != nil {
		return err
	}
	cur, err := open(newNote, vkey, wantOrigin)
	if err != nil {
		return err
	}
	hashes, err := parseHashes(data)
	if err != nil {
		return err
	}
	if old.size == cur.size {
		if len(hashes) != 0 || old.root != cur.root {
			return errors.New("equal sizes need equal roots and an empty proof")
		}
		return nil
	}
	return tlog.CheckTree(tlog.TreeProof(hashes), cur.size, cur.root, old.size, old.root)
}

// flip returns a copy of b with byte i changed.
func flip(b []byte, i int) []byte {
	c := append([]byte(nil), b...)
	c[i] ^= 0x01
	return c
}

// flipLine changes one byte of line k (0-based) of a text, keeping it a valid line of the same length.
func flipLine(text []byte, k int, position func(line []byte) int) []byte {
	lines := bytes.Split(text, []byte("\n"))
	lines[k] = flip(lines[k], position(lines[k]))
	return bytes.Join(lines, []byte("\n"))
}

// flipHashText replaces a base64 hash line by the base64 of the hash with a bit flipped.
func flipHashText(line []byte) []byte {
	h, err := decodeHash(string(line))
	if err != nil {
		fail("%v", err)
	}
	h[0] ^= 0x01
	return []byte(encodeHash(h))
}

// signatureFlipped changes a byte of the (first) signature's bytes, past the key ID.
func signatureFlipped(msg []byte) []byte {
	i := bytes.LastIndex(msg, []byte("\n\n"))
	lines := bytes.Split(msg[i+2:], []byte("\n"))
	parts := bytes.SplitN(lines[0], []byte(" "), 3)
	sig, err := base64.StdEncoding.DecodeString(string(parts[2]))
	if err != nil {
		fail("%v", err)
	}
	sig[10] ^= 0x01
	lines[0] = []byte(string(parts[0]) + " " + string(parts[1]) + " " + base64.StdEncoding.EncodeToString(sig))
	return append(append([]byte(nil), msg[:i+2]...), bytes.Join(lines, []byte("\n"))...)
}

var failures int

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "tlog-check: "+format+"\n", args...)
	os.Exit(1)
}

func expectOK(what string, err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "tlog-check: %s: refused by Go's tlog/note: %v\n", what, err)
		failures++
	}
}

func expectRefused(what string, err error) {
	if err == nil {
		fmt.Fprintf(os.Stderr, "tlog-check: %s: accepted, but must be refused\n", what)
		failures++
	}
}

func readFile(path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		fail("%v", err)
	}
	return data
}

func main() {
	flag.Parse()
	vkey, other := readKey(*vkeyFile), readKey(*otherFile)
	args := flag.Args()
	refused := 0
	refuse := func(what string, err error) { expectRefused(what, err); refused++ }
	switch {
	case len(args) == 3 && args[0] == "inclusion":
		data := readFile(args[1])
		line := bytes.TrimSuffix(readFile(args[2]), []byte("\n"))
		expectOK("the proof", checkInclusion(data, line, vkey, *origin))
		p, err := parseProof(data)
		if err != nil {
			fail("%v", err)
		}
		for _, i := range []int{0, len(line) / 2, len(line) - 1} {
			refuse(fmt.Sprintf("byte %d of the line flipped", i), checkInclusion(data, flip(line, i), vkey, *origin))
		}
		for k := range p.hashes {
			q := p
			q.hashes = append([]tlog.Hash(nil), p.hashes...)
			q.hashes[k][5] ^= 0x01
			refuse(fmt.Sprintf("hash %d of the path flipped", k), checkInclusion(q.encode(), line, vkey, *origin))
		}
		if len(p.hashes) > 0 {
			q := p
			q.hashes = p.hashes[:len(p.hashes)-1]
			refuse("the path's last hash left out", checkInclusion(q.encode(), line, vkey, *origin))
		}
		q := p
		q.checkpoint = flipLine(p.checkpoint, 2, func([]byte) int { return 0 })
		refuse("the checkpoint's root changed", checkInclusion(q.encode(), line, vkey, *origin))
		t, err := open(p.checkpoint, vkey, *origin)
		if err != nil {
			fail("%v", err)
		}
		root := t.root
		root[0] ^= 0x01
		digest := sha256.Sum256(line)
		refuse("the path against another root", tlog.CheckRecord(tlog.RecordProof(p.hashes), t.size, root, p.index, tlog.RecordHash(digest[:])))
		q = p
		q.checkpoint = signatureFlipped(p.checkpoint)
		refuse("a byte of the signature flipped", checkInclusion(q.encode(), line, vkey, *origin))
		refuse("another key", checkInclusion(data, line, other, *origin))
		refuse("another origin", checkInclusion(data, line, vkey, *origin+"-other"))
		if t.size > 1 {
			q = p
			q.index = (p.index + 1) % t.size
			refuse("the neighbouring index", checkInclusion(q.encode(), line, vkey, *origin))
		}
	case len(args) == 4 && args[0] == "consistency":
		oldNote, newNote, data := readFile(args[1]), readFile(args[2]), readFile(args[3])
		expectOK("the consistency proof", checkConsistency(oldNote, newNote, data, vkey, *origin))
		lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
		for k := range lines {
			if len(lines[k]) == 0 {
				continue
			}
			changed := append([][]byte(nil), lines...)
			changed[k] = flipHashText(lines[k])
			refuse(fmt.Sprintf("hash %d of the proof flipped", k), checkConsistency(oldNote, newNote, append(bytes.Join(changed, []byte("\n")), '\n'), vkey, *origin))
		}
		old, err1 := open(oldNote, vkey, *origin)
		cur, err2 := open(newNote, vkey, *origin)
		if err1 != nil || err2 != nil {
			fail("%v %v", err1, err2)
		}
		refuse("the new checkpoint's root changed", checkConsistency(oldNote, flipLine(newNote, 2, func([]byte) int { return 0 }), data, vkey, *origin))
		refuse("the old checkpoint's root changed", checkConsistency(flipLine(oldNote, 2, func([]byte) int { return 0 }), newNote, data, vkey, *origin))
		if old.size != cur.size {
			hashes, _ := parseHashes(data)
			root := cur.root
			root[0] ^= 0x01
			refuse("the proof against another new root", tlog.CheckTree(tlog.TreeProof(hashes), cur.size, root, old.size, old.root))
			root = old.root
			root[0] ^= 0x01
			refuse("the proof against another old root", tlog.CheckTree(tlog.TreeProof(hashes), cur.size, cur.root, old.size, root))
		}
		refuse("a byte of the new signature flipped", checkConsistency(oldNote, signatureFlipped(newNote), data, vkey, *origin))
		refuse("another key", checkConsistency(oldNote, newNote, data, other, *origin))
		refuse("another origin", checkConsistency(oldNote, newNote, data, vkey, *origin+"-other"))
	default:
		fail("usage: tlog-check -vkey V -other-vkey W -origin O (inclusion PROOF LINE | consistency OLD NEW PROOF)")
	}
	if failures > 0 {
		os.Exit(1)
	}
	fmt.Printf("tlog-check: %s %s: ok with Go's note and tlog; %d tampered variants refused\n", args[0], args[len(args)-1], refused)
}
