//! What every command reports its outcome with: the exit codes, and the
//! usage error (a mistake in the command line that clap cannot see, exit
//! code 2) with the macros that return one.

/// Exit code: success (solutions found, or the command did its job).
pub const EXIT_OK: u8 = 0;
/// Exit code: the search space was exhausted without a solution.
pub const EXIT_NO_SOLUTION: u8 = 1;
/// Exit code: bad input or usage.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code: a limit (time, nodes, solutions, Ctrl-C) stopped the run early.
pub const EXIT_LIMIT: u8 = 3;

/// A mistake in the command line that clap cannot see (exit code 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Returns a [`UsageError`] unless `cond` holds.
#[macro_export]
macro_rules! usage_ensure {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err($crate::usage::UsageError(format!($($fmt)+)).into());
        }
    };
}

/// Returns a [`UsageError`] at once: a mistake in the command line (exit code 2).
#[macro_export]
macro_rules! usage_bail {
    ($($fmt:tt)+) => {
        return Err($crate::usage::UsageError(format!($($fmt)+)).into())
    };
}

/// A [`UsageError`] built in place, for `map_err` on the parse of a flag's value.
#[macro_export]
macro_rules! usage_error {
    ($($fmt:tt)+) => {
        anyhow::Error::from($crate::usage::UsageError(format!($($fmt)+)))
    };
}
