//! The CNF encoding flags shared by `emx encode --to cnf` and
//! `emx solve --backend sat`.

use crate::usage::UsageError;
use clap::builder::PossibleValuesParser;
use clap::Args;
use emx::encode::cnf;
use emx::input::Instance;
use emx_encoders::{AmoEncoding, CardEncoding, CnfOptions, ColorChoice, ColorEncoding, ExactlyOneOver};

#[derive(Args, Clone, Debug)]
pub struct CnfFlags {
    /// At-most-one encoding (cnf).
    #[arg(long, default_value = AmoEncoding::default().name(), value_parser = PossibleValuesParser::new(AmoEncoding::NAMES))]
    pub amo: String,
    /// Exactly-k encoding (cnf) for every k > 1: counter, totalizer or network.
    ///
    /// Used for identical pieces (an item covered k times) and
    /// --color-totals: Sinz's sequential counter, Bailleux-Boufkhad's
    /// totalizer, or Asín et al.'s cardinality network; exactly-one (k = 1)
    /// follows --amo.
    #[arg(long, default_value = CardEncoding::default().name(), value_parser = PossibleValuesParser::new(CardEncoding::NAMES))]
    pub card: String,
    /// Colour agreement (cnf): conflict clauses or colour variables.
    ///
    /// conflicts: a binary clause per pair of options that disagree on a
    /// join; variables: a variable per (join, colour), as in Heule's
    /// compact direct encoding.
    #[arg(long, default_value = ColorEncoding::default().name(), value_parser = PossibleValuesParser::new(ColorEncoding::NAMES))]
    pub colors: String,
    /// What each cell's and tile's exactly-one ranges over (cnf): options or sites.
    ///
    /// options: the option variables; sites: one variable per tile in a cell,
    /// for all its rotations, as in Heule's encodings (generally: per set of
    /// options with the same primary items).
    #[arg(long, default_value = ExactlyOneOver::default().name(), value_parser = PossibleValuesParser::new(ExactlyOneOver::NAMES))]
    pub exactly_one_over: String,
    /// With --colors variables: exactly one or at most one colour per join.
    ///
    /// exactly-one adds an at-least-one clause over the colour variables of a
    /// join every solution covers. [default: the library's, see
    /// docs/encoders.md]
    #[arg(long, value_parser = PossibleValuesParser::new(ColorChoice::NAMES))]
    pub color_choice: Option<String>,
    /// With --colors variables: a support clause per colour variable (on or off).
    ///
    /// The clause says the colour implies one of the options showing it.
    /// [default: on]
    #[arg(long, value_parser = ["on", "off"])]
    pub color_support: Option<String>,
    /// Edge matching, with --colors variables: each colour's total (on or off).
    ///
    /// Adds the redundant total of each colour (exactly half its tile sides
    /// show on joins) as an exactly-k constraint over its colour variables.
    #[arg(long, value_parser = ["on", "off"])]
    pub color_totals: Option<String>,
}

impl CnfFlags {
    /// The encoder settings these flags ask for, for `instance`, with
    /// `excluded` options.
    pub fn options(&self, instance: &Instance, excluded: Vec<bool>) -> anyhow::Result<CnfOptions> {
        let colors: ColorEncoding = self.colors.parse().map_err(anyhow::Error::msg)?;
        let color_choice = match &self.color_choice {
            None => ColorChoice::default(),
            Some(c) if colors == ColorEncoding::Conflicts => {
                return Err(UsageError(format!(
                    "--color-choice {c} needs --colors variables (conflict clauses have no colour variables)"
                ))
                .into())
            }
            Some(c) => c.parse().map_err(anyhow::Error::msg)?,
        };
        let color_totals = match self.color_totals.as_deref() {
            None | Some("off") => vec![],
            Some(_) if colors == ColorEncoding::Conflicts => {
                return Err(UsageError(
                    "--color-totals on needs --colors variables (conflict clauses have no colour variables)".into(),
                )
                .into())
            }
            Some(_) => cnf::edge_color_totals(instance)
                .ok_or_else(|| UsageError("--color-totals on applies to edge-matching puzzles only".into()))?,
        };
        let color_support = match self.color_support.as_deref() {
            None => CnfOptions::default().color_support,
            Some(v) if colors == ColorEncoding::Conflicts => {
                return Err(UsageError(format!(
                    "--color-support {v} needs --colors variables (conflict clauses have no colour variables)"
                ))
                .into())
            }
            Some(v) => v == "on",
        };
        Ok(CnfOptions {
            amo: self.amo.parse().map_err(anyhow::Error::msg)?,
            card: self.card.parse().map_err(anyhow::Error::msg)?,
            colors,
            exactly_one_over: self.exactly_one_over.parse().map_err(anyhow::Error::msg)?,
            color_choice,
            color_support,
            color_totals,
            excluded,
        })
    }
}
