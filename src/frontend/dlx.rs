//! Knuth's `.dlx` exact-cover text read into the IR (the reader itself,
//! puzzle-independent, is `emx_encoders::dlx`).

/// Builds the IR of a Knuth `.dlx` file (options keep their file order, so
/// option `k` is the `k`-th option line).
pub fn dlx_problem(text: &str, file: &str, name: &str) -> Result<crate::ir::Problem, crate::frontend::ParseError> {
    use crate::ir::{Entry, ProblemBuilder, NO_COLOR};
    let err = |line: usize, col: Option<usize>, message: String| crate::frontend::ParseError {
        file: file.to_string(),
        line,
        col,
        message,
    };
    let dlx = emx_encoders::dlx::read_dlx(text).map_err(|e| err(e.line, e.col, e.message))?;
    let mut b = ProblemBuilder::new(name);
    let ids: Vec<u32> = dlx
        .items
        .iter()
        .map(|i| match i.multiplicity {
            Some(m) => b.primary_with_multiplicity(i.name.clone(), m),
            None => b.secondary(i.name.clone()),
        })
        .collect();
    let colors: Vec<u32> =
        dlx.colors.iter().enumerate().map(|(k, c)| if k == 0 { NO_COLOR } else { b.color(c) }).collect();
    for opt in &dlx.options {
        b.option(opt.iter().map(|e| Entry { item: ids[e.item as usize], color: colors[e.color as usize] }));
    }
    b.build(None).map_err(|e| err(1, None, e.to_string()))
}
