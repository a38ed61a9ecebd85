//! The compiled schedule: for every number of pieces left, the stage that
//! places the next piece, holding the index it searches by.
//!
//! A schedule runs DLX stages while many pieces remain and bit-field
//! stages below (the grammar forbids DLX after a bit-field engine), so the
//! plan is two lists: the DLX stages above [`StagePlan::bits_below`] pieces
//! left and the bit-field stages at and below it. Each bit-field stage owns
//! (a shared reference to) its index: an MCH or EMCH stage has its cover
//! index, a bdlx stage its live source, by construction; only de Bruijn's
//! root index is optional (puzzles of more than 64 piece groups search the
//! per-root tables instead).

use crate::dlx::{Heuristic, Matrix};
use crate::poly::model::bits::Bits;
use crate::poly::model::image_matrix::image_matrix;
use crate::poly::model::tables::Tables;
use crate::poly::model::Images;
use crate::poly::plan::schedule::{Kind, Schedule, Stage, Widen};
use crate::poly::stages::bdlx::LiveSource;
use crate::poly::stages::debruijn::RootIndex;
use crate::poly::stages::hole::cover::{self, CoverIndex};
use std::sync::Arc;

/// Window of de Bruijn's root index (bits after the hole).
const BRUIJN_WINDOW: u32 = 7;

/// A DLX stage: its ordering heuristic and the heuristic's sort key of
/// every item (header `h`'s key at `keys[h]`; infinite for the root and
/// the piece items).
#[derive(Debug)]
pub struct DlxStage {
    /// The heuristic's number in the plan (as [`Kind::Dlx`] names it).
    pub number: usize,
    /// The heuristic.
    pub heuristic: Heuristic,
    /// Its keys by item header.
    pub keys: Vec<f64>,
}

/// A bit-field stage with the index it searches by.
#[derive(Debug)]
pub enum BitStage<B> {
    /// Most constrained hole, exact counts at every hole.
    Mch(Arc<CoverIndex<B>>),
    /// Estimated most constrained hole, widened by `Widen`.
    Emch(Widen, Arc<CoverIndex<B>>),
    /// de Bruijn, with its root index where the puzzle has one.
    DeBruijn(Option<Arc<RootIndex<B>>>),
    /// DLX's min-fit choice on bit fields.
    Bdlx(Arc<LiveSource<B>>),
}

impl<B> BitStage<B> {
    /// The stage's kind.
    pub fn kind(&self) -> Kind {
        match self {
            BitStage::Mch(_) => Kind::Mch,
            BitStage::Emch(w, _) => Kind::Emch(*w),
            BitStage::DeBruijn(_) => Kind::DeBruijn,
            BitStage::Bdlx(_) => Kind::Bdlx,
        }
    }
}

/// The stage at one number of pieces left.
#[derive(Debug)]
pub enum At<'p, B> {
    /// A DLX stage.
    Dlx(&'p DlxStage),
    /// A bit-field stage.
    Bits(&'p BitStage<B>),
}

/// The compiled schedule of a puzzle.
///
/// Invariant: `kinds.len()` is the number of pieces plus one, and
/// `kinds[n]` is the kind of the stage placing the next piece when `n`
/// pieces are left (`n = 0` takes the stage of 1); `bits[n]` is that stage
/// for `n < bits.len()` and `dlx[stage_of_dlx[n - bits.len()]]` above;
/// `matrix` is the walkers' DLX matrix, built exactly when `dlx` is not
/// empty; every index is built once and shared by the stages that use it.
pub struct StagePlan<B> {
    kinds: Vec<Kind>,
    bits: Vec<BitStage<B>>,
    dlx: Vec<DlxStage>,
    /// For `n >= bits.len()`, the DLX stage's position in `dlx`.
    dlx_of: Vec<usize>,
    matrix: Option<Matrix>,
    bruijn: Option<Arc<RootIndex<B>>>,
    cover: Option<Arc<CoverIndex<B>>>,
}

impl<B: Bits> StagePlan<B> {
    /// The plan of `schedule` over `images` (masks in `tables`); `multi`:
    /// some group has identical copies.
    pub fn new(images: &Images, tables: &Tables<B>, schedule: &Schedule, multi: bool) -> StagePlan<B> {
        let n_pieces = images.n_pieces();
        let mut heuristics: Vec<Heuristic> = Vec::new();
        let kinds: Vec<Kind> = (0..=n_pieces)
            .map(|n| match schedule.stage_for(n.max(1)) {
                Stage::Dlx(h) => Kind::Dlx(heuristics.iter().position(|x| x == h).unwrap_or_else(|| {
                    heuristics.push(h.clone());
                    heuristics.len() - 1
                })),
                Stage::Mch => Kind::Mch,
                Stage::Emch(w) => Kind::Emch(*w),
                Stage::DeBruijn => Kind::DeBruijn,
                Stage::Bdlx => Kind::Bdlx,
            })
            .collect();
        // Bit-field stages from 0 pieces left up to the first DLX one.
        let n_bits = kinds.iter().position(|k| matches!(k, Kind::Dlx(_))).unwrap_or(kinds.len());
        // Each index is built by the first stage that needs it and shared
        // by the others.
        let (mut bruijn, mut cover, mut live) = (None, None, None);
        let bits = kinds[..n_bits]
            .iter()
            .map(|k| {
                let mut cover_index = || {
                    let c: &mut Arc<CoverIndex<B>> = cover.get_or_insert_with(|| {
                        let width = if crate::poly::stages::hole::sets_below(tables, &kinds, multi) {
                            cover::WIDTH_ABOVE_SETS
                        } else {
                            cover::FULL_WIDTH
                        };
                        Arc::new(CoverIndex::new(images, &tables.mask, width))
                    });
                    c.clone()
                };
                match *k {
                    Kind::Mch => BitStage::Mch(cover_index()),
                    Kind::Emch(w) => BitStage::Emch(w, cover_index()),
                    Kind::Bdlx => {
                        BitStage::Bdlx(live.get_or_insert_with(|| Arc::new(LiveSource::new(images, tables))).clone())
                    }
                    Kind::DeBruijn => BitStage::DeBruijn((images.groups.len() <= 64).then(|| {
                        bruijn
                            .get_or_insert_with(|| Arc::new(RootIndex::new(images, &tables.mask, BRUIJN_WINDOW)))
                            .clone()
                    })),
                    Kind::Dlx(_) => unreachable!("kinds below n_bits are bit-field stages"),
                }
            })
            .collect();
        let n_headers = images.n_cells + images.groups.len() + 1;
        let dlx: Vec<DlxStage> = heuristics
            .into_iter()
            .enumerate()
            .map(|(number, heuristic)| {
                let keys = (0..n_headers)
                    .map(|hd| {
                        if hd == 0 || hd > images.n_cells {
                            return f64::INFINITY;
                        }
                        heuristic.key(images.coords[hd - 1].map(|v| v as f64), images.dims).unwrap_or(f64::INFINITY)
                    })
                    .collect();
                DlxStage { number, heuristic, keys }
            })
            .collect();
        let dlx_of = kinds[n_bits..]
            .iter()
            .map(|k| match k {
                Kind::Dlx(h) => *h,
                // Schedule's invariant: no DLX stage follows a bit-field one.
                _ => unreachable!("a schedule puts no bit-field stage above a DLX one"),
            })
            .collect();
        let matrix = (!dlx.is_empty()).then(|| image_matrix(images));
        StagePlan { kinds, bits, dlx, dlx_of, matrix, bruijn, cover }
    }

    /// Sets whether the lean de Bruijn loop runs its AVX-512 copy, in every
    /// de Bruijn stage's root index (tests compare the copies).
    #[cfg(test)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(in crate::poly) fn set_lean_avx512(&mut self, on: bool) {
        for stage in &mut self.bits {
            if let BitStage::DeBruijn(Some(idx)) = stage {
                Arc::make_mut(idx).set_lean_avx512(on);
            }
        }
    }
}

impl<B> StagePlan<B> {
    /// The kind of the stage at each number of pieces left (index 0 to the
    /// number of pieces).
    #[inline]
    pub fn kinds(&self) -> &[Kind] {
        &self.kinds
    }

    /// The stage placing the next piece when `n_left` pieces are left.
    #[inline]
    pub fn at(&self, n_left: u32) -> At<'_, B> {
        let n = n_left as usize;
        match self.bits.get(n) {
            Some(b) => At::Bits(b),
            None => At::Dlx(&self.dlx[self.dlx_of[n - self.bits.len()]]),
        }
    }

    /// The bit-field stage at `n_left` pieces left, below the DLX stages
    /// (`n_left < bits_below()`): every node under a bit-field stage is one.
    #[inline]
    pub fn bits_at(&self, n_left: u32) -> &BitStage<B> {
        &self.bits[n_left as usize]
    }

    /// Below this many pieces left every stage is a bit-field engine.
    pub fn bits_below(&self) -> u32 {
        self.bits.len() as u32
    }

    /// The DLX matrix the walkers copy (`None` without a DLX stage).
    pub fn matrix(&self) -> Option<&Matrix> {
        self.matrix.as_ref()
    }

    /// de Bruijn's root index, where a de Bruijn stage has one.
    pub fn root_index(&self) -> Option<&RootIndex<B>> {
        self.bruijn.as_deref()
    }

    /// The cover index of the MCH and EMCH stages, where there are some.
    pub fn cover_index(&self) -> Option<&CoverIndex<B>> {
        self.cover.as_deref()
    }
}
