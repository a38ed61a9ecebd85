//! One module per command: its arguments and what it runs. Commands share
//! argument groups through [`crate::args`] and never call each other.

pub mod bench;
pub mod decode;
pub mod encode;
pub mod generate;
pub mod info;
pub mod merge;
pub mod optimize;
pub mod render;
pub mod score;
pub mod shell;
pub mod solve;
pub mod split;
pub mod task;
