//! Fast decimal formatting for the writers (millions of numbers per file),
//! and the readers' tokenizer that keeps columns.

/// The blank-separated tokens of `line` with their 1-based columns (in
/// characters).
pub(crate) fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> + '_ {
    let mut col = 0;
    let mut start: Option<(usize, usize)> = None; // (byte, column)
    let mut chars = line.char_indices().chain(std::iter::once((line.len(), ' ')));
    std::iter::from_fn(move || {
        for (i, ch) in chars.by_ref() {
            col += 1;
            match (ch.is_whitespace(), start) {
                (false, None) => start = Some((i, col)),
                (true, Some((s, c))) => {
                    start = None;
                    return Some((c, &line[s..i]));
                }
                _ => {}
            }
        }
        None
    })
}

/// Appends the decimal digits of `v`.
pub(crate) fn push_u64(buf: &mut Vec<u8>, mut v: u64) {
    let mut tmp = [0u8; 20];
    let mut i = tmp.len();
    loop {
        i -= 1;
        tmp[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    buf.extend_from_slice(&tmp[i..]);
}

/// Appends the decimal digits of `v` (with a minus sign when negative).
pub(crate) fn push_i64(buf: &mut Vec<u8>, v: i64) {
    if v < 0 {
        buf.push(b'-');
    }
    push_u64(buf, v.unsigned_abs());
}

/// The first line before line `before` (1-based) of a model whose literals
/// include `x`: a `v` line, or a line of bare literals (MiniSat's result
/// file). For the message about a variable given both signs.
pub(crate) fn first_line_with(text: &str, x: i64, before: usize) -> Option<usize> {
    let want = x.to_string();
    text.lines()
        .take(before.saturating_sub(1))
        .position(|l| {
            let mut t = tokens(l).peekable();
            if matches!(t.peek(), Some((_, "v"))) {
                t.next();
            } else if !l.trim_start().starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
                return false;
            }
            t.any(|(_, tok)| tok == want)
        })
        .map(|k| k + 1)
}

/// A DIMACS literal token of line `line`, column `col`: a signed integer
/// (0 ends a clause or a model line), or the readers' common error.
pub(crate) fn literal(line: usize, col: usize, tok: &str) -> Result<i64, crate::ParseError> {
    tok.parse::<i64>().map_err(|_| {
        crate::ParseError::at(line, col, format!("expected a literal (a non-zero integer) or 0, found `{tok}`"))
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn tokens_keep_their_columns() {
        let t: Vec<(usize, &str)> = super::tokens("  ab\tcé  d").collect();
        assert_eq!(t, vec![(3, "ab"), (6, "cé"), (10, "d")]);
        assert_eq!(super::tokens("   ").count(), 0);
    }

    #[test]
    fn formats_numbers() {
        let mut b = Vec::new();
        super::push_u64(&mut b, 0);
        b.push(b' ');
        super::push_i64(&mut b, -120);
        b.push(b' ');
        super::push_u64(&mut b, u64::MAX);
        assert_eq!(String::from_utf8(b).unwrap(), format!("0 -120 {}", u64::MAX));
    }
}
