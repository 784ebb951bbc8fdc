package crdyaml

import "unicode"

// compareKeys orders mapping keys as go-yaml v2 sorts string keys: a
// "natural" order in which runs of digits compare by their value (so
// "v2" sorts before "v10"), and at the first difference anything that is
// not a letter sorts before a letter.
func compareKeys(a, b string) int {
	if a == b {
		return 0
	}
	var aBuf, bBuf [64]rune
	if keyLess(appendRunes(aBuf[:0], a), appendRunes(bBuf[:0], b)) {
		return -1
	}
	return 1
}

func appendRunes(dst []rune, s string) []rune {
	for _, r := range s {
		dst = append(dst, r)
	}
	return dst
}

func keyLess(a, b []rune) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] == b[i] {
			continue
		}
		aLetter, bLetter := unicode.IsLetter(a[i]), unicode.IsLetter(b[i])
		switch {
		case aLetter && bLetter:
			return a[i] < b[i]
		case aLetter || bLetter:
			return bLetter
		}
		// Neither is a letter: compare the digit runs that start here by
		// value, then by length, then the characters themselves.
		var an, bn int64
		if a[i] == '0' || b[i] == '0' {
			// A zero inside a number that a non-zero digit already
			// started counts as a digit like any other.
			for j := i - 1; j >= 0 && unicode.IsDigit(a[j]); j-- {
				if a[j] != '0' {
					an, bn = 1, 1
					break
				}
			}
		}
		ai, an := digitRun(a, i, an)
		bi, bn := digitRun(b, i, bn)
		switch {
		case an != bn:
			return an < bn
		case ai != bi:
			return ai < bi
		}
		return a[i] < b[i]
	}
	return len(a) < len(b)
}

// digitRun accumulates the digits of s from i onto n and returns where the
// run ends and its value (wrapping as int64 arithmetic does, as go-yaml's).
func digitRun(s []rune, i int, n int64) (int, int64) {
	for ; i < len(s) && unicode.IsDigit(s[i]); i++ {
		n = n*10 + int64(s[i]-'0')
	}
	return i, n
}
