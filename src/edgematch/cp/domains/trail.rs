//! The undo trail of [`Domains`]: copy-on-write saves of a cell's size,
//! domain and counters (and of the tile counts) at their first change after
//! a mark, copied back by [`Domains::undo_to`].

use super::Domains;

/// Log entry of [`Domains`]' undo stack meaning "the tile counts were saved".
const TILES: u32 = u32::MAX;

/// Domains of 2 to 8 words (up to 128 tiles): fixed-size copies, inlined,
/// instead of a `memcpy` call for a few words.
macro_rules! by_width {
    ($n:expr, $f:ident, $($arg:expr),*) => {
        match $n {
            2 => $f::<2>($($arg),*),
            3 => $f::<3>($($arg),*),
            4 => $f::<4>($($arg),*),
            5 => $f::<5>($($arg),*),
            6 => $f::<6>($($arg),*),
            7 => $f::<7>($($arg),*),
            8 => $f::<8>($($arg),*),
            _ => $f::<0>($($arg),*),
        }
    };
}

/// Appends `src` to `dst` (see [`by_width`]; `N = 0`: any length).
#[inline(always)]
fn push_n<const N: usize>(dst: &mut Vec<u64>, src: &[u64]) {
    match <&[u64; N]>::try_from(src) {
        Ok(a) if N > 0 => dst.extend_from_slice(a),
        _ => dst.extend_from_slice(src),
    }
}

/// Copies `src` into `dst`, equal lengths (see [`by_width`]).
#[inline(always)]
fn copy_n<const N: usize>(dst: &mut [u64], src: &[u64]) {
    match (<&mut [u64; N]>::try_from(&mut *dst), <&[u64; N]>::try_from(src)) {
        (Ok(d), Ok(s)) if N > 0 => *d = *s,
        _ => dst.copy_from_slice(src),
    }
}

#[inline(always)]
fn push_words(dst: &mut Vec<u64>, src: &[u64]) {
    by_width!(src.len(), push_n, dst, src)
}

#[inline(always)]
fn copy_words(dst: &mut [u64], src: &[u64]) {
    by_width!(src.len(), copy_n, dst, src)
}

impl Domains {
    /// Undo position, for [`Domains::undo_to`]; later changes are saved
    /// anew.
    #[inline]
    pub fn mark(&mut self) -> usize {
        self.epoch += 1;
        self.log.len()
    }

    /// Undo position without a new epoch (see `Core::mark_shared`).
    #[inline]
    pub fn log_len(&self) -> usize {
        self.log.len()
    }

    /// Saves cell `c` before its first change since the latest mark.
    #[inline(always)]
    pub(super) fn touch(&mut self, c: usize) {
        if self.stamp[c] != self.epoch {
            self.save(c);
        }
    }

    #[cold]
    #[inline(never)]
    fn save(&mut self, c: usize) {
        self.stamp[c] = self.epoch;
        self.log.push(c as u32);
        let (w, k) = (self.w, 4 * self.stride);
        self.saved_size.push(self.size[c]);
        push_words(&mut self.saved, &self.dom[c * w..(c + 1) * w]);
        let cnt = &self.cnt[c * k..(c + 1) * k];
        if let Ok(block) = <&[u16; 64]>::try_from(cnt) {
            // 9 to 16 colour buckets: a fixed-size copy, inlined (the
            // `memcpy` call cost more than the copy).
            self.saved_cnt.extend_from_slice(block);
        } else {
            self.saved_cnt.extend_from_slice(cnt);
        }
    }

    /// Saves the tile counts before their first change since the latest
    /// mark.
    #[inline(always)]
    pub(super) fn touch_tiles(&mut self) {
        if self.tstamp != self.epoch {
            self.save_tiles();
        }
    }

    #[cold]
    #[inline(never)]
    fn save_tiles(&mut self) {
        self.tstamp = self.epoch;
        self.log.push(TILES);
        self.tsaved.extend_from_slice(&self.tcount);
    }

    /// Restores every cell and the tile counts as they were at `mark`.
    pub fn undo_to(&mut self, mark: usize) {
        let (w, k) = (self.w, 4 * self.stride);
        while self.log.len() > mark {
            let c = self.log.pop().expect("undo log");
            if c == TILES {
                let at = self.tsaved.len() - self.tcount.len();
                self.tcount.copy_from_slice(&self.tsaved[at..]);
                self.tsaved.truncate(at);
                continue;
            }
            let c = c as usize;
            self.size[c] = self.saved_size.pop().expect("saved size");
            let at = self.saved.len() - w;
            copy_words(&mut self.dom[c * w..(c + 1) * w], &self.saved[at..]);
            self.saved.truncate(at);
            let at = self.saved_cnt.len() - k;
            let (to, from) = (&mut self.cnt[c * k..(c + 1) * k], &self.saved_cnt[at..]);
            if k == 64 {
                // A fixed-size copy (see `save`).
                let to: &mut [u16; 64] = to.try_into().expect("64 counters");
                *to = *<&[u16; 64]>::try_from(from).expect("64 counters");
            } else {
                to.copy_from_slice(from);
            }
            self.saved_cnt.truncate(at);
        }
        self.epoch += 1;
    }
}
