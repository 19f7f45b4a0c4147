//! Progress bars for the long-running tools (suites, datagen, tune): drawn
//! on stderr when it is a terminal, hidden otherwise (so that logs and
//! pipes get only the results).

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar over `len` steps drawn with `template` (indicatif's
/// template syntax), or a hidden one when stderr is not a terminal.
pub fn bar(len: u64, template: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}
