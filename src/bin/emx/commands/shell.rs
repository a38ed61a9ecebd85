//! `emx completions` and `emx man`: shell completions and manual pages,
//! generated from the same clap definitions as the parser, so they list
//! exactly the commands and flags `emx` accepts.

use crate::usage::EXIT_OK;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `emx completions`.
#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Arguments of `emx man`.
#[derive(Args)]
pub struct ManArgs {
    /// Write `emx.1` and one page per command (`emx-solve.1`, ...) into
    /// this directory instead of printing `emx.1` on stdout.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Prints the completion script of `cli` for the shell asked.
pub fn completions(args: CompletionsArgs, mut cli: clap::Command) -> anyhow::Result<u8> {
    clap_complete::generate(args.shell, &mut cli, "emx", &mut std::io::stdout());
    Ok(EXIT_OK)
}

/// Prints the manual page of `cli`, or writes every page into a directory.
pub fn man(args: ManArgs, cli: clap::Command) -> anyhow::Result<u8> {
    match args.dir {
        None => clap_mangen::Man::new(cli).render(&mut std::io::stdout())?,
        Some(dir) => {
            std::fs::create_dir_all(&dir).map_err(|e| crate::usage_error!("cannot create {}: {e}", dir.display()))?;
            clap_mangen::generate_to(cli, &dir)
                .map_err(|e| crate::usage_error!("cannot write the pages into {}: {e}", dir.display()))?;
        }
    }
    Ok(EXIT_OK)
}
