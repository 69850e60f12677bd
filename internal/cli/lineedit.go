package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// errInterrupted is Ctrl-C at the line editor: the line is dropped.
var errInterrupted = errors.New("interrupted")

// lineEditor is the shell's line editor on a terminal in raw mode: cursor
// movement, deletion and history, with the Emacs keys most shells share.
// It reads keys from in and draws on out; raw mode is the caller's.
//
//	←/→ Ctrl-B/F  move       Home/End Ctrl-A/E  line start/end
//	↑/↓ Ctrl-P/N  history    Backspace, Delete, Ctrl-D  delete
//	Ctrl-U/K  cut to start/end   Ctrl-W  cut the word before
//	Ctrl-C  drop the line        Ctrl-D on an empty line  end of input
type lineEditor struct {
	in      *bufio.Reader
	out     io.Writer
	history []string
}

// readLine edits one line after prompt. It returns io.EOF for Ctrl-D on an
// empty line (or the end of input) and errInterrupted for Ctrl-C.
func (e *lineEditor) readLine(prompt string) (string, error) {
	var buf []rune
	pos := 0
	hist := len(e.history) // the entry shown; len(history) is the new line
	draft := ""
	redraw := func() {
		// Back to the line start, write it, clear the rest, put the cursor back.
		s := "\r" + prompt + string(buf) + "\x1b[K"
		if back := len(buf) - pos; back > 0 {
			s += fmt.Sprintf("\x1b[%dD", back)
		}
		io.WriteString(e.out, s)
	}
	show := func(i int) {
		if hist == len(e.history) {
			draft = string(buf)
		}
		hist = i
		if i == len(e.history) {
			buf = []rune(draft)
		} else {
			buf = []rune(e.history[i])
		}
		pos = len(buf)
	}
	redraw()
	for {
		r, _, err := e.in.ReadRune()
		if err != nil {
			if len(buf) > 0 {
				io.WriteString(e.out, "\r\n")
				return string(buf), nil
			}
			return "", io.EOF
		}
		switch r {
		case '\r', '\n':
			io.WriteString(e.out, "\r\n")
			return string(buf), nil
		case 3: // Ctrl-C
			io.WriteString(e.out, "^C\r\n")
			return "", errInterrupted
		case 4: // Ctrl-D
			if len(buf) == 0 {
				io.WriteString(e.out, "\r\n")
				return "", io.EOF
			}
			if pos < len(buf) {
				buf = append(buf[:pos], buf[pos+1:]...)
			}
		case 1: // Ctrl-A
			pos = 0
		case 5: // Ctrl-E
			pos = len(buf)
		case 2: // Ctrl-B
			pos = max(pos-1, 0)
		case 6: // Ctrl-F
			pos = min(pos+1, len(buf))
		case 16: // Ctrl-P
			if hist > 0 {
				show(hist - 1)
			}
		case 14: // Ctrl-N
			if hist < len(e.history) {
				show(hist + 1)
			}
		case 11: // Ctrl-K
			buf = buf[:pos]
		case 21: // Ctrl-U
			buf = append([]rune{}, buf[pos:]...)
			pos = 0
		case 23: // Ctrl-W
			start := pos
			for start > 0 && buf[start-1] == ' ' {
				start--
			}
			for start > 0 && buf[start-1] != ' ' {
				start--
			}
			buf = append(buf[:start], buf[pos:]...)
			pos = start
		case 127, 8: // Backspace
			if pos > 0 {
				buf = append(buf[:pos-1], buf[pos:]...)
				pos--
			}
		case 27: // an escape sequence: ESC [ X or ESC [ n ~ (or ESC O X)
			key := e.escape()
			switch key {
			case "A":
				if hist > 0 {
					show(hist - 1)
				}
			case "B":
				if hist < len(e.history) {
					show(hist + 1)
				}
			case "C":
				pos = min(pos+1, len(buf))
			case "D":
				pos = max(pos-1, 0)
			case "H", "1~", "7~":
				pos = 0
			case "F", "4~", "8~":
				pos = len(buf)
			case "3~":
				if pos < len(buf) {
					buf = append(buf[:pos], buf[pos+1:]...)
				}
			}
		default:
			if r == '\t' {
				r = ' '
			}
			if r < 0x20 {
				continue
			}
			buf = append(buf[:pos], append([]rune{r}, buf[pos:]...)...)
			pos++
		}
		redraw()
	}
}

// escape reads the rest of an escape sequence and returns its final part:
// "A" for ESC [ A, "3~" for ESC [ 3 ~.
func (e *lineEditor) escape() string {
	b, err := e.in.ReadByte()
	if err != nil || (b != '[' && b != 'O') {
		return ""
	}
	var key strings.Builder
	for {
		c, err := e.in.ReadByte()
		if err != nil {
			return ""
		}
		key.WriteByte(c)
		if c >= 0x40 && c <= 0x7e { // the final byte
			return key.String()
		}
		if key.Len() > 8 {
			return ""
		}
	}
}

// remember adds a line to the history, skipping blanks and repeats.
func (e *lineEditor) remember(line string) {
	line = strings.TrimSpace(line)
	if line == "" || (len(e.history) > 0 && e.history[len(e.history)-1] == line) {
		return
	}
	e.history = append(e.history, line)
	if len(e.history) > maxHistory {
		e.history = e.history[len(e.history)-maxHistory:]
	}
}

const maxHistory = 1000
