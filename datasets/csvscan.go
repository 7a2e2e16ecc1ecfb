package datasets

import (
	"bytes"
	"io"
)

// field is one field of the current record: rec[s:e], already unquoted.
type field struct {
	s, e   int32
	quoted bool
	esc    bool // holds doubled quotes still to collapse
}

// scanner splits delimited text into records without allocating per record:
// fields are offsets into its buffer, valid until the next call.
type scanner struct {
	r        io.Reader
	file     string
	delim    byte
	cls      [256]uint8
	buf      []byte
	pos, end int // unconsumed input is buf[pos:end]
	eof      bool
	rerr     error
	line     int   // line on which the next record starts
	consumed int64 // bytes consumed so far
	fields   []field

	recArena   []byte // copies of the first records (see record)
	fieldArena []field
}

const (
	clsPlain = iota
	clsStop  // the delimiter or a line feed
	clsOdd   // NUL or a non-ASCII byte: the record's text gets checked
)

func (s *scanner) setDelim(d byte) {
	s.delim = d
	for c := range s.cls {
		s.cls[c] = clsPlain
		if c == 0 || c >= 0x80 {
			s.cls[c] = clsOdd
		}
	}
	s.cls['\n'] = clsStop
	s.cls[d] = clsStop
}

func isBlank(c, d byte) bool {
	return (c == ' ' || c == '\t' || c == '\r') && c != d
}

type scanStatus int

const (
	scanDone scanStatus = iota // one record parsed
	scanMore                   // the record goes past the buffer
	scanEOF                    // no more records
	scanErr
)

// parse reads one record from the start of b. It returns the bytes it spans
// (with its line feed), the line feeds in it, whether its text needs
// checking, and a status.
func (s *scanner) parse(b []byte, atEOF bool) (n, lines int, odd bool, st scanStatus, err error) {
	s.fields = s.fields[:0]
	if len(b) == 0 {
		if atEOF {
			return 0, 0, false, scanEOF, nil
		}
		return 0, 0, false, scanMore, nil
	}
	d := s.delim
	cls := &s.cls
	i := 0
	for {
		if len(s.fields) >= maxFields {
			return 0, 0, false, scanErr, errAt(s.file, s.line+lines, "more than %d fields on one line", maxFields)
		}
		for i < len(b) && isBlank(b[i], d) {
			i++
		}
		if i < len(b) && b[i] == '"' {
			i++
			cs := i
			esc := false
			for {
				k := bytes.IndexByte(b[i:], '"')
				if k < 0 {
					open := s.line + lines // earlier line feeds of the record are all inside quoted fields
					if len(b)-cs > maxField {
						return 0, 0, false, scanErr, errAt(s.file, open,
							"the quoted field opened on this line runs past 1 MiB; is a closing quote missing?")
					}
					if atEOF {
						return 0, 0, false, scanErr, errAt(s.file, open,
							"the quoted field opened on this line is never closed (a missing closing quote?)")
					}
					return 0, 0, false, scanMore, nil
				}
				i += k + 1
				if i < len(b) && b[i] == '"' {
					esc = true
					i++
					continue
				}
				if i == len(b) && !atEOF {
					return 0, 0, false, scanMore, nil
				}
				break
			}
			ce := i - 1
			if ce-cs > maxField {
				return 0, 0, false, scanErr, errAt(s.file, s.line+lines, "field %d is longer than 1 MiB", len(s.fields)+1)
			}
			lines += bytes.Count(b[cs:ce], nl)
			odd = true
			for i < len(b) && isBlank(b[i], d) {
				i++
			}
			s.fields = append(s.fields, field{int32(cs), int32(ce), true, esc})
			if i == len(b) {
				if !atEOF {
					return 0, 0, false, scanMore, nil
				}
				return i, lines, odd, scanDone, nil
			}
			switch b[i] {
			case d:
				i++
				continue
			case '\n':
				return i + 1, lines + 1, odd, scanDone, nil
			}
			end := min(len(b), i+20)
			if j := bytes.IndexByte(b[i:end], '\n'); j >= 0 {
				end = i + j
			}
			return 0, 0, false, scanErr, errAt(s.file, s.line+lines,
				"field %d: text %q after its closing quote (a quote inside a quoted field is written \"\")",
				len(s.fields), b[i:end])
		}
		fs := i
		for i < len(b) {
			c := cls[b[i]]
			if c == clsPlain {
				i++
				continue
			}
			if c == clsOdd {
				odd = true
				i++
				continue
			}
			break
		}
		if i-fs > maxField {
			return 0, 0, false, scanErr, errAt(s.file, s.line+lines, "field %d is longer than 1 MiB", len(s.fields)+1)
		}
		if i == len(b) && !atEOF {
			return 0, 0, false, scanMore, nil
		}
		fe := i
		for fe > fs && isBlank(b[fe-1], d) {
			fe--
		}
		s.fields = append(s.fields, field{int32(fs), int32(fe), false, false})
		if i == len(b) {
			return i, lines, odd, scanDone, nil
		}
		if b[i] == d {
			i++
			continue
		}
		return i + 1, lines + 1, odd, scanDone, nil
	}
}

// next returns the next record (nil at the end) and the line it starts on.
// s.fields describe it until the next call.
func (s *scanner) next() (rec []byte, line int, err error) {
	for {
		b := s.buf[s.pos:s.end]
		n, lines, odd, st, err := s.parse(b, s.eof)
		switch st {
		case scanDone:
			rec, line = b[:n], s.line
			s.line += lines
			s.pos += n
			s.consumed += int64(n)
			if odd {
				if err := checkText(s.file, line, rec); err != nil {
					return nil, line, err
				}
			}
			for k, f := range s.fields {
				if f.esc {
					s.fields[k].e = f.s + int32(collapseQuotes(rec[f.s:f.e]))
				}
			}
			return rec, line, nil
		case scanEOF:
			return nil, s.line, nil
		case scanErr:
			return nil, 0, err
		}
		if s.rerr != nil {
			return nil, s.line, errAt(s.file, s.line, "%v", s.rerr)
		}
		if s.end-s.pos >= maxRecord {
			return nil, s.line, errAt(s.file, s.line, "line longer than 16 MiB (is this a text table?)")
		}
		s.fill()
	}
}

// nextNonBlank is next, skipping blank lines.
func (s *scanner) nextNonBlank() (rec []byte, line int, err error) {
	for {
		rec, line, err = s.next()
		if err != nil || rec == nil || !s.blank() {
			return rec, line, err
		}
	}
}

// blank reports whether the current record is an empty line.
func (s *scanner) blank() bool {
	return len(s.fields) == 1 && s.fields[0].s == s.fields[0].e && !s.fields[0].quoted
}

// record is a record copied out of the scanner's buffer.
type record struct {
	rec    []byte
	fields []field
	line   int
}

func (r *record) val(j int) []byte { return r.rec[r.fields[j].s:r.fields[j].e] }

// record copies the current record into arenas shared by all copies (old
// copies keep the arrays they were cut from when an arena grows).
func (s *scanner) record(rec []byte, line int) record {
	b, f := len(s.recArena), len(s.fieldArena)
	s.recArena = append(s.recArena, rec...)
	s.fieldArena = append(s.fieldArena, s.fields...)
	return record{s.recArena[b:len(s.recArena):len(s.recArena)], s.fieldArena[f:len(s.fieldArena):len(s.fieldArena)], line}
}

// collapseQuotes turns each "" into " in place and returns the new length.
func collapseQuotes(b []byte) int {
	w := 0
	for r := 0; r < len(b); r++ {
		b[w] = b[r]
		w++
		if b[r] == '"' {
			r++
		}
	}
	return w
}

// fill reads more input, first moving the unconsumed bytes to the front and
// growing the buffer when a record fills more than half of it.
func (s *scanner) fill() {
	if s.pos > 0 {
		copy(s.buf, s.buf[s.pos:s.end])
		s.end -= s.pos
		s.pos = 0
	}
	if 2*s.end > len(s.buf) && len(s.buf) < maxRecord+readChunk {
		nb := make([]byte, min(2*len(s.buf), maxRecord+readChunk))
		copy(nb, s.buf[:s.end])
		s.buf = nb
	}
	for range 100 {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err == io.EOF {
			s.eof = true
			return
		}
		if err != nil {
			s.rerr = err
			return
		}
		if n > 0 {
			return
		}
	}
	s.rerr = io.ErrNoProgress
}

// fillTo reads until the buffer holds at least n bytes or the input ends.
func (s *scanner) fillTo(n int) {
	for s.end < n && !s.eof && s.rerr == nil {
		s.fill()
	}
}

var sniffCandidates = [...]byte{',', '\t', ';', '|'}

// sniff picks the delimiter that splits the first records into a constant
// number of fields, more than one; see ReadDelimited.
func (s *scanner) sniff(prefer byte) byte {
	b := s.buf[s.pos:s.end]
	type score struct {
		d              byte
		mode, modeN, n int
	}
	scores := make([]score, 0, len(sniffCandidates))
	for _, d := range sniffCandidates {
		s.setDelim(d)
		var counts []int
		off := 0
		for len(counts) < 50 {
			n, _, _, st, err := s.parse(b[off:], s.eof)
			if st == scanMore && len(counts) == 0 {
				n, _, _, st, err = s.parse(b[off:], true) // one long partial line: judge it
			}
			if st != scanDone || err != nil {
				break
			}
			off += n
			if s.blank() {
				continue
			}
			counts = append(counts, len(s.fields))
		}
		sc := score{d: d, n: len(counts)}
		freq := map[int]int{}
		for _, c := range counts {
			freq[c]++
			if f := freq[c]; f > sc.modeN || f == sc.modeN && c > sc.mode {
				sc.mode, sc.modeN = c, f
			}
		}
		scores = append(scores, sc)
	}
	s.fields = s.fields[:0]
	best := -1
	for i, sc := range scores { // every record agrees, on more than one field
		if sc.n == 0 || sc.modeN != sc.n || sc.mode < 2 {
			continue
		}
		if best < 0 || sc.d == prefer && scores[best].d != prefer ||
			scores[best].d != prefer && sc.mode > scores[best].mode {
			best = i
		}
	}
	if best >= 0 {
		return scores[best].d
	}
	for i, sc := range scores { // most records agree, on more than one field
		if sc.mode < 2 || 2*sc.modeN < sc.n {
			continue
		}
		if best < 0 || sc.modeN*scores[best].n > scores[best].modeN*sc.n {
			best = i
		}
	}
	if best >= 0 {
		return scores[best].d
	}
	return prefer
}
