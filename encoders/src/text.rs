//! Fast decimal formatting for the writers (millions of numbers per file).

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

#[cfg(test)]
mod tests {
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
