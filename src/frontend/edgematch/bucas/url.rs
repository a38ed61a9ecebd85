//! The parameters of an e2.bucas.name URL
//! (`https://e2.bucas.name/#puzzle=NAME&board_w=W&board_h=H&board_edges=…`):
//! the query (after `?`) and the fragment (after `#`) are both read, as
//! `KEY=VALUE` pairs separated by `&`; a token without `?` or `#` is read as
//! the parameters themselves (a copied location hash).

/// One parameter: its key, its value (percent-decoded for `puzzle` and
/// `motifs_order`, as written for the others), the 1-based column of the
/// value's first character in the line, and its byte offset in the token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Param {
    pub key: String,
    pub value: String,
    pub col: usize,
    pub at: usize,
}

/// The parameters emx reads; any other key is ignored (the viewer has more,
/// e.g. `board_types`).
const KNOWN: [&str; 6] = ["puzzle", "board_w", "board_h", "board_edges", "board_pieces", "motifs_order"];

/// Keys whose values are percent-decoded (free text); the others hold
/// letters or digits only, so a `%` in them is reported as a bad character
/// at its own column.
const DECODED: [&str; 2] = ["puzzle", "motifs_order"];

/// Whether `token` (the first field of a line) is a URL or a parameter
/// string rather than a name or an edge string.
pub(super) fn is_url(token: &str) -> bool {
    token.starts_with("http://") || token.starts_with("https://") || token.contains("board_edges=")
}

/// The known parameters of `token`, which starts at 1-based column `col0`
/// of its line. A known key given twice, a bad percent escape, or a URL
/// without parameters is an error `(column, message)`.
pub(super) fn params(token: &str, col0: usize) -> Result<Vec<Param>, (usize, String)> {
    let col_of = |byte: usize| col0 + token[..byte].chars().count();
    // Byte ranges of the query and the fragment.
    let hash = token.find('#');
    let query = token[..hash.unwrap_or(token.len())].find('?');
    let mut parts: Vec<(usize, usize)> = Vec::new();
    if let Some(q) = query {
        parts.push((q + 1, hash.unwrap_or(token.len())));
    }
    if let Some(h) = hash {
        parts.push((h + 1, token.len()));
    }
    if parts.is_empty() {
        if token.starts_with("http://") || token.starts_with("https://") {
            return Err((
                col0,
                "a URL without parameters: expected `https://e2.bucas.name/#puzzle=NAME&board_w=W&board_h=H&board_edges=…`"
                    .into(),
            ));
        }
        parts.push((0, token.len()));
    }
    let mut out: Vec<Param> = Vec::new();
    for (start, end) in parts {
        let mut at = start;
        for piece in token[start..end].split('&') {
            let here = at;
            at += piece.len() + 1;
            if piece.is_empty() {
                continue;
            }
            let (key, value, value_at) = match piece.find('=') {
                Some(eq) => (&piece[..eq], &piece[eq + 1..], here + eq + 1),
                None => (piece, "", here + piece.len()),
            };
            if !KNOWN.contains(&key) {
                continue;
            }
            if out.iter().any(|p| p.key == key) {
                return Err((col_of(here), format!("parameter `{key}` given twice: expected it once")));
            }
            let value = if DECODED.contains(&key) {
                percent_decode(value).map_err(|k| {
                    (
                        col_of(value_at + k),
                        format!("bad escape in `{key}`: expected %XX (two hex digits) giving UTF-8 text"),
                    )
                })?
            } else {
                value.to_string()
            };
            out.push(Param { key: key.to_string(), value, col: col_of(value_at), at: value_at });
        }
    }
    Ok(out)
}

/// Decodes `%XX` escapes; `Err(k)` gives the byte offset of a bad one (or
/// 0 when the result is not UTF-8).
fn percent_decode(s: &str) -> Result<String, usize> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = b.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
            let byte = hex.and_then(|h| u8::from_str_radix(h, 16).ok()).ok_or(i)?;
            out.push(byte);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| 0)
}

/// `s` with every byte outside `A-Z a-z 0-9 - . _ ~` written as `%XX`, so
/// it can stand as a parameter value.
pub(super) fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kv(p: &[Param]) -> Vec<(&str, &str, usize)> {
        p.iter().map(|p| (p.key.as_str(), p.value.as_str(), p.col)).collect()
    }

    #[test]
    fn fragment_query_and_bare_parameters() {
        let p = params("https://e2.bucas.name/#puzzle=My%20E2&board_w=2&board_edges=abcd&board_types=x", 1).unwrap();
        assert_eq!(kv(&p), [("puzzle", "My E2", 31), ("board_w", "2", 47), ("board_edges", "abcd", 61)]);
        let p = params("https://x.org/v?board_edges=ab#motifs_order=jef", 3).unwrap();
        assert_eq!(kv(&p), [("board_edges", "ab", 31), ("motifs_order", "jef", 47)]);
        let p = params("board_h=3&&board_edges=aa", 1).unwrap();
        assert_eq!(kv(&p), [("board_h", "3", 9), ("board_edges", "aa", 24)]);
    }

    #[test]
    fn refusals_say_where() {
        let e = params("https://e2.bucas.name/", 1).unwrap_err();
        assert_eq!(e.0, 1);
        assert!(e.1.contains("without parameters"), "{}", e.1);
        let e = params("https://e2.bucas.name/#board_w=2&board_w=3", 1).unwrap_err();
        assert_eq!(e, (34, "parameter `board_w` given twice: expected it once".to_string()));
        let e = params("#puzzle=a%zz", 1).unwrap_err();
        assert_eq!(e.0, 10);
    }

    #[test]
    fn names_round_trip_through_the_escapes() {
        for name in ["eternity2", "pieces 16x16", "a+b&c=d#e", "é"] {
            assert_eq!(percent_decode(&percent_encode(name)).unwrap(), name);
        }
    }
}
