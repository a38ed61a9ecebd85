//! The tuning knobs of every method (`--param NAME=VALUE`).

/// Tuning knobs. The defaults are those used for the reported results.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Params {
    /// TA: cells per assignment move (TA.K of Salassa et al.; 0: a
    /// sixteenth of the cells, at least 8, for `tabu`; 16 for `multi`).
    pub ta_cells: usize,
    /// TA: preference for badly matched cells: a cell with `b` unmatched
    /// sides is picked with weight `1 + bias * b`.
    pub bias: u32,
    /// Tabu tenure of a selected cell, in iterations (drawn in the range).
    pub tabu_cell: (u64, u64),
    /// Tabu tenure of a reverse move (to, from).
    pub tabu_pair: (u64, u64),
    /// Iterations without improving the current board that make a plateau
    /// (0: six per cell of the board, at least 1500).
    pub plateau: u64,
    /// Random swap-and-rotate moves of one diversification.
    pub perturb_moves: usize,
    /// Diversify by forced TA moves (one tile must leave its cell) instead
    /// of random swaps.
    pub kick: bool,
    /// Extra swaps of a diversification per consecutive plateau without a
    /// new best (adaptive perturbation strength).
    pub perturb_grow: usize,
    /// Plateaus without a new best before the best board is restored.
    pub intensify_after: u32,
    /// Plateaus without a new best of the search before the current board
    /// is replaced by a fresh start board (0: never).
    pub restart_after: u32,
    /// TA (method `tabu`): selected cells per move whose tile must leave
    /// its cell (0: the move never lowers the score).
    pub force: usize,
    /// Method `tabu`, acceptance at a plateau without a new best
    /// (iterated local search "better or within T"): 0 = restore the best
    /// after `intensify_after` plateaus; T > 0 = continue from the current
    /// local optimum when it is within T joins of the best, else restore
    /// the best at once (`intensify_after` unused).
    pub accept: u32,
    /// Method `tabu`: late-acceptance walk of swap-and-rotate moves as the
    /// diversification (history length; 0 = random swaps instead).
    pub lahc: usize,
    /// Method `tabu`: moves of one late-acceptance walk.
    pub lahc_moves: usize,
    /// Method `tabu`: how far below the start score the late-acceptance
    /// walk may go at first (its history starts at score − slack).
    pub lahc_slack: u32,
    /// Method `tabu`: RO regions re-solved as the diversification, each
    /// result kept even when it lowers the score (0 = random swaps).
    pub ro_kick: usize,
    /// Run BO, BW, TSR and RO at each plateau (method `tabu`).
    pub polish: bool,
    /// TA iterations per cycle (method `multi`, TA.N).
    pub ta_iterations: u64,
    /// RO: region height and width.
    pub region: (usize, usize),
    /// RO: regions re-solved per cycle (Clique.N).
    pub regions_per_cycle: usize,
    /// RO and BO: most holes tried, and DLX nodes per try.
    pub max_holes: u32,
    /// RO and BO: DLX nodes per number of holes.
    pub resolve_nodes: u64,
    /// CP-relaxed start: cells left out, DLX node limit, tries.
    pub relax: usize,
    /// CP-relaxed start: DLX nodes per try.
    pub relax_nodes: u64,
    /// GA/AIEA: population size.
    pub population: usize,
    /// GA/AIEA: tournament size.
    pub tournament: usize,
    /// Breaks: fraction of the board (scan order) placed without breaks.
    pub breaks_from: f64,
    /// Breaks: exponent of the schedule's growth after `breaks_from`.
    pub breaks_shape: f64,
    /// Breaks: initial total budget of breaks (0: a sixth of the joins).
    pub breaks_budget: u32,
    /// Breaks: nodes per randomised restart.
    pub restart_nodes: u64,
    /// Breaks: polish every complete board (BW, TSR descent).
    pub breaks_polish: bool,
    /// Breaks: complete boards looked for have up to this many more
    /// breaks than one better than the best.
    pub breaks_slack: u32,
    /// `--start breaks`: share of the time budget spent building the start.
    pub breaks_share: f64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            ta_cells: 0,
            bias: 4,
            tabu_cell: (2, 6),
            tabu_pair: (10, 40),
            plateau: 0,
            perturb_moves: 6,
            perturb_grow: 0,
            kick: false,
            intensify_after: 5,
            restart_after: 0,
            force: 0,
            accept: 0,
            lahc: 0,
            lahc_moves: 2000,
            lahc_slack: 3,
            ro_kick: 0,
            polish: true,
            ta_iterations: 1000,
            region: (4, 4),
            regions_per_cycle: 3,
            max_holes: 3,
            resolve_nodes: 50_000,
            relax: 0,
            relax_nodes: 2_000_000,
            population: 1000,
            tournament: 3,
            breaks_from: 0.5,
            breaks_shape: 4.0,
            breaks_budget: 0,
            restart_nodes: 5_000_000,
            breaks_share: 0.25,
            breaks_polish: true,
            breaks_slack: 3,
        }
    }
}

impl Params {
    /// Names accepted by [`Params::set`].
    pub const NAMES: &'static [&'static str] = &[
        "ta_cells",
        "bias",
        "tabu_cell",
        "tabu_pair",
        "plateau",
        "perturb_moves",
        "perturb_grow",
        "kick",
        "intensify_after",
        "restart_after",
        "force",
        "accept",
        "lahc",
        "lahc_moves",
        "lahc_slack",
        "ro_kick",
        "polish",
        "ta_iterations",
        "region",
        "regions_per_cycle",
        "max_holes",
        "resolve_nodes",
        "relax",
        "relax_nodes",
        "population",
        "tournament",
        "breaks_from",
        "breaks_shape",
        "breaks_budget",
        "restart_nodes",
        "breaks_share",
        "breaks_polish",
        "breaks_slack",
    ];

    /// Sets one knob from text (`name=value`; ranges as `lo..hi`, the
    /// region as `HxW`, `polish` as true/false).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        fn num<T: std::str::FromStr>(v: &str) -> Result<T, String> {
            v.trim().parse().map_err(|_| format!("`{v}` is not a valid number"))
        }
        fn flag(v: &str) -> Result<bool, String> {
            v.parse().map_err(|_| format!("`{v}`: expected true or false"))
        }
        fn range(v: &str) -> Result<(u64, u64), String> {
            let (a, b) = v.split_once("..").ok_or_else(|| format!("`{v}`: expected LO..HI"))?;
            let (a, b) = (num(a)?, num(b)?);
            if a > b {
                return Err(format!("`{v}`: LO is above HI"));
            }
            Ok((a, b))
        }
        match name {
            "ta_cells" => self.ta_cells = num::<usize>(value)?.max(1),
            "bias" => self.bias = num(value)?,
            "tabu_cell" => self.tabu_cell = range(value)?,
            "tabu_pair" => self.tabu_pair = range(value)?,
            "plateau" => self.plateau = num(value)?,
            "perturb_moves" => self.perturb_moves = num(value)?,
            "perturb_grow" => self.perturb_grow = num(value)?,
            "kick" => self.kick = flag(value)?,
            "intensify_after" => self.intensify_after = num::<u32>(value)?.max(1),
            "restart_after" => self.restart_after = num(value)?,
            "force" => self.force = num(value)?,
            "accept" => self.accept = num(value)?,
            "lahc" => self.lahc = num(value)?,
            "lahc_moves" => self.lahc_moves = num(value)?,
            "lahc_slack" => self.lahc_slack = num(value)?,
            "ro_kick" => self.ro_kick = num(value)?,
            "polish" => self.polish = flag(value)?,
            "ta_iterations" => self.ta_iterations = num(value)?,
            "region" => {
                let (h, w) = value.split_once(['x', 'X']).ok_or_else(|| format!("`{value}`: expected HxW"))?;
                self.region = (num::<usize>(h)?.max(1), num::<usize>(w)?.max(1));
            }
            "regions_per_cycle" => self.regions_per_cycle = num(value)?,
            "max_holes" => self.max_holes = num(value)?,
            "resolve_nodes" => self.resolve_nodes = num(value)?,
            "relax" => self.relax = num(value)?,
            "relax_nodes" => self.relax_nodes = num(value)?,
            "population" => self.population = num::<usize>(value)?.max(2),
            "tournament" => self.tournament = num::<usize>(value)?.max(1),
            "breaks_from" => self.breaks_from = num::<f64>(value)?.clamp(0.0, 1.0),
            "breaks_shape" => self.breaks_shape = num::<f64>(value)?.max(0.0),
            "breaks_budget" => self.breaks_budget = num(value)?,
            "restart_nodes" => self.restart_nodes = num::<u64>(value)?.max(1),
            "breaks_polish" => self.breaks_polish = flag(value)?,
            "breaks_slack" => self.breaks_slack = num(value)?,
            "breaks_share" => self.breaks_share = num::<f64>(value)?.clamp(0.0, 1.0),
            _ => return Err(format!("unknown parameter `{name}`: expected one of {}", Params::NAMES.join(", "))),
        }
        Ok(())
    }
}
